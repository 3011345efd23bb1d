// Splitting a C++ or CUDA source file into its top-level pieces, so that two versions of a
// lab can be compared function by function (`workbook show LAB --solution`).
//
// A small brace-matching scanner, not a parser, shared with dev/exercised.hpp (the
// functions a starter's TODOs sit in): comments, string and character literals (raw
// strings too) and preprocessor lines are blanked out first, so a brace inside them never
// counts. Then, at file scope (namespaces and extern "C" blocks are looked through), each
// `{` is classified by the text in front of it:
//   a parameter list (not an attribute such as __launch_bounds__(...)) -> a function
//     (kernel if it says __global__, device if __device__ without __host__, else host;
//     a `{` in a default argument or a member initializer list is still its head)
//   struct / class / union / enum                                      -> a type
//   anything else (an initializer `= {...}`, a brace-initialized variable) -> file scope
// Everything that is not a function or a type (includes, macros, constants, the comments
// between them) is gathered, line by line, into one piece named "(file scope)". The
// comment lines directly above a function or type belong to it.
#pragma once

#include <string>
#include <vector>

#include "util/lines.hpp"

namespace workbook::diff {

enum class PieceKind { file_scope, kernel, device, host, type };
const char* to_string(PieceKind kind);

struct Piece {
  PieceKind kind = PieceKind::host;
  std::string name;                // "tiled_gemm", "Matrix::at", "operator()", "struct Params", "(file scope)"
  int first_line = 0;              // 1-based line of the piece's first line in the file
  std::vector<std::string> lines;  // its lines (for file scope: every unclaimed line, in order)
  std::vector<int> line_numbers;   // the 1-based file line of each entry of `lines`
};

// The text with every comment, literal content and preprocessor line replaced by spaces
// (newlines and the quote characters are kept, so offsets and lines stay the same).
std::string blank_non_code(const std::string& text);

// A function or type of blanked code: the 1-based lines from the first of its head (a
// template line included) to its closing brace (a type's: to the ';' after it).
struct CodeSpan {
  PieceKind kind = PieceKind::host;
  std::string name;
  int first = 0, last = 0;
};

// The functions and types of blanked code (blank_non_code), in file order. With
// `members`, types are looked through as namespaces are: the functions defined in a
// struct or class are spans and the type is none. A function's body is never looked into
// (its lambdas and local types are no spans).
std::vector<CodeSpan> code_spans(const std::string& code, bool members);

// The pieces of a source file: the file scope first (when it holds any non-blank line),
// then the functions and types in file order.
std::vector<Piece> split_pieces(const std::string& text);

using workbook::split_lines;  // util/lines.hpp: the lines of a text, without line ends

}  // namespace workbook::diff
