// Strict YAML reading with file:line problems (see yaml_reader.hpp).
#include "content/yaml_reader.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "util/error.hpp"

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

YAML::Node load_yaml_file(const std::filesystem::path& file, Problems& problems) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    problems.add(file.string(), 0, "", "cannot be read (missing or no permission)");
    return YAML::Node(YAML::NodeType::Undefined);
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  try {
    return YAML::Load(buffer.str());
  } catch (const YAML::Exception& e) {
    problems.add(file.string(), e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                 "is not valid YAML: " + e.msg);
  }
  // Undefined, not null: a null node means an empty file, which callers report themselves.
  return YAML::Node(YAML::NodeType::Undefined);
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
  if (std::floor(*v) != *v || std::fabs(*v) > 9.0e15) {
    problem(key, fmt::format("must be a whole number, got {}", *v));
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
      std::string allowed;
      for (const auto& k : known_) allowed += (allowed.empty() ? "" : ", ") + k;
      problems_.add(file_, line_of(kv.first), path(key),
                    fmt::format("unknown key (allowed here: {})", allowed));
    }
  }
}

}  // namespace workbook
