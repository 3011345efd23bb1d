// `workbook report [module|lab]`: the learner's evidence as Markdown + SVG, to hand in.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "experiment/experiment_report.hpp"
#include "learn/clock.hpp"
#include "present/report_summary.hpp"
#include "report/report_data.hpp"

namespace workbook {

namespace {

struct ReportOptions {
  std::string scope;
  std::string out;
  bool json = false;
};

}  // namespace

void setup_report(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("report", "Write a Markdown + SVG report of your figures, predictions and explanations");
  auto o = std::make_shared<ReportOptions>();
  cmd->add_option("scope", o->scope, "A module or lab (default: everything you ran), e.g. 14 or module14/tiled_gemm");
  cmd->add_option("--out", o->out, "Folder for report.md and its SVG plots (default: <workspace>/reports/<scope>)");
  cmd->add_flag("--json", o->json, "Print one JSON object (the report's data and the files written)");
  cmd->footer(R"(Examples:
  workbook report
  workbook report module14 --out ~/a3-report
  workbook report module04/vecadd_roofline --json
Per lab: the latest passing run (else the latest run), its figures beside their expected
ranges, your predictions beside the measurements, your explanations; the machine line;
a roofline of your kernels that report FLOP and byte rates; the whole report also shows
each experiment's latest run (workbook experiment) with its loss-vs-step curves.)");
  cmd->callback([&ctx, o] {
    OpenedCourse opened(ctx.global);
    const std::string now = learn::iso_utc(learn::now_unix());
    ReportData data = collect_report(opened.journal, opened.catalog, o->scope, now);
    ExperimentsSection experiments;  // the whole report only: an experiment belongs to no module
    if (data.scope.empty()) experiments = experiments_section(opened.journal);
    data.extra_markdown = experiments.markdown;
    for (const auto& svg : experiments.svgs) data.extra_files.emplace_back(svg.name, svg.svg);
    std::filesystem::path dir = o->out;
    if (dir.empty()) {
      std::string name = data.scope.empty() ? "all" : data.scope;
      for (auto& c : name) c = c == '/' ? '-' : c;
      dir = opened.workspace.root() / "reports" / name;
    }
    const std::vector<std::filesystem::path> files = write_report(data, dir);
    print_result(ctx.global.output(o->json), WrittenReport{data, experiments.json, files}, written_report_json,
                 print_report_summary);
    ctx.exit_code = 0;
  });
}

}  // namespace workbook
