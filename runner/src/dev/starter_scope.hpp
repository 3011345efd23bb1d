// A starter differs from its solution only inside the functions its TODOs name (`dev
// check`, rustlings' exercise/solution pairs). What the learner is not asked to write (the
// includes, constants, CPU reference, launcher, main) must be the solution's own: else the
// learner's file runs other code than the one the lab was validated with, and a PASS or an
// OUT OF RANGE means something else than on the solution.
#pragma once

#include <string>
#include <vector>

namespace workbook {

// Problems for a C++/CUDA starter against its solution. Both are split into top-level
// pieces (diff/function_split.hpp: the file scope, each function and type) with comments
// removed and runs of whitespace and line breaks read as one space, so a comment, an
// indentation or a line broken elsewhere is allowed anywhere.
// A piece whose code differs, or that only one file has, is a problem unless it is a
// function the learner writes: one that holds a TODO of the starter (dev/exercised.hpp) or
// one the manifest's `exercised:` names (`declared`: a TODO above three phase functions
// names them all there). A helper only the solution has is a problem too: the learner is
// asked for it by a TODO in a function of the starter. Each problem reads "<starter_rel>:
// <what> differs from <solution_rel>:<line> outside the functions its TODOs name; ...".
std::vector<std::string> starter_scope_problems(const std::string& starter_rel, const std::string& starter,
                                                const std::string& solution_rel, const std::string& solution,
                                                const std::vector<std::string>& declared);

}  // namespace workbook
