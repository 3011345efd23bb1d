// A starter's comments must not hand the learner the solution (`dev check`): a TODO says
// what to achieve and why; the how belongs in the manifest's hints (`workbook hint`).
#pragma once

#include <string>
#include <vector>

namespace workbook {

// The code statements of a source file that a starter comment must not quote: the
// statements of `solution` (C++/CUDA, or Python when `python`) that are not code in
// `starter` too, each with whitespace squeezed out. A statement is a piece of a line's
// code (comments and string contents aside) between ';', '{' and '}' outside brackets,
// and, from it, the body after a for/if/while header, the argument of an upper-case
// macro such as WB_CHECK(...), and an assignment without its declared type. Trivial
// pieces (under 10 characters, an argument-less call like __syncthreads(), a bare word)
// are left out.
struct CodeFragment {
  std::string squeezed;  // whitespace removed: what is searched for
  std::string shown;     // whitespace collapsed: what a problem quotes
  int line = 0;          // 1-based line in the solution
};

// Problems where a comment of `starter` holds one of the solution's statements: each
// reads "<starter_rel>:<line>: a comment gives the solution's code '<statement>'
// (<solution_rel>:<line>); say what to achieve and why, and move the how to the
// manifest's hints". Consecutive comment lines are read as one text, so a statement
// broken over two comment lines is found too.
std::vector<std::string> starter_leak_problems(const std::string& starter_rel, const std::string& starter,
                                               const std::string& solution_rel, const std::string& solution,
                                               bool python);

}  // namespace workbook
