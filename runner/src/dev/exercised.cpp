// TODOs in functions no check runs (see exercised.hpp).
#include "dev/exercised.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "content/manifest.hpp"
#include "dev/source_split.hpp"

namespace workbook {

namespace {

// A function definition in a source file: its name and the 1-based lines it spans,
// from the first line of its head (a template line included) to the line of its closing
// brace (Python: from its def to its last indented line).
struct FunctionSpan {
  std::string name;
  int first = 0, last = 0;
};

// The code of each line with string and character literals blanked (so a quoted brace
// counts for nothing) and preprocessor lines (with their continuations) removed.
std::vector<std::string> plain_code(const std::vector<SourceLine>& lines) {
  std::vector<std::string> out;
  bool continued = false;
  for (const auto& l : lines) {
    std::string code;
    char quote = 0;
    for (std::size_t j = 0; j < l.code.size(); ++j) {
      const char ch = l.code[j];
      if (quote) {
        if (ch == '\\') ++j;
        else if (ch == quote) quote = 0;
        code += ' ';
      } else {
        if (ch == '"' || ch == '\'') quote = ch;
        code += ch;
      }
    }
    const auto first = code.find_first_not_of(" \t");
    const bool directive = continued || (first != std::string::npos && code[first] == '#');
    continued = directive && !code.empty() && code.back() == '\\';
    out.push_back(directive ? std::string() : code);
  }
  return out;
}

// The name a brace's head defines as a function, or "" when the head is not a function
// header: it ends with its parameter list (and qualifiers), the identifier before its
// first '(' is no keyword, and no '=' comes before that '(' (a lambda assigned to a name).
std::string function_name(const std::string& head) {
  static const std::regex ends_as_function(R"(\)\s*(const|noexcept|override|final|mutable|\s)*(->[^{;]*)?$)");
  static const std::regex name_before_paren(R"(([A-Za-z_]\w*)\s*(<[^()]*>)?\s*$)");
  static const char* keywords[] = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
                                   "alignas", "static_assert", "do", "else"};
  if (!std::regex_search(head, ends_as_function)) return "";
  const auto paren = head.find('(');
  const std::string before = head.substr(0, paren);
  if (before.find('=') != std::string::npos) return "";
  std::smatch m;
  if (!std::regex_search(before, m, name_before_paren)) return "";
  const std::string name = m[1].str();
  for (const char* k : keywords)
    if (name == k) return "";
  return name;
}

enum class Scope { space, type, function, other };

Scope classify(const std::string& head, bool in_code_scope, std::string& name) {
  static const std::regex space(R"(^(inline )?namespace\b|^extern "")");
  static const std::regex type(R"(\b(struct|class|union|enum)\b[^()]*$)");
  if (in_code_scope) return Scope::other;  // a block, a lambda or a local type
  if (std::regex_search(head, space)) return Scope::space;
  if (std::regex_search(head, type)) return Scope::type;
  name = function_name(head);
  return name.empty() ? Scope::other : Scope::function;
}

// The function definitions of C++/CUDA code (plain_code's lines): free functions, kernels,
// templates and member functions; not lambdas or functions local to another.
std::vector<FunctionSpan> cpp_spans(const std::vector<std::string>& code) {
  std::vector<FunctionSpan> spans;
  struct Open {
    Scope scope;
    std::string name;
    int first;
  };
  std::vector<Open> stack;
  std::string head;
  int head_line = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    for (char ch : code[i] + "\n") {
      if (ch == '{') {
        const bool in_code = std::any_of(stack.begin(), stack.end(), [](const Open& o) {
          return o.scope == Scope::function || o.scope == Scope::other;
        });
        std::string name;
        const Scope scope = classify(collapse(head), in_code, name);
        stack.push_back({scope, name, head_line ? head_line : line});
        head.clear();
        head_line = 0;
      } else if (ch == '}') {
        if (!stack.empty()) {
          if (stack.back().scope == Scope::function) spans.push_back({stack.back().name, stack.back().first, line});
          stack.pop_back();
        }
        head.clear();
        head_line = 0;
      } else if (ch == ';') {
        head.clear();
        head_line = 0;
      } else {
        if (!head_line && !std::isspace(static_cast<unsigned char>(ch))) head_line = line;
        head += ch;
      }
    }
  }
  return spans;
}

int indent_of(const std::string& s) {
  int n = 0;
  for (char c : s) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 8;
    else break;
  }
  return n;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

// Python: `def name(` outside another def; its body runs while lines are blank or
// indented deeper than the def.
std::vector<FunctionSpan> python_spans(const std::vector<SourceLine>& lines) {
  static const std::regex def(R"(^(\s*)(async\s+)?def\s+([A-Za-z_]\w*)\s*\()");
  std::vector<FunctionSpan> spans;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i].code, m, def)) continue;
    const int indent = indent_of(lines[i].code);
    const bool nested = std::any_of(spans.begin(), spans.end(), [&](const FunctionSpan& s) {
      return s.first <= static_cast<int>(i + 1) && static_cast<int>(i + 1) <= s.last;
    });
    std::size_t last = i;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const std::string& c = lines[j].code;
      if (blank(c)) {
        if (!blank(lines[j].comment) && indent_of(lines[j].code + lines[j].comment) > indent) last = j;
        continue;
      }
      if (indent_of(c) <= indent) break;
      last = j;
    }
    if (!nested) spans.push_back({m[3].str(), static_cast<int>(i + 1), static_cast<int>(last + 1)});
  }
  return spans;
}

