// `workbook hint LAB [--all] [--json]`: the lab's next progressive hint (see learn/lab_hints.hpp).
#include "cmd/registry.hpp"
#include "learn/lab_hints.hpp"

namespace workbook {

void setup_hint(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("hint", "The next hint for a lab: one more each time, every one recorded");
  auto lab = std::make_shared<std::string>();
  auto all = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  cmd->add_option("lab", *lab, "The lab (module05/find_the_bugs, or 5 for a module with one lab)")->required();
  cmd->add_flag("--all", *all, "Show every hint at once (each is recorded as seen)");
  add_json_flag(cmd, *json);
  cmd->footer(R"(Examples:
  workbook hint module05/find_the_bugs       # hint 1 of 3; run it again for hint 2
  workbook hint 14/tiled_gemm --all
  workbook hint module13/dot_reduction --json
Hints go from the idea, to the mechanism, to nearly the code. Using one is no penalty;
`workbook history LAB` shows how many you had seen before each run. When they are all
shown, `workbook show LAB --solution` is the reference solution.)");
  cmd->callback([&ctx, lab, all, json] {
    OpenedCourse opened(ctx.global);
    ctx.exit_code = learn::show_hints(opened.catalog, opened.journal, *lab, *all, ctx.global.output(*json));
  });
}

}  // namespace workbook
