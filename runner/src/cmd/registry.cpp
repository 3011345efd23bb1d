// The command table and the options shared by all commands (see registry.hpp).
#include "cmd/closest_word.hpp"
#include "cmd/registry.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace workbook {

void setup_handin(CLI::App& app, CommandContext& ctx);      // runner/src/cmd/handin.cpp
void setup_experiment(CLI::App& app, CommandContext& ctx);  // runner/src/cmd/experiment.cpp

const std::vector<CommandEntry>& command_table() {
  static const std::vector<CommandEntry> table = {
      {"list", setup_list}, {"show", setup_show},   {"run", setup_run},
      {"progress", setup_progress}, {"next", setup_next}, {"history", setup_history}, {"hint", setup_hint},
      {"exercises", setup_exercises}, {"review", setup_review}, {"follow", setup_follow}, {"drill", setup_drill},
      {"init", setup_init}, {"reset", setup_reset}, {"device", setup_device}, {"report", setup_report}, {"dev", setup_dev},
      {"journal", setup_journal},
      {"watch", setup_watch},
      {"handin", setup_handin},
      {"experiment", setup_experiment},
  };
  return table;
}

bool is_command(const std::string& word) {
  const auto& table = command_table();
  return std::any_of(table.begin(), table.end(), [&](const CommandEntry& e) { return word == e.name; });
}

namespace {

// Edits between a and b: insertions, deletions, substitutions and swaps of neighbours.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& names) {
  if (word.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const auto& name : names) {
    std::size_t dist = edit_distance(word, name);
    if (word.size() >= 2 && name.rfind(word, 0) == 0) dist = std::min<std::size_t>(dist, 1);  // "ex" -> "exercises"
    if (dist < best_distance && dist < name.size()) {
      best = name;
      best_distance = dist;
    }
  }
  return best;
}

std::optional<std::string> closest_command(const std::string& word) {
  std::vector<std::string> names;
  for (const auto& e : command_table()) names.emplace_back(e.name);
  return closest_word(word, names);
}

Catalog GlobalOptions::catalog() const {
  std::optional<std::filesystem::path> dir;
  if (content) dir = *content;
  return Catalog(find_content_root(dir));
}

Workspace GlobalOptions::open_workspace() const {
  std::optional<std::filesystem::path> dir;
  if (workspace) dir = *workspace;
  return Workspace::resolve(dir);
}

namespace {
Workspace ensured(Workspace ws) {
  ws.ensure();
  return ws;
}
}  // namespace

OpenedCourse::OpenedCourse(const GlobalOptions& global)
    : catalog(global.catalog()), workspace(ensured(global.open_workspace())), journal(workspace.journal_path()) {}

}  // namespace workbook
