// `workbook review`: the items due today across all modules, then new items: those of the
// assignment due next (data/course.yaml) first, then the other modules in order.
#include "cmd/registry.hpp"
#include "content/course.hpp"
#include "journal/journal.hpp"
#include "learn/practice.hpp"
#include "present/practice_print.hpp"

namespace workbook {

void setup_review(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("review", "Review what is due across all modules (spaced repetition, FSRS-6)");
  auto o = std::make_shared<learn::ReviewRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--limit", o->limit, "At most this many items in this session")->capture_default_str();
  cmd->add_option("--new", o->new_limit, "New items a day: the next assignment's modules first, then the others")->capture_default_str();
  cmd->add_flag("--pass-fail", o->pass_fail, "Grade pass/fail instead of Again/Hard/Good/Easy (pass = Good)");
  add_json_flag(cmd, *json, "one JSON object", "Read answers from stdin without prompts");
  cmd->footer(R"(Examples:
  workbook review
  workbook review --new 5 --pass-fail
For each item: an answer line, then a grade line (see docs/learning.md). Again (and a
new item's first grades) puts an item on a short learning step (1 min, 10 min): it is
asked again before the session ends.)");
  cmd->callback([&ctx, o, json] {
    OpenedCourse opened(ctx.global);
    o->course = load_course(opened.catalog.root(), opened.workspace.root());
    const Output out = ctx.global.output(*json);
    const std::unique_ptr<learn::PracticePrinter> printer = learn::practice_printer(out);
    learn::LearnContext lc{opened.catalog, opened.journal, out, *printer};
    ctx.exit_code = learn::run_review(lc, *o);
  });
}

}  // namespace workbook
