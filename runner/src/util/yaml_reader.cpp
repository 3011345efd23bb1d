// Strict YAML reading with file:line problems (see yaml_reader.hpp).
#include "util/yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <cctype>
#include <map>
#include <sstream>

#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/utf8.hpp"

namespace workbook {

void Problems::add(const std::string& file, int line, const std::string& field,
                   const std::string& what) {
  std::string where = line > 0 ? fmt::format("{}:{}", file, line) : file;
  list_.push_back(field.empty() ? fmt::format("{}: {}", where, what)
                                : fmt::format("{}: {}: {}", where, field, what));
}

void Problems::throw_if_any() const {
  if (!list_.empty()) throw ContentError(list_);
}

int line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  auto mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

namespace {

// The field a line of a YAML text belongs to, from its indentation ("labs[0].title"), for
// syntax errors, where no parsed node says it. Empty when the line holds no key.
std::string field_at_line(const std::string& text, int line) {
  struct Level {
    int indent;
    std::string name;  // "title", or "[2]" for a list item
    bool item;
    int items = 0;     // list items seen under this key
  };
  std::vector<Level> stack;
  std::istringstream in(text);
  std::string s;
  // "key:" or "'key':" at the start of `rest`, read by hand (a line may be very long).
  auto key_of = [](const std::string& rest) -> std::string {
    std::size_t i = 0;
    const char quote = !rest.empty() && (rest[0] == '"' || rest[0] == '\'') ? rest[0] : 0;
    if (quote) ++i;
    const std::size_t start = i;
    auto ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ' ' || c == '.' || c == '-'; };
    while (i < rest.size() && ok(rest[i])) ++i;
    std::size_t end = i;
    if (quote) {
      if (i >= rest.size() || rest[i] != quote) return "";
      ++i;
    }
    while (end > start && rest[end - 1] == ' ') --end;
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (end == start || i >= rest.size() || rest[i] != ':') return "";
    if (i + 1 < rest.size() && rest[i + 1] != ' ' && rest[i + 1] != '\t') return "";
    return rest.substr(start, end - start);
  };
  for (int no = 1; no <= line && std::getline(in, s); ++no) {
    std::size_t ind = s.find_first_not_of(' ');
    if (ind == std::string::npos || s[ind] == '#' || s.compare(ind, 3, "---") == 0) continue;
    std::string rest = s.substr(ind);
    if (rest.rfind("- ", 0) == 0 || rest == "-") {
      while (!stack.empty() && (stack.back().indent > static_cast<int>(ind) ||
                                (stack.back().indent == static_cast<int>(ind) && stack.back().item))) {
        stack.pop_back();
      }
      int index = stack.empty() ? 0 : stack.back().items++;
      stack.push_back({static_cast<int>(ind), "[" + std::to_string(index) + "]", true});
      std::size_t after = rest.find_first_not_of(' ', 1);
      if (after == std::string::npos) continue;
      ind += after;
      rest = rest.substr(after);
    } else {
      while (!stack.empty() && stack.back().indent >= static_cast<int>(ind)) stack.pop_back();
    }
    if (std::string k = key_of(rest); !k.empty()) stack.push_back({static_cast<int>(ind), k, false});
  }
  std::string path;
  for (const auto& l : stack) path += (path.empty() || l.item ? "" : ".") + l.name;
  return path;
}

// The scalar under `key` as written ("1e30"), for messages.
std::string scalar_text(const YAML::Node& map, const std::string& key) {
  const YAML::Node& m = map;  // const access never inserts the key
  const YAML::Node n = m[key];
  return n.IsScalar() ? n.Scalar() : "?";
}

// Reports every key that appears twice in one mapping, anywhere in the document.
void check_duplicate_keys(const YAML::Node& node, const std::string& path, const std::string& display,
                          Problems& problems) {
  if (node.IsMap()) {
    std::map<std::string, int> seen;
    for (const auto& kv : node) {
      std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      std::string child = path.empty() ? key : path + "." + key;
      if (kv.first.IsScalar()) {
        auto [it, fresh] = seen.emplace(key, line_of(kv.first));
        if (!fresh) {
          problems.add(display, line_of(kv.first), child,
                       fmt::format("appears twice in this mapping (first at line {}); keep one", it->second));
        }
      }
      check_duplicate_keys(kv.second, child, display, problems);
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      check_duplicate_keys(node[i], path + "[" + std::to_string(i) + "]", display, problems);
    }
  }
}

}  // namespace

