// Solution code quoted in a starter's comments (see starter_leaks.hpp).
#include "dev/starter_leaks.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "dev/source_split.hpp"

namespace workbook {

namespace {

std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}


// The pieces of one line's code between ';', '{' and '}' outside brackets.
std::vector<std::string> statements(const std::string& code) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char ch : code) {
    if (ch == '(' || ch == '[') ++depth;
    if ((ch == ')' || ch == ']') && depth > 0) --depth;
    if (depth == 0 && (ch == ';' || ch == '{' || ch == '}')) parts.emplace_back();
    else parts.back() += ch;
  }
  for (auto& p : parts) p = collapse(p);
  return parts;
}

// The body after a leading for/if/while/switch header, or "" when there is none.
std::string after_header(const std::string& s) {
  static const std::regex header(R"(^(for|if|while|else if|switch) ?\()");
  std::smatch m;
  if (!std::regex_search(s, m, header)) return "";
  int depth = 0;
  for (std::size_t i = static_cast<std::size_t>(m.position(0) + m.length(0)) - 1; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return collapse(s.substr(i + 1));
  }
  return "";
}

bool trivial(const std::string& squeezed) {
  static const std::regex bare_call(R"(^[\w:.]+\(\)$)");
  static const std::regex has_operator(R"([=()\[\]<>+\-*/])");
  return squeezed.size() < 10 || std::regex_match(squeezed, bare_call) || !std::regex_search(squeezed, has_operator);
}

// A statement and the forms of it a comment might quote.
std::vector<std::string> quotable_forms(const std::string& statement) {
  static const std::regex macro(R"(^[A-Z][A-Z0-9_]* ?\((.*)\)$)");
  static const std::regex declaration(R"(^(?:[A-Za-z_][\w:<>]*[ *&]+)+([A-Za-z_]\w* ?=[^=].*)$)");
  std::vector<std::string> forms{statement};
  if (auto body = after_header(statement); !body.empty()) forms.push_back(body);
  for (std::size_t i = 0; i < forms.size(); ++i) {  // grows as it goes: a macro's argument can be a declaration
    std::smatch m;
    if (std::regex_match(forms[i], m, macro)) forms.push_back(collapse(m[1].str()));
    else if (std::regex_match(forms[i], m, declaration)) forms.push_back(m[1].str());
  }
  return forms;
}

std::vector<CodeFragment> solution_fragments(const std::vector<SourceLine>& solution,
                                             const std::vector<SourceLine>& starter) {
  std::set<std::string> given;  // code the starter has already: not the learner's to write
  for (const auto& l : starter) {
    given.insert(squeeze(l.code));
    for (const auto& s : statements(l.code))
      for (const auto& f : quotable_forms(s)) given.insert(squeeze(f));
  }
  std::vector<CodeFragment> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < solution.size(); ++i) {
    for (const auto& s : statements(solution[i].code)) {
      for (const auto& f : quotable_forms(s)) {
        std::string q = squeeze(f);
        if (trivial(q) || given.count(q) || !seen.insert(q).second) continue;
        out.push_back({std::move(q), f, static_cast<int>(i + 1)});
      }
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> starter_leak_problems(const std::string& starter_rel, const std::string& starter,
                                               const std::string& solution_rel, const std::string& solution,
                                               bool python) {
  const auto starter_lines = split_source(starter, python);
  const auto fragments = solution_fragments(split_source(solution, python), starter_lines);
  std::vector<std::string> problems;
  // A run of comment lines is one text; a line with code after its comment ends the run.
  std::vector<std::pair<int, std::string>> block;  // (line, squeezed comment)
  auto flush = [&] {
    std::string text;
    for (const auto& [line, c] : block) text += c;
    std::map<int, std::vector<const CodeFragment*>> by_line;
    for (const auto& f : fragments) {
      const auto pos = text.find(f.squeezed);
      if (pos == std::string::npos) continue;
      std::size_t end = 0;
      for (const auto& [line, c] : block) {
        end += c.size();
        if (end > pos) {
          by_line[line].push_back(&f);
          break;
        }
      }
    }
    for (const auto& [line, found] : by_line)
      for (const auto* f : found)
        problems.push_back(fmt::format(
            "{}:{}: a comment gives the solution's code '{}' ({}:{}); say what to achieve and why, and move the "
            "how to the manifest's hints",
            starter_rel, line, f->shown, solution_rel, f->line));
    block.clear();
  };
  for (std::size_t i = 0; i < starter_lines.size(); ++i) {
    const auto& l = starter_lines[i];
    if (squeeze(l.comment).empty()) {
      flush();
      continue;
    }
    block.emplace_back(static_cast<int>(i + 1), squeeze(l.comment));
    if (!squeeze(l.code).empty()) flush();
  }
  flush();
  return problems;
}

}  // namespace workbook
