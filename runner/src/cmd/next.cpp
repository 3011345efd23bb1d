// `workbook next [--json]`: the one next thing to do, with the command to type.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "present/progress_text.hpp"
#include "progress/commands.hpp"
#include "progress/next_step.hpp"

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
    const Output out = ctx.global.output(*json);
    const progress::NextPlan plan = progress::next_steps(progress::progress_of({opened.catalog, opened.workspace, opened.journal, out}));
    print_result(out, plan, [](const progress::NextPlan& p) { return progress::to_json(p); },
                 [](const progress::NextPlan& p, const Style& s) {
                   fmt::print("{}", progress::format_next(p, s, progress::screen_width()));
                 });
    ctx.exit_code = 0;
  });
}

}  // namespace workbook