bool is_todo(const std::string& comment) {
  static const std::regex todo(R"(^\s*TODO\b)");
  return std::regex_search(comment, todo);
}

// The innermost span holding `line`, or null.
const FunctionSpan* holding(const std::vector<FunctionSpan>& spans, int line) {
  const FunctionSpan* best = nullptr;
  for (const auto& s : spans)
    if (s.first <= line && line <= s.last && (!best || s.last - s.first < best->last - best->first)) best = &s;
  return best;
}

// Whether `name` appears as an identifier in the code outside the lines of `own`.
bool referenced_elsewhere(const std::vector<std::string>& code, const std::string& name, const FunctionSpan& own) {
  const std::regex word("\\b" + name + "\\b");
  for (std::size_t i = 0; i < code.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    if (line >= own.first && line <= own.last) continue;
    if (std::regex_search(code[i], word)) return true;
  }
  return false;
}

// The lines' code as the rule reads it (C++: literals blanked, no preprocessor lines).
std::vector<std::string> code_lines(const std::vector<SourceLine>& lines, bool python) {
  if (!python) return plain_code(lines);
  std::vector<std::string> code;
  for (const auto& l : lines) code.push_back(l.code);
  return code;
}

}  // namespace

std::vector<TodoSite> todo_sites(const std::string& text, bool python) {
  const auto lines = split_source(text, python);
  const auto spans = python ? python_spans(lines) : cpp_spans(plain_code(lines));
  std::vector<TodoSite> sites;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!is_todo(lines[i].comment)) continue;
    const int line = static_cast<int>(i + 1);
    TodoSite site{line, ""};
    if (const FunctionSpan* f = holding(spans, line)) {
      site.function = f->name;
    } else {  // a comment above a function: the first one defined after it
      const FunctionSpan* next = nullptr;
      for (const auto& s : spans)
        if (s.first > line && (!next || s.first < next->first)) next = &s;
      if (next) site.function = next->name;
    }
    sites.push_back(site);
  }
  return sites;
}

std::vector<std::string> unexercised_todo_problems(
    const std::string& starter_rel, const std::string& starter, bool python, const std::string& where,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& exercised) {
  const auto lines = split_source(starter, python);
  const std::vector<std::string> code = code_lines(lines, python);
  const auto spans = python ? python_spans(lines) : cpp_spans(code);
  auto declared = [&](const std::string& fn) {
    return std::any_of(exercised.begin(), exercised.end(), [&](const auto& e) { return e.first == fn; });
  };
  std::vector<std::string> problems;
  std::vector<std::string> reported;  // one problem per function
  for (const auto& site : todo_sites(starter, python)) {
    if (site.function.empty()) {
      problems.push_back(fmt::format("{}:{}: a TODO after the last function: put it inside the function the learner "
                                     "writes, so that a check can be named for it in `exercised:`",
                                     starter_rel, site.line));
      continue;
    }
    if (std::find(reported.begin(), reported.end(), site.function) != reported.end()) continue;
    reported.push_back(site.function);
    if (!declared(site.function)) {
      problems.push_back(fmt::format(
          "{}:{}: the TODO in {} is run by no declared check: add `{}: [checks...]` under the lab's `exercised:` in {} "
          "naming the checks that run it (at a size that is not a multiple of its block, its outputs between canary "
          "bands), adding such a check to the lab if there is none",
          starter_rel, site.line, site.function, site.function, where));
    }
    const FunctionSpan* own = holding(spans, site.line);
    if (!own) {
      auto it = std::find_if(spans.begin(), spans.end(), [&](const FunctionSpan& s) { return s.name == site.function; });
      own = it == spans.end() ? nullptr : &*it;
    }
    if (own && !referenced_elsewhere(code, site.function, *own)) {
      problems.push_back(fmt::format("{}:{}: {} holds a TODO but nothing in the starter calls it, so no check can run "
                                     "it: call it from the checked path, or move the TODO into a function that runs",
                                     starter_rel, site.line, site.function));
    }
  }
  for (const auto& [fn, checks] : exercised) {
    if (std::none_of(spans.begin(), spans.end(), [&](const FunctionSpan& s) { return s.name == fn; }))
      problems.push_back(fmt::format("{}: exercised.{}: no function {} in {}", where, fn, fn, starter_rel));
  }
  return problems;
}

std::vector<std::string> unknown_exercised_checks(
    const std::string& where, const std::vector<std::pair<std::string, std::vector<std::string>>>& exercised,
    const std::vector<std::string>& checks, bool memcheck, const std::string& solution) {
  std::vector<std::string> problems;
  for (const auto& [fn, names] : exercised) {
    for (const auto& c : names) {
      const bool listed = std::find(checks.begin(), checks.end(), c) != checks.end();
      const bool known = listed || c == kCudaErrorOnly || (memcheck && c == kMemcheckCheck) ||
                         solution.find("\"" + c + "\"") != std::string::npos;
      if (!known)
        problems.push_back(fmt::format("{}: exercised.{}: '{}' is no check the lab reports (not in its checks, not "
                                       "memcheck_quick of a `memcheck: quick` lab, not {}, not named in its solution)",
                                       where, fn, c, kCudaErrorOnly));
    }
  }
  return problems;
}

}  // namespace workbook
