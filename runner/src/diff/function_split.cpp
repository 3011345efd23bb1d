// Splitting a source file into functions and types (see function_split.hpp).
#include "diff/function_split.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace workbook::diff {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool blank_text(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// One past the last character of the preprocessor line starting at `i` (its backslash
// continuations included): the position of its final newline, or the end of the text.
std::size_t preprocessor_end(const std::string& t, std::size_t i) {
  for (;;) {
    std::size_t nl = t.find('\n', i);
    if (nl == std::string::npos) return t.size();
    std::size_t last = nl;
    while (last > i && (t[last - 1] == '\r' || t[last - 1] == ' ' || t[last - 1] == '\t')) --last;
    if (last == i || t[last - 1] != '\\') return nl;
    i = nl + 1;
  }
}

// The position of the quote that closes the literal opened at `i`, or of the newline (or
// the end) where an unterminated one stops.
std::size_t quoted_close(const std::string& t, std::size_t i) {
  const char quote = t[i];
  for (std::size_t k = i + 1; k < t.size(); ++k) {
    if (t[k] == '\\') ++k;
    else if (t[k] == quote || t[k] == '\n') return k;
  }
  return t.size();
}

// A ' inside a number (C++14 digit separator: 1'000'000) rather than a character literal.
bool digit_separator(const std::string& t, std::size_t i) {
  std::size_t j = i;
  while (j > 0 && (ident_char(t[j - 1]) || t[j - 1] == '\'')) --j;
  return j < i && std::isdigit(static_cast<unsigned char>(t[j])) != 0 && i + 1 < t.size() && ident_char(t[i + 1]);
}

// R"delim( ... )delim" with an optional u8 / u / U / L prefix before the R.
bool raw_string_start(const std::string& t, std::size_t i) {
  if (i == 0 || t[i - 1] != 'R') return false;
  std::size_t j = i - 1;
  while (j > 0 && ident_char(t[j - 1])) --j;
  const std::string prefix = t.substr(j, i - 1 - j);
  return prefix.empty() || prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L";
}

}  // namespace

const char* to_string(PieceKind kind) {
  switch (kind) {
    case PieceKind::file_scope: return "file scope";
    case PieceKind::kernel: return "kernel";
    case PieceKind::device: return "device function";
    case PieceKind::host: return "host function";
    case PieceKind::type: return "type";
  }
  return "?";
}

std::string blank_non_code(const std::string& t) {
  std::string out = t;
  auto blank = [&out](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  bool line_start = true;  // only blanks since the last newline
  std::size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    const char next = i + 1 < t.size() ? t[i + 1] : '\0';
    if (c == '\n') line_start = true;
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (line_start && c == '#') {
      end = preprocessor_end(t, i);
      blank(i, end);
    } else if (c == '/' && next == '/') {
      end = std::min(t.find('\n', i), t.size());
      blank(i, end);
    } else if (c == '/' && next == '*') {
      const std::size_t close = t.find("*/", i + 2);
      end = close == std::string::npos ? t.size() : close + 2;
      blank(i, end);
    } else if (c == '"' && raw_string_start(t, i)) {
      const std::size_t open = t.find('(', i);
      const std::string marker = ")" + t.substr(i + 1, open == std::string::npos ? 0 : open - i - 1) + "\"";
      const std::size_t close = open == std::string::npos ? std::string::npos : t.find(marker, open);
      end = close == std::string::npos ? t.size() : close + marker.size();
      blank(i + 1, end - 1);
    } else if ((c == '"' || c == '\'') && !(c == '\'' && digit_separator(t, i))) {
      const std::size_t close = quoted_close(t, i);
      blank(i + 1, close);
      end = close < t.size() && t[close] == c ? close + 1 : close;
    }
    line_start = false;
    i = end;
  }
  return out;
}

namespace {

// Identifiers, "::", and single punctuation characters of (blanked) code.
std::vector<std::string> tokens_of(const std::string& code) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      ++i;
    } else if (ident_char(c)) {
      std::size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      out.push_back(code.substr(i, j - i));
      i = j;
    } else if (c == ':' && i + 1 < code.size() && code[i + 1] == ':') {
      out.emplace_back("::");
      i += 2;
    } else {
      out.emplace_back(1, c);
      ++i;
    }
  }
  return out;
}

bool is_identifier(const std::string& tok) { return !tok.empty() && ident_char(tok[0]); }

// Attributes and specifiers whose parentheses are not a parameter list.
bool attribute_word(const std::string& tok) {
  static const std::set<std::string> words = {"__launch_bounds__", "__attribute__", "__align__", "alignas",
                                              "__declspec", "decltype", "__cluster_dims__", "__maxnreg__",
                                              "noexcept", "throw", "requires"};
  return words.count(tok) > 0;
}

