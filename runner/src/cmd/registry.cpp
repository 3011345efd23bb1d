// The command table and the options shared by all commands (see registry.hpp).
#include "cmd/registry.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/closest_word.hpp"

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

CLI::Option* add_json_flag(CLI::App* cmd, bool& json, const std::string& what, const std::string& also) {
  return cmd->add_flag("--json", json, also.empty() ? "Print " + what : also + "; print " + what);
}

bool is_command(const std::string& word) {
  const auto& table = command_table();
  return std::any_of(table.begin(), table.end(), [&](const CommandEntry& e) { return word == e.name; });
}

std::optional<std::string> closest_command(const std::string& word) {
  std::vector<std::string> names;
  for (const auto& e : command_table()) names.emplace_back(e.name);
  return closest_word(word, names);
}

const Catalog& GlobalOptions::catalog() const {
  if (!catalog_) {
    std::optional<std::filesystem::path> dir;
    if (content) dir = *content;
    catalog_ = std::make_shared<const Catalog>(find_content_root(dir));
  }
  return *catalog_;
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

OpenedCourse::OpenedCourse(const GlobalOptions& global, JournalAccess access)
    : catalog(global.catalog()), workspace(ensured(global.open_workspace())), journal(workspace.journal_path(), access) {}

}  // namespace workbook
