// `workbook handin [ITEM...] [--undo] [--json]`: mark assignments or modules handed in
// outside the runner, so that `next` and `progress` count them done.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "present/progress_text.hpp"
#include "progress/commands.hpp"

namespace workbook {

void setup_handin(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("handin", "Mark assignments or modules handed in (done outside the runner)");
  auto items = std::make_shared<std::vector<std::string>>();
  auto undo = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  cmd->add_option("items", *items, "Assignment ids of the course calendar (a1) or module numbers (16)");
  cmd->add_flag("--undo", *undo, "Take the marks back: count them by your record again");
  add_json_flag(cmd, *json);
  cmd->footer(R"(Examples:
  workbook handin a1 a2          Assignments 1 and 2 were handed in: their modules count done
  workbook handin 16 17          modules 16 and 17 are done (worked through outside the runner)
  workbook handin --undo a2      a mark made by mistake
  workbook handin                what is marked handed in
  workbook handin a1 --json
Marks are kept in the journal (travel with `workbook journal export/import`); an undo is
recorded too, never erased. `workbook next` then points at the assignment due next.)");
  cmd->callback([&ctx, items, undo, json] {
    OpenedCourse opened(ctx.global);
    const Output out = ctx.global.output(*json);
    print_result(out, progress::hand_in({opened.catalog, opened.workspace, opened.journal, out}, *items, *undo),
                 [](const progress::HandinResult& r) { return progress::to_json(r); },
                 [](const progress::HandinResult& r, const Style&) { fmt::print("{}", progress::format_handin(r)); });
    ctx.exit_code = 0;
  });
}

}  // namespace workbook
