// `workbook init [DIR]`: make a learner workspace with copies of every starter.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "journal/journal.hpp"
#include "util/error.hpp"

namespace workbook {

void setup_init(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("init", "Create a workspace with your own copy of every lab (never overwrites)");
  auto dir = std::make_shared<std::optional<std::string>>();
  cmd->add_option("dir", *dir, "Where (default: --workspace, $WORKBOOK_WORKSPACE or ~/workbook)");
  cmd->footer("Example:\n  workbook init ~/gpu-workbook && cd ~/gpu-workbook && workbook run module14/tiled_gemm");
  cmd->callback([&ctx, dir] {
    if (*dir && (*dir)->find_first_not_of(" \t") == std::string::npos) {
      throw UsageError("init: the folder name is empty",
                       "name the folder for the workspace, e.g. `workbook init ~/gpu-workbook`, or leave it out to use "
                       "the default (--workspace, $WORKBOOK_WORKSPACE or ~/workbook)");
    }
    const Catalog& catalog = ctx.global.catalog();
    Workspace ws = !*dir ? ctx.global.open_workspace() : Workspace(std::filesystem::absolute(**dir));
    ws.ensure();
    Journal journal(ws.journal_path());  // creates the database
    Style s = ctx.global.style();
    ws.ensure_common(catalog);  // labs/common beside the copies: the headers' nvcc lines work here
    int made = 0, kept = 0;
    for (const auto& m : catalog.load_all()) {
      for (const auto& lab : m.labs) {
        if (ws.ensure_lab_copy(catalog, lab)) {
          ++made;
          fmt::print("  {} {}\n", s.green("new "), ws.lab_copy(lab).string());
        } else {
          ++kept;
          fmt::print("  {} {}\n", s.dim("kept"), ws.lab_copy(lab).string());
        }
      }
    }
    fmt::print("Workspace {}: {} new lab cop{}, {} kept as they were.\n", ws.root().string(), made,
               made == 1 ? "y" : "ies", kept);
    fmt::print("Commands run inside it use it; elsewhere pass --workspace {}.\n", ws.root().string());
  });
}

}  // namespace workbook