// tok[i] is part of an operator's name (operator=, operator+=, operator==).
bool after_operator(const std::vector<std::string>& tok, std::size_t i) {
  return (i > 0 && tok[i - 1] == "operator") || (i > 1 && tok[i - 2] == "operator");
}

// The index one past the group opened at tokens[i] ("(" or "<"), matching nested ones.
std::size_t skip_group(const std::vector<std::string>& tok, std::size_t i) {
  const std::string open = tok[i], close = open == "(" ? ")" : ">";
  int depth = 0;
  for (std::size_t k = i; k < tok.size(); ++k) {
    if (tok[k] == open) ++depth;
    else if (tok[k] == close && --depth == 0) return k + 1;
  }
  return tok.size();
}

// What a `{` at file scope opens.
struct Opening {
  enum class What { transparent, function, type, other } what = What::other;
  PieceKind kind = PieceKind::host;
  std::string name;
  bool in_head = false;  // a brace in a member initializer list or a default argument
};

// The name of the function whose parameter list opens at tok[paren]; `paren` moves past
// operator() to its real parameter list.
std::string function_name(const std::vector<std::string>& tok, std::size_t& paren) {
  std::size_t j = paren;  // one past the name's last token
  std::string name;
  if (paren > 0 && tok[paren - 1] == "operator" && paren + 2 < tok.size() && tok[paren + 1] == ")") {
    name = "operator()";
    paren += 2;
    j = paren - 3;
  } else {
    std::size_t k = paren;
    while (k > 0 && !is_identifier(tok[k - 1]) && k + 3 > paren) --k;  // operator+=, operator[] ...
    if (k > 0 && tok[k - 1] == "operator") {
      for (std::size_t m = k - 1; m < paren; ++m) name += tok[m];
      j = k - 1;
    } else {
      std::size_t e = paren;  // past explicit template arguments: add<float>(...)
      for (int depth = 0; e > 0 && (depth > 0 || tok[e - 1] == ">"); --e)
        depth += tok[e - 1] == ">" ? 1 : tok[e - 1] == "<" ? -1 : 0;
      if (e > 0 && is_identifier(tok[e - 1])) name = tok[e - 1], j = e - 1;
    }
  }
  if (j > 0 && tok[j - 1] == "~") name = "~" + name, --j;
  while (j >= 2 && tok[j - 1] == "::" && is_identifier(tok[j - 2])) {
    name = tok[j - 2] + "::" + name;
    j -= 2;
  }
  return name.empty() ? "(unnamed)" : name;
}

Opening classify_function(const std::vector<std::string>& tok, std::size_t paren, const std::string& header) {
  Opening o;
  o.what = Opening::What::function;
  o.name = function_name(tok, paren);
  const bool global = std::find(tok.begin(), tok.end(), "__global__") != tok.end();
  const bool device = std::find(tok.begin(), tok.end(), "__device__") != tok.end();
  const bool host = std::find(tok.begin(), tok.end(), "__host__") != tok.end();
  o.kind = global ? PieceKind::kernel : device && !host ? PieceKind::device : PieceKind::host;
  // `S::S(int v) : x{v} {`: the brace after an identifier, past a lone ':', initializes a member;
  // `f(Options o = {}) {`: a brace before the parameter list closes is a default argument.
  const std::size_t after = skip_group(tok, paren);
  const bool initializers = std::find(tok.begin() + static_cast<std::ptrdiff_t>(std::min(after, tok.size())), tok.end(),
                                      ":") != tok.end();
  std::size_t last = header.find_last_not_of(" \t\r\n");
  const bool unclosed = std::count(tok.begin(), tok.end(), "(") > std::count(tok.begin(), tok.end(), ")");
  o.in_head = unclosed || (initializers && last != std::string::npos && ident_char(header[last]));
  return o;
}

Opening classify(const std::string& header) {
  const std::vector<std::string> tok = tokens_of(header);
  Opening o;
  if (tok.empty()) return o;
  const std::string second = tok.size() > 1 ? tok[1] : "";
  if (tok[0] == "namespace" || (tok[0] == "inline" && second == "namespace") ||
      (tok[0] == "extern" && second == "\"")) {
    o.what = Opening::What::transparent;
    return o;
  }
  for (std::size_t i = 0; i < tok.size();) {
    if (tok[i] == "template" && i + 1 < tok.size() && tok[i + 1] == "<") {
      i = skip_group(tok, i + 1);
    } else if (tok[i] == "(" && i > 0 && attribute_word(tok[i - 1])) {
      i = skip_group(tok, i);
    } else if (tok[i] == "=" && !after_operator(tok, i)) {
      return o;  // an initializer: `int table[] = {...}`
    } else if (tok[i] == "(") {
      return classify_function(tok, i, header);
    } else {
      ++i;
    }
  }
  static const std::set<std::string> type_words = {"struct", "class", "union", "enum"};
  for (std::size_t i = 0; i < tok.size(); ++i) {
    if (!type_words.count(tok[i])) continue;
    o.what = Opening::What::type;
    o.kind = PieceKind::type;
    std::size_t k = i + 1;
    if (tok[i] == "enum" && k < tok.size() && (tok[k] == "class" || tok[k] == "struct")) ++k;
    while (k < tok.size() && (attribute_word(tok[k]) || tok[k] == "__align__") && k + 1 < tok.size() && tok[k + 1] == "(")
      k = skip_group(tok, k + 1);
    o.name = tok[i] + (k < tok.size() && is_identifier(tok[k]) ? " " + tok[k] : "");
    return o;
  }
  return o;
}