namespace {

// Where a file stops being text: its first line holding a NUL, a control character other
// than tab, CR and LF, or bytes that are not UTF-8 (0 when it is all text), and which.
std::pair<int, const char*> first_binary_line(const std::string& text) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    const std::string_view l(text.data() + start, i - start);
    for (char c : l) {
      const auto u = static_cast<unsigned char>(c);
      if (u == 0) return {line, "a NUL byte"};
      if ((u < 0x20 && c != '\t' && c != '\r') || u == 0x7f) return {line, "a control character"};
    }
    if (!is_valid_utf8(l)) return {line, "bytes that are not UTF-8"};
    start = i + 1;
    ++line;
  }
  return {0, ""};
}

// Where the events of one document start (the first mark seen), to tell whether the parser
// moved on between two documents.
class DocumentStart : public YAML::EventHandler {
 public:
  int pos = -1, line = -1;
  void OnDocumentStart(const YAML::Mark& m) override { note(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (pos >= 0) return;
    pos = m.pos;
    line = m.line;
  }
};

// yaml-cpp up to 0.8.0 loops for ever in LoadAll, allocating as it goes (gigabytes in
// seconds), on a ',' where a block value should start (", x", "- x\n, y"): the parser
// returns an empty document for it again and again without moving on (jbeder/yaml-cpp
// issue 1040, fixed upstream in 2024 by pull request 1319). A first pass over the events
// stops there; LoadAll, which takes the same path, runs only when it moved on each time.
// The line (1-based) where it stopped, or 0.
int line_yaml_cpp_sticks_at(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  for (int previous = -2;;) {
    DocumentStart start;
    if (!parser.HandleNextDocument(start)) return 0;
    if (start.pos == previous) return start.line + 1;
    previous = start.pos;
  }
}

}  // namespace

YAML::Node load_yaml_file(const std::filesystem::path& file, Problems& problems, const std::string& display_name) {
  const std::string display = display_name.empty() ? file.string() : display_name;
  const std::optional<std::string> read = read_file_text(file);
  if (!read) {
    problems.add(display, 0, "", "cannot be read (missing or no permission)");
    return YAML::Node(YAML::NodeType::Undefined);
  }
  return load_yaml_text(*read, problems, display);
}

YAML::Node load_yaml_text(const std::string& text, Problems& problems, const std::string& display) {
  if (const auto [line, what] = first_binary_line(text); line > 0) {
    problems.add(display, line, "", fmt::format("is not a text file: line {} holds {} (was a binary file saved under this name?)", line, what));
    return YAML::Node(YAML::NodeType::Undefined);
  }
  std::vector<YAML::Node> docs;
  try {
    if (const int stuck = line_yaml_cpp_sticks_at(text); stuck > 0) {
      problems.add(display, stuck, field_at_line(text, stuck),
                   "is not valid YAML: a ',' where a value should start (',' separates items only inside [ ] or { })");
      return YAML::Node(YAML::NodeType::Undefined);
    }
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    const int line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
    problems.add(display, line, line > 0 ? field_at_line(text, line) : "", "is not valid YAML: " + e.msg);
    // Undefined, not null: a null node means an empty file, which callers report themselves.
    return YAML::Node(YAML::NodeType::Undefined);
  }
  if (docs.empty()) return YAML::Node();
  if (docs.size() > 1) {
    // The line of the '---' that starts the second document.
    int line = line_of(docs[1]), marker = 0, no = 0, content = 0;
    std::istringstream lines(text);
    for (std::string s; std::getline(lines, s) && (++no <= line || line == 0);) {
      if (s.rfind("---", 0) == 0 && content > 0) {
        marker = no;
        break;
      }
      if (s.find_first_not_of(" \t") != std::string::npos && s[s.find_first_not_of(" \t")] != '#') ++content;
    }
    problems.add(display, marker > 0 ? marker : line, "",
                 "a second YAML document ('---') is not allowed: one file holds one document");
  }
  check_duplicate_keys(docs[0], "", display, problems);
  return docs[0];
}

