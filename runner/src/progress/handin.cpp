// `workbook handin`: marking assignments and modules handed in outside the runner (see
// commands.hpp; the marks are journal/handins.hpp).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <optional>

#include "content/course.hpp"
#include "journal/handins.hpp"
#include "progress/commands.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "content/lab_id.hpp"

namespace workbook::progress {

namespace {

std::optional<int> module_number(std::string word) {
  if (word.rfind("module", 0) == 0) word = word.substr(6);
  while (!word.empty() && word.back() == '/') word.pop_back();
  const bool digits = std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (word.empty() || word.size() > 2 || !digits) return std::nullopt;
  const int n = std::stoi(word);
  return n >= 1 && n <= 24 ? std::optional<int>(n) : std::nullopt;
}

HandinItem parse_item(const std::string& word, const std::optional<Course>& course) {
  const std::string w = lower(word);
  if (auto n = module_number(w)) return {module_id(*n), "module", fmt::format("module {}", *n)};
  std::string ids;
  if (course) {
    for (const auto& a : course->assignments) {
      if (lower(a.id) == w) return {a.id, "assignment", a.title.empty() ? a.id : a.title};
      ids += (ids.empty() ? "" : ", ") + a.id;
    }
  }
  throw UsageError(
      fmt::format("'{}' is neither an assignment of the course calendar ({}) nor a module number 1-24", word,
                  ids.empty() ? "there is none" : ids),
      "name assignments by their id and modules by number, e.g. `workbook handin a1 a2` or `workbook handin 16 17`");
}

// An item to undo: one of the course's, or any item marked in the journal (a mark an import
// brought for an assignment this course does not have is listed, so it can be taken back).
HandinItem undo_item(const std::string& word, const std::optional<Course>& course, Journal& journal) {
  try {
    return parse_item(word, course);
  } catch (const UsageError&) {
    const auto marks = handed_in_items(journal);
    for (const std::string& key : {word, lower(word)})
      if (marks.count(key)) return {key, "unknown", key + ", not an item of this course"};
    throw;
  }
}

nlohmann::json marks_json(const std::map<std::string, std::string>& marks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [item, when] : marks) out.push_back({{"item", item}, {"recorded_at", when}});
  return out;
}

}  // namespace

nlohmann::json to_json(const HandinResult& r) {
  if (r.items.empty()) return {{"handed_in", marks_json(r.marks)}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& i : r.items) list.push_back({{"item", i.key}, {"kind", i.kind}, {"title", i.title}, {"changed", i.changed}});
  return {{"action", r.undo ? "undo" : "handin"}, {"items", list}, {"handed_in", marks_json(r.marks)}};
}

HandinResult hand_in(const CommandInputs& in, const std::vector<std::string>& words, bool undo) {
  if (words.empty()) {
    if (undo) throw UsageError("--undo needs the items to undo", "e.g. `workbook handin --undo a1`");
    return {{}, false, handed_in_items(in.journal)};
  }
  const std::optional<Course> course = load_course(in.catalog.root(), in.workspace.root());
  std::vector<HandinItem> items;
  for (const auto& w : words) {
    HandinItem item = undo ? undo_item(w, course, in.journal) : parse_item(w, course);
    const bool seen = std::any_of(items.begin(), items.end(), [&](const HandinItem& i) { return i.key == item.key; });
    if (!seen) items.push_back(item);
  }
  for (auto& i : items) i.changed = record_handin(in.journal, i.key, !undo);
  return {items, undo, handed_in_items(in.journal)};
}

}  // namespace workbook::progress