// The position of the `}` matching the `{` at `open` (or the last character).
std::size_t matching_brace(const std::string& code, std::size_t open) {
  int depth = 0;
  for (std::size_t k = open; k < code.size(); ++k) {
    if (code[k] == '{') ++depth;
    else if (code[k] == '}' && --depth == 0) return k;
  }
  return code.size() - 1;
}

// Which lines are preprocessor lines: a '#' first, and the backslash continuations after.
std::vector<bool> preprocessor_lines(const std::vector<std::string>& lines) {
  std::vector<bool> out(lines.size(), false);
  bool continued = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t first = lines[i].find_first_not_of(" \t");
    out[i] = continued || (first != std::string::npos && lines[i][first] == '#');
    const std::size_t last = lines[i].find_last_not_of(" \t");
    continued = out[i] && last != std::string::npos && lines[i][last] == '\\';
  }
  return out;
}

// The 1-based line of each character offset (by counting newlines before it).
int line_of(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

std::vector<CodeSpan> code_spans(const std::string& code, bool members) {
  std::vector<CodeSpan> spans;
  std::size_t header = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == ';' || c == '}') header = i + 1;  // the end of a declaration, or of a namespace (a type)
    if (c != '{') continue;
    const Opening o = classify(code.substr(header, i - header));
    if (o.what == Opening::What::transparent || (members && o.what == Opening::What::type)) {
      header = i + 1;
      continue;
    }
    std::size_t close = matching_brace(code, i);
    if (o.what == Opening::What::function && o.in_head) {
      i = close;  // keep the header: the body's brace is still to come
      continue;
    }
    if (o.what == Opening::What::other) {
      i = close;  // an initializer's braces: the declaration ends at its ';'
      continue;
    }
    std::size_t end = close + 1;
    if (o.what == Opening::What::type) {
      const std::size_t semi = code.find(';', end);
      if (semi != std::string::npos && code.find('{', end) > semi) end = semi + 1;
    }
    const std::size_t begin = code.find_first_not_of(" \t\r\n", header);
    spans.push_back({o.kind, o.name, line_of(code, begin), line_of(code, end - 1)});
    header = end;
    i = end - 1;
  }
  return spans;
}

std::vector<Piece> split_pieces(const std::string& text) {
  const std::string code = blank_non_code(text);
  const std::vector<std::string> lines = split_lines(text), code_lines = split_lines(code);
  const std::vector<bool> preprocessor = preprocessor_lines(lines);
  // A line that holds a comment and nothing else (blank as code, not blank, not a macro).
  auto comment_line = [&](std::size_t i) {
    return blank_text(code_lines[i]) && !blank_text(lines[i]) && !preprocessor[i];
  };
  std::vector<bool> claimed(lines.size() + 1, false);
  std::vector<Piece> pieces;
  std::set<std::string> seen;
  int previous_end = 0;
  for (const CodeSpan& s : code_spans(code, false)) {
    int first = std::max(s.first, previous_end + 1);
    if (s.last < first) continue;  // shares its only line with the piece before
    // Comment lines directly above belong to the piece.
    while (first - 1 > previous_end && comment_line(static_cast<std::size_t>(first - 2))) --first;
    Piece p{s.kind, s.name, first, {}, {}};
    for (int n = 0; seen.count(p.name); ++n) p.name = s.name + " #" + std::to_string(n + 2);  // overloads
    seen.insert(p.name);
    for (int l = first; l <= s.last; ++l) {
      p.lines.push_back(lines[static_cast<std::size_t>(l - 1)]);
      p.line_numbers.push_back(l);
      claimed[static_cast<std::size_t>(l)] = true;
    }
    pieces.push_back(std::move(p));
    previous_end = s.last;
  }
  Piece scope{PieceKind::file_scope, "(file scope)", 0, {}, {}};
  for (std::size_t l = 1; l <= lines.size(); ++l) {
    if (claimed[l]) continue;
    if (scope.lines.empty()) scope.first_line = static_cast<int>(l);
    scope.lines.push_back(lines[l - 1]);
    scope.line_numbers.push_back(static_cast<int>(l));
  }
  if (std::any_of(scope.lines.begin(), scope.lines.end(), [](const std::string& l) { return !blank_text(l); }))
    pieces.insert(pieces.begin(), std::move(scope));
  return pieces;
}

}  // namespace workbook::diff
