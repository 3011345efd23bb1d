// `workbook drill <11|24>`: oral-exam drills, one question at a time against the clock.
#include "cmd/registry.hpp"
#include "journal/journal.hpp"
#include "learn/practice.hpp"
#include "present/practice_print.hpp"

namespace workbook {

void setup_drill(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("drill", "Oral-exam drills (modules 11 and 24): a minute a question, then a checklist");
  auto o = std::make_shared<learn::DrillRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("module", o->module, "11 or 24; leave it out for this week's drills (11, and 24 from December)");
  cmd->add_flag("--status", o->status, "Readiness per question and when each is next due");
  cmd->add_flag("--all", o->all, "Every drill, due or not");
  cmd->add_option("--drill", o->drill, "Only this drill (its id)");
  add_json_flag(cmd, *json, "one JSON object", "Read lines from stdin without prompts or clock");
  cmd->footer(R"(Examples:
  workbook drill              this week's: module 11's due drills, and 24's from December 1
  workbook drill 11
  workbook drill 24 --status
Answer out loud while the clock runs, press Enter, then type the numbers of the points
you covered (e.g. 1 3 4, all, none). Weekly until easy (full marks twice in a row).)");
  cmd->callback([&ctx, o, json] {
    OpenedCourse opened(ctx.global);
    const Output out = ctx.global.output(*json);
    const std::unique_ptr<learn::PracticePrinter> printer = learn::practice_printer(out);
    learn::LearnContext lc{opened.catalog, opened.journal, out, *printer};
    ctx.exit_code = learn::run_drill(lc, *o);
  });
}

}  // namespace workbook
