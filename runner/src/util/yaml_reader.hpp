// Strict, line-aware reading of YAML content files. Every problem is collected as
// "file:line: field: what is wrong" so a learner or author sees all of them at once;
// nothing here throws on bad content (ContentError is raised by the caller at the end).
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace workbook {

// The problems found while reading one or more files.
class Problems {
 public:
  void add(const std::string& file, int line, const std::string& field, const std::string& what);
  // A problem already formatted as "file:line: field: what".
  void add_line(std::string problem) { list_.push_back(std::move(problem)); }
  bool empty() const { return list_.empty(); }
  const std::vector<std::string>& list() const { return list_; }
  // Throws ContentError with every problem, if there is any.
  void throw_if_any() const;

 private:
  std::vector<std::string> list_;
};

// Parses a YAML file, naming it `display` in problems (default: its path). An empty file
// gives a null node (no problem recorded); a file that cannot be read or is not valid
// YAML is recorded (with the field the line belongs to, where it can be told) and gives
// an undefined node. A second document ('---') and a key that appears twice in one
// mapping are recorded too; the first document is returned.
YAML::Node load_yaml_file(const std::filesystem::path& file, Problems& problems, const std::string& display = {});
// The same for a text already read (an experiment file kept in the journal), named `display`.
YAML::Node load_yaml_text(const std::string& text, Problems& problems, const std::string& display);

// Reads one YAML mapping, field by field; `finish()` reports keys nobody asked for.
class MapReader {
 public:
  MapReader(const YAML::Node& node, std::string file, std::string field, Problems& problems);
  ~MapReader() = default;
  MapReader(const MapReader&) = delete;
  MapReader& operator=(const MapReader&) = delete;

  bool ok() const { return ok_; }
  bool has(const std::string& key) const;
  YAML::Node node(const std::string& key);  // marks the key as known; null if absent
  int line(const std::string& key = {}) const;
  std::string path(const std::string& key) const { return field_.empty() ? key : field_ + "." + key; }
  const std::string& file() const { return file_; }
  Problems& problems() { return problems_; }

  // A required text must not be empty (or only spaces).
  std::optional<std::string> str(const std::string& key, bool required);
  std::optional<double> number(const std::string& key, bool required);
  std::optional<long long> integer(const std::string& key, bool required);
  std::optional<bool> boolean(const std::string& key, bool required);
  std::vector<std::string> str_list(const std::string& key, bool required);

  // Records a problem about this map's `key` (or the map itself when key is empty).
  void problem(const std::string& key, const std::string& what);
  // Reports every key that was never read as "unknown key".
  void finish();

 private:
  YAML::Node node_;
  std::string file_, field_;
  Problems& problems_;
  std::set<std::string> known_;
  bool ok_ = true;
};

// Calls f(MapReader&) for each mapping in the list under `key` of `parent`, with an
// indexed field name ("labs[0]"); reports a missing required list or a non-list.
template <typename F>
void for_each_map(MapReader& parent, const std::string& key, bool required, F&& f);

// True when a node exists and is not null (an absent key gives a node that is not present).
inline bool present(const YAML::Node& n) { return n.IsDefined() && !n.IsNull(); }

// Line (1-based) of a node, 0 when unknown.
int line_of(const YAML::Node& node);

// A scalar as a number, if it is one ("1e-4", "1024", "0.5"); no expression parsing.
std::optional<double> scalar_number(const YAML::Node& node);

template <typename F>
void for_each_map(MapReader& parent, const std::string& key, bool required, F&& f) {
  YAML::Node list = parent.node(key);
  if (!present(list)) {
    if (required && parent.ok()) parent.problem(key, "is required");
    return;
  }
  if (!list.IsSequence()) {
    parent.problem(key, "must be a list (lines starting with '- ')");
    return;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    MapReader item(list[i], parent.file(), parent.path(key) + "[" + std::to_string(i) + "]", parent.problems());
    f(item);
    item.finish();
  }
}

}  // namespace workbook
