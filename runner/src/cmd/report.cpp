// `workbook report [module|lab]`: the learner's evidence as Markdown + SVG, to hand in.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "content/course.hpp"
#include "present/experiment_report.hpp"
#include "experiment/experiment_topics.hpp"
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
  cmd->add_option("scope", o->scope,
                  "A module or lab (default: everything you ran), e.g. 14 or module14/tiled_gemm; `project`: the "
                  "experiments and the project topics' measured labs");
  cmd->add_option("--out", o->out, "Folder for report.md and its SVG plots (default: <workspace>/reports/<scope>)");
  add_json_flag(cmd, o->json, "one JSON object (the report's data and the files written)");
  cmd->footer(R"(Examples:
  workbook report
  workbook report module14 --out ~/a3-report
  workbook report module04/vecadd_roofline --json
  workbook report project --out ~/project-report
Per lab: the latest passing run (else the latest run), its figures beside their expected
ranges, your predictions beside the measurements, your explanations; the machine line;
a roofline of your kernels that report FLOP and byte rates; the whole report also shows
each experiment's latest run (workbook experiment) with one chart per per-step metric,
every variant a line; `project` keeps only that and the project topics' measured labs.)");
  cmd->callback([&ctx, o] {
    OpenedCourse opened(ctx.global);
    const std::string now = learn::iso_utc(learn::now_unix());
    const bool project = o->scope == "project";
    ReportData data = collect_report(opened.journal, opened.catalog, project ? "" : o->scope, now);
    if (project) {
      std::vector<int> topics;
      if (const auto course = load_course(opened.catalog.root(), opened.workspace.root()))
        for (const auto& t : course->project.topics) topics.push_back(t.module);
      scope_to_project(data, topics, gather_ledger(opened.journal, opened.catalog, 0, experiment_ledger_entries(opened.journal)));
    }
    ExperimentsSection experiments;  // the whole report and the project's: an experiment belongs to no module
    if (data.scope.empty() || project) experiments = experiments_section(opened.journal);
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
