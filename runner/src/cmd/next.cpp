// `workbook next [--json]`: the one next thing to do, with the command to type.
#include "cmd/registry.hpp"
#include "progress/commands.hpp"

namespace workbook {

void setup_next(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("next", "The one next thing to do, and the command to type");
  auto json = std::make_shared<bool>(false);
  add_json_flag(cmd, *json);
  cmd->footer(R"(Examples:
  workbook next
  workbook next --json
The first open module of the assignment due next (or behind): follow, answer, run.)");
  cmd->callback([&ctx, json] {
    OpenedCourse opened(ctx.global, JournalAccess::read);
    ctx.exit_code = progress::show_next({opened.catalog, opened.workspace, opened.journal,
                                         ctx.global.output(*json)});
  });
}

}  // namespace workbook
