// `workbook follow <module>`: a worked example step by step; you write your value first.
#include "cmd/registry.hpp"
#include "journal/journal.hpp"
#include "learn/practice.hpp"
#include "present/practice_print.hpp"

namespace workbook {

void setup_follow(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("follow", "Follow a worked example step by step, writing your own value first");
  auto o = std::make_shared<learn::FollowRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("module", o->module, "The module, e.g. 14 or module14")->required();
  cmd->add_option("--example", o->example, "The worked example (its id; default: the first not finished)");
  cmd->add_flag("--restart", o->restart, "Start the example again from step 1");
  add_json_flag(cmd, *json, "one JSON object", "Read lines from stdin without prompts");
  cmd->footer(R"(Examples:
  workbook follow 14
  workbook follow 14 --example reads-and-tile-size --restart
One line per step (your value or line); progress is kept, so the next run carries on.
A step that checks numbers says which before you answer: each value's name, unit and
tolerance, e.g. Checked: array_mb in MB (within 1 %); a bare number is read in that unit.)");
  cmd->callback([&ctx, o, json] {
    OpenedCourse opened(ctx.global);
    const Output out = ctx.global.output(*json);
    const std::unique_ptr<learn::PracticePrinter> printer = learn::practice_printer(out);
    learn::LearnContext lc{opened.catalog, opened.journal, out, *printer};
    ctx.exit_code = learn::run_follow(lc, *o);
  });
}

}  // namespace workbook
