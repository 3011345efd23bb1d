// `workbook progress [--json]` (also what a bare `workbook` shows): per module Read /
// Follow / Answer / Run, reviews and drills due, and this week's plan against the calendar.
#include "cmd/registry.hpp"
#include "progress/commands.hpp"

namespace workbook {

int run_progress_command(const GlobalOptions& global, bool json) {
  OpenedCourse opened(global, JournalAccess::read);
  return progress::show_progress({opened.catalog, opened.workspace, opened.journal,
                                  global.output(json)});
}

void setup_progress(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("progress", "Your record: modules, reviews and drills due, the course's dates");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->footer(R"(Examples:
  workbook progress
  workbook progress --json
  workbook                     the same screen
The dates come from data/course.yaml (tentative); <workspace>/course.yaml overrides them.)");
  cmd->callback([&ctx, json] { ctx.exit_code = run_progress_command(ctx.global, *json); });
}

}  // namespace workbook
