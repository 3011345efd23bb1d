// `workbook report [module|lab]`: the learner's evidence as Markdown + SVG, to hand in.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "experiment/experiment_report.hpp"
#include "learn/clock.hpp"
#include "report/report_data.hpp"

namespace workbook {

namespace {

struct ReportOptions {
  std::string scope;
  std::string out;
  bool json = false;
};

void print_summary(const ReportData& d, const std::vector<std::filesystem::path>& files, const Style& s) {
  fmt::print("{} {}\n", s.bold("Report:"), files.back().string());
  for (const auto& e : d.labs) {
    fmt::print("  {:<32} run #{:<5} {:<13} {}\n", e.lab, e.run.id, e.run.verdict, s.dim(e.run.device.empty() ? "no GPU" : e.run.device));
  }
  if (d.labs.empty()) fmt::print("  {}\n", s.dim("no runs recorded in this scope yet: the report says so"));
  for (const auto& m : d.machines) {
    fmt::print("{} {}: {}\n", s.dim("Machine"), m.gpu, machine_text(m.machine));
  }
  for (const auto& r : d.roofs) fmt::print("\n{}", plot::roofline_sketch(r.roof, r.points, s));
  for (std::size_t i = 0; i + 1 < files.size(); ++i) fmt::print("{} {}\n", s.dim("Plot:"), files[i].string());
}

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
    if (o->json) {
      nlohmann::json j = report_data_json(data);
      j["experiments"] = experiments.json;
      j["files"] = nlohmann::json::array();
      for (const auto& f : files) j["files"].push_back(f.string());
      j["markdown"] = files.back().string();
      print_json(j);
    } else {
      print_summary(data, files, ctx.global.style());
    }
    ctx.exit_code = 0;
  });
}

}  // namespace workbook
