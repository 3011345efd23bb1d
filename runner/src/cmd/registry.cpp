// The command table and the options shared by all commands (see registry.hpp).
#include "cmd/registry.hpp"

#include <fmt/format.h>

namespace workbook {

const std::vector<CommandEntry>& command_table() {
  static const std::vector<CommandEntry> table = {
      {"list", setup_list}, {"show", setup_show},   {"run", setup_run},
      {"exercises", setup_exercises}, {"review", setup_review}, {"follow", setup_follow}, {"drill", setup_drill},
      {"init", setup_init}, {"reset", setup_reset}, {"device", setup_device}, {"dev", setup_dev},
  };
  return table;
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

Session::Session(const GlobalOptions& global)
    : catalog(global.catalog()), workspace(ensured(global.open_workspace())), journal(workspace.journal_path()) {}

void print_json(const nlohmann::json& j) { fmt::print("{}\n", j.dump(2)); }

}  // namespace workbook