std::optional<double> scalar_number(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  const std::string& s = node.Scalar();
  if (s.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

MapReader::MapReader(const YAML::Node& node, std::string file, std::string field,
                     Problems& problems)
    : node_(node), file_(std::move(file)), field_(std::move(field)), problems_(problems) {
  if (!node_.IsMap()) {
    problems_.add(file_, line_of(node_), field_.empty() ? "(top level)" : field_,
                  present(node_) ? "must be a mapping of key: value"
                                                       : "is missing or empty");
    ok_ = false;
  }
}

bool MapReader::has(const std::string& key) const {
  const YAML::Node& n = node_;
  return ok_ && present(n[key]);
}

YAML::Node MapReader::node(const std::string& key) {
  known_.insert(key);
  if (!ok_) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node& map = node_;  // const access never inserts the key
  YAML::Node n = map[key];
  return present(n) ? n : YAML::Node(YAML::NodeType::Undefined);
}

int MapReader::line(const std::string& key) const {
  if (!ok_) return line_of(node_);
  if (!key.empty()) {
    for (const auto& kv : node_) {
      if (kv.first.IsScalar() && kv.first.Scalar() == key) return line_of(kv.first);
    }
  }
  return line_of(node_);
}

void MapReader::problem(const std::string& key, const std::string& what) {
  problems_.add(file_, line(key), key.empty() ? field_ : path(key), what);
}

std::optional<std::string> MapReader::str(const std::string& key, bool required) {
  YAML::Node n = node(key);
  if (!present(n)) {
    if (required && ok_) problem(key, "is required");
    return std::nullopt;
  }
  if (!n.IsScalar()) {
    problem(key, "must be a single value (text or number), not a list or mapping");
    return std::nullopt;
  }
  if (required && n.Scalar().find_first_not_of(" \t\r\n") == std::string::npos) {
    problem(key, "must not be empty");
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<double> MapReader::number(const std::string& key, bool required) {
  YAML::Node n = node(key);
  if (!present(n)) {
    if (required && ok_) problem(key, "is required");
    return std::nullopt;
  }
  auto v = scalar_number(n);
  if (!v) problem(key, fmt::format("must be a number, got '{}'", n.IsScalar() ? n.Scalar() : "(not a scalar)"));
  return v;
}

std::optional<long long> MapReader::integer(const std::string& key, bool required) {
  auto v = number(key, required);
  if (!v) return std::nullopt;
  if (std::floor(*v) != *v) {
    problem(key, fmt::format("must be a whole number, got {}", scalar_text(node_, key)));
    return std::nullopt;
  }
  if (std::fabs(*v) > 9007199254740992.0) {
    problem(key, fmt::format("must be a whole number from -2^53 to 2^53 (9007199254740992), got {}", scalar_text(node_, key)));
    return std::nullopt;
  }
  return static_cast<long long>(*v);
}

std::optional<bool> MapReader::boolean(const std::string& key, bool required) {
  auto s = str(key, required);
  if (!s) return std::nullopt;
  if (*s == "true" || *s == "yes") return true;
  if (*s == "false" || *s == "no") return false;
  problem(key, fmt::format("must be true or false, got '{}'", *s));
  return std::nullopt;
}

std::vector<std::string> MapReader::str_list(const std::string& key, bool required) {
  std::vector<std::string> out;
  YAML::Node n = node(key);
  if (!present(n)) {
    if (required && ok_) problem(key, "is required");
    return out;
  }
  if (!n.IsSequence()) {
    problem(key, "must be a list (lines starting with '- ')");
    return out;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!n[i].IsScalar()) {
      problems_.add(file_, line_of(n[i]), fmt::format("{}[{}]", path(key), i), "must be text");
      continue;
    }
    out.push_back(n[i].Scalar());
  }
  return out;
}

void MapReader::finish() {
  if (!ok_) return;
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) {
      problems_.add(file_, line_of(kv.first), field_, "keys must be plain text");
      continue;
    }
    const std::string& key = kv.first.Scalar();
    if (!known_.count(key)) {
      problems_.add(file_, line_of(kv.first), path(key),
                    fmt::format("unknown key (allowed here: {})", fmt::join(known_, ", ")));
    }
  }
}

}  // namespace workbook
