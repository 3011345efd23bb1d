// TODOs in functions no check runs (see exercised.hpp).
#include "dev/exercised.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "content/manifest.hpp"
#include "dev/source_split.hpp"
#include "diff/function_split.hpp"
#include "util/lines.hpp"

namespace workbook {

namespace {

// A function definition in a source file: its name and the 1-based lines it spans,
// from the first line of its head (a template line included) to the line of its closing
// brace (Python: from its def to its last indented line).
struct FunctionSpan {
  std::string name;
  int first = 0, last = 0;
};

// The function definitions of C++/CUDA code blanked by diff::blank_non_code, found by the
// diff/ scanner looking through types: free functions, kernels, templates and member
// functions, each by todo_function_name; not lambdas or functions local to another, nor
// operators.
std::vector<FunctionSpan> cpp_spans(const std::string& code) {
  std::vector<FunctionSpan> spans;
  for (const diff::CodeSpan& s : diff::code_spans(code, true)) {
    if (std::string name = todo_function_name(s.name); !name.empty()) spans.push_back({std::move(name), s.first, s.last});
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

// The span holding `line` (spans do not nest; of two on one line, the first), or null.
const FunctionSpan* holding(const std::vector<FunctionSpan>& spans, int line) {
  for (const auto& s : spans)
    if (s.first <= line && line <= s.last) return &s;
  return nullptr;
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

// A source as the rule reads it: its lines (code and comments), the code of each line
// (C++: comments, literals and preprocessor lines blanked) and its functions.
struct Reading {
  std::vector<SourceLine> lines;
  std::vector<std::string> code;
  std::vector<FunctionSpan> spans;
};

Reading read_source(const std::string& text, bool python) {
  Reading r{split_source(text, python), {}, {}};
  if (python) {
    for (const auto& l : r.lines) r.code.push_back(l.code);
    r.spans = python_spans(r.lines);
  } else {
    const std::string blanked = diff::blank_non_code(text);
    r.code = split_lines(blanked);
    r.spans = cpp_spans(blanked);
  }
  return r;
}

}  // namespace

std::string todo_function_name(const std::string& name) {
  static const std::regex named(R"(~?([A-Za-z_]\w*))");
  const std::string last = name.substr(name.rfind(':') + 1);  // no ':': npos + 1 is 0
  std::smatch m;
  return std::regex_match(last, m, named) ? m[1].str() : std::string();
}

std::vector<TodoSite> todo_sites(const std::string& text, bool python) {
  const Reading source = read_source(text, python);
  const auto& spans = source.spans;
  std::vector<TodoSite> sites;
  for (std::size_t i = 0; i < source.lines.size(); ++i) {
    if (!is_todo(source.lines[i].comment)) continue;
    const int line = static_cast<int>(i + 1);
    // The spans are in file order: the first that ends at or after the line holds it, or
    // else is the function defined next after it (the TODO is a comment above it).
    auto f = std::find_if(spans.begin(), spans.end(), [&](const FunctionSpan& s) { return s.last >= line; });
    sites.push_back({line, f == spans.end() ? "" : f->name});
  }
  return sites;
}

std::vector<std::string> unexercised_todo_problems(
    const std::string& starter_rel, const std::string& starter, bool python, const std::string& where,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& exercised) {
  const Reading source = read_source(starter, python);
  const auto& spans = source.spans;
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
    if (own && !referenced_elsewhere(source.code, site.function, *own)) {
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
