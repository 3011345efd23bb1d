// `workbook history [lab] [--limit N] [--json]`: runs with their figures, verdict, GPU and
// date, and how far predictions landed from measurements.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "present/progress_text.hpp"
#include "progress/commands.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"

namespace workbook {

void setup_history(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("history", "Past runs with their figures, and how well your predictions landed");
  auto lab = std::make_shared<std::string>();
  auto limit = std::make_shared<int>(20);
  auto json = std::make_shared<bool>(false);
  auto ledger = std::make_shared<bool>(false);
  cmd->add_option("lab", *lab, "Only this lab (module14/tiled_gemm); leave it out for every lab");
  cmd->add_option("--limit", *limit, "At most this many runs, newest first")->capture_default_str();
  add_json_flag(cmd, *json);
  cmd->add_flag("--ledger", *ledger,
                "The calibration ledger: each lab's and experiment's first prediction against its measurement, per module and kind");
  cmd->footer(R"(Examples:
  workbook history
  workbook history module14/tiled_gemm --limit 5
  workbook history --json
  workbook history --ledger                  (every module; a lab's module with a lab)
Calibration: factor = max(predicted/measured, measured/predicted); p/m above 1 means
your predictions run high. The ledger keeps log2(predicted / measured) of each lab's
first prediction; off by more than 2x (|log2| > 1) brings the module's reviews due sooner.)");
  cmd->callback([&ctx, lab, limit, json, ledger] {
    OpenedCourse opened(ctx.global, JournalAccess::read);
    const progress::CommandInputs in{opened.catalog, opened.workspace, opened.journal, ctx.global.output(*json)};
    if (*ledger) {
      if (*limit < 1) throw UsageError("--limit must be at least 1");
      print_result(in.out, progress::ledger_of(in, *lab), ledger_json,
                   [](const Ledger& l, const Style&) { fmt::print("{}", ledger_text(l, text_width())); });
    } else {
      print_result(in.out, progress::history_of(in, *lab, *limit),
                   [](const progress::HistoryReport& r) { return progress::to_json(r); },
                   [](const progress::HistoryReport& r, const Style& s) { fmt::print("{}", progress::format_history(r, s)); });
    }
    ctx.exit_code = 0;
  });
}

}  // namespace workbook
