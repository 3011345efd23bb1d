// `workbook progress [--json]` (also what a bare `workbook` shows): per module Read /
// Follow / Answer / Run, reviews and drills due, and this week's plan against the calendar.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "present/progress_text.hpp"
#include "progress/commands.hpp"

namespace workbook {

int run_progress_command(const GlobalOptions& global, bool json, bool modules) {
  OpenedCourse opened(global, JournalAccess::read);
  const Output out = global.output(json);
  const progress::ProgressReport report = progress::progress_of({opened.catalog, opened.workspace, opened.journal, out});
  print_result(out, report, [](const progress::ProgressReport& r) { return progress::to_json(r); },
               [modules](const progress::ProgressReport& r, const Style& s) {
                 fmt::print("{}", progress::format_progress(r, s, progress::screen_width(), modules));
               });
  return 0;
}

void setup_progress(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("progress", "Your record: modules, reviews and drills due, the course's dates");
  auto json = std::make_shared<bool>(false);
  auto modules = std::make_shared<bool>(false);
  add_json_flag(cmd, *json);
  cmd->add_flag("--modules", *modules, "Also every module's Read, Follow, Answer and Run");
  cmd->footer(R"(Examples:
  workbook progress
  workbook progress --modules    with the table of every module
  workbook progress --json
  workbook                       the same screen as `workbook progress`
The dates come from data/course.yaml (tentative); <workspace>/course.yaml overrides them.)");
  cmd->callback([&ctx, json, modules] { ctx.exit_code = run_progress_command(ctx.global, *json, *modules); });
}

}  // namespace workbook
