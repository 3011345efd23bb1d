// A starter against its solution outside its TODOs' functions (see starter_scope.hpp).
#include "dev/starter_scope.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "dev/exercised.hpp"
#include "dev/source_split.hpp"
#include "diff/function_split.hpp"

namespace workbook {

namespace {

struct CodePiece {
  std::string code;  // its code, runs of whitespace and line breaks as one space
  int line = 0;      // its first line in the file
};

// The file's pieces by name, comments removed (the lines stay where they were).
std::map<std::string, CodePiece> code_pieces(const std::string& text) {
  std::string code;
  for (const auto& line : split_source(text, false)) code += line.code + "\n";
  std::map<std::string, CodePiece> out;
  for (const auto& piece : diff::split_pieces(code)) {
    CodePiece& p = out[piece.name];
    if (p.line == 0) p.line = piece.first_line;
    for (const auto& line : piece.lines) p.code += line + " ";
  }
  for (auto& [name, piece] : out) piece.code = collapse(piece.code);
  return out;
}

}  // namespace

std::vector<std::string> starter_scope_problems(const std::string& starter_rel, const std::string& starter,
                                                const std::string& solution_rel, const std::string& solution,
                                                const std::vector<std::string>& declared) {
  std::set<std::string> todo_functions(declared.begin(), declared.end());
  for (const auto& site : todo_sites(starter, false)) todo_functions.insert(site.function);
  todo_functions.erase("");  // a TODO after the last function; and an operator's name
  auto learners = [&](const std::string& piece) { return todo_functions.count(todo_function_name(piece)) > 0; };
  const auto mine = code_pieces(starter), theirs = code_pieces(solution);
  std::vector<std::string> problems;
  auto problem = [&](const std::string& what, const std::string& in_solution) {
    problems.push_back(fmt::format("{}: {} differs from {} outside the functions its TODOs name; the learner "
                                   "would run other code than the solution was validated with: make it the "
                                   "solution's, or put a TODO in it",
                                   starter_rel, what, in_solution));
  };
  for (const auto& [name, piece] : theirs) {
    if (learners(name)) continue;
    const auto it = mine.find(name);
    const std::string at = fmt::format("{}:{}", solution_rel, piece.line);
    if (it == mine.end()) problem(fmt::format("{} (only the solution has it)", name), at);
    else if (it->second.code != piece.code) problem(fmt::format("{} (line {})", name, it->second.line), at);
  }
  for (const auto& [name, piece] : mine) {
    if (theirs.count(name) == 0 && !learners(name))
      problem(fmt::format("{} (line {}; the solution has none)", name, piece.line), solution_rel);
  }
  return problems;
}

}  // namespace workbook
