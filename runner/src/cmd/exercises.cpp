// `workbook exercises <module>`: answer a module's Recall / Explain / Apply items, then
// grade yourself; numbers are checked, every review is scheduled (FSRS-6) and recorded.
#include "cmd/registry.hpp"
#include "journal/journal.hpp"
#include "learn/practice.hpp"
#include "present/practice_print.hpp"

namespace workbook {

void setup_exercises(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("exercises", "Answer a module's exercises, then grade yourself (spaced repetition)");
  auto o = std::make_shared<learn::ExercisesRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("module", o->module, "The module, e.g. 14 or module14")->required();
  cmd->add_flag("--variant", o->variant, "Only the items with a variant, asked with fresh numbers");
  cmd->add_flag("--pass-fail", o->pass_fail, "Grade pass/fail instead of Again/Hard/Good/Easy (pass = Good)");
  cmd->add_option("--seed", o->seed, "Seed for the fresh numbers of --variant (default: new each time)");
  cmd->add_option("--item", o->item, "Only this item (its id), due or not");
  cmd->add_flag("--all", o->all, "Every item, also those not due yet (default: only new and due items)");
  add_json_flag(cmd, *json, "one JSON object", "Read answers from stdin without prompts");
  cmd->footer(R"(Examples:
  workbook exercises 14
  workbook exercises 14 --all
  workbook exercises 14 --variant --seed 7
  printf '3145728 1056768 2.98\n3\n' | workbook exercises 14 --item conv-read-count --json
Without a terminal, answers are read from stdin: for each item an answer line, then a
grade line (1-4, or p/f with --pass-fail); q stops. Items graded earlier and not due yet
are skipped (the count is shown; --all asks them too). An item graded Again, or new, is
asked again in the session until it leaves its learning steps. See docs/learning.md.)");
  cmd->callback([&ctx, o, json] {
    OpenedCourse opened(ctx.global);
    const Output out = ctx.global.output(*json);
    const std::unique_ptr<learn::PracticePrinter> printer = learn::practice_printer(out);
    learn::LearnContext lc{opened.catalog, opened.journal, out, *printer};
    ctx.exit_code = learn::run_exercises(lc, *o);
  });
}

}  // namespace workbook
