// `workbook reset <lab>`: put the starter back in your workspace (after confirmation),
// keeping the learner's copy as a numbered backup that is never overwritten.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "ui/prompt.hpp"
#include "util/error.hpp"

namespace workbook {

void setup_reset(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand(
      "reset", "Restore a lab's starter in your workspace (your copy is kept as .bak, .bak.1, ...: never overwritten)");
  auto lab = std::make_shared<std::string>();
  auto yes = std::make_shared<bool>(false);
  cmd->add_option("lab", *lab, "The lab, e.g. module14/tiled_gemm")->required();
  cmd->add_flag("-y,--yes", *yes, "Do not ask for confirmation (needed when stdin is not a terminal)");
  cmd->footer("Example:\n  workbook reset module14/tiled_gemm");
  cmd->callback([&ctx, lab, yes] {
    const Catalog& catalog = ctx.global.catalog();
    Workspace ws = ctx.global.open_workspace();
    LabRef ref = parse_lab_ref_or_throw(*lab);
    if (ref.name.empty()) throw UsageError("reset takes a lab, e.g. module14/tiled_gemm");
    const LabSpec& spec = catalog.find_lab(ref);
    auto path = ws.lab_copy(spec);
    const auto backup = ws.next_backup(spec);
    if (!*yes) {
      if (!interactive_terminal()) {
        throw UsageError("reset would replace " + path.string() + " and there is no terminal to confirm on",
                         "add --yes to confirm");
      }
      if (!confirm(fmt::format("Replace {} with the starter? Your copy is kept as {}.", path.string(),
                               backup.filename().string()))) {
        fmt::print("Nothing changed.\n");
        return;
      }
    }
    const RestoreResult done = ws.restore_starter(catalog, spec);
    switch (done.kind) {
      case RestoreResult::Kind::unchanged:
        fmt::print("{} is already the starter: nothing changed, no backup made.\n", path.string());
        break;
      case RestoreResult::Kind::created: fmt::print("Restored {} (there was no copy to keep).\n", path.string()); break;
      case RestoreResult::Kind::restored:
        fmt::print("Restored {} (your copy {} {}).\n", path.string(),
                   done.already_kept ? "was already kept as" : "is kept as", done.backup.string());
        break;
    }
  });
}

}  // namespace workbook
