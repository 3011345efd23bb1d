// The experiments section of the report (see experiment_report.hpp).
#include "present/experiment_report.hpp"

#include <fmt/format.h>

#include <set>

#include "experiment/experiment_machine.hpp"
#include "present/experiment_show.hpp"
#include "experiment/experiment_store.hpp"
#include "report/report_data.hpp"
#include "ui/units.hpp"
#include "util/error.hpp"
#include "util/lines.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace workbook {

plot::Chart curve_chart(const ExperimentSummary& s, const ExperimentMetric& metric) {
  plot::Chart c;
  c.title = fmt::format("{}: {} per step", s.experiment.name, metric.name);
  c.x = {"step", "", 0};
  c.y = {metric.name, metric.unit, -1};
  for (const auto& v : s.variants) {
    auto it = v.curves.find(metric.name);
    if (it == v.curves.end() || it->second.empty()) continue;
    plot::Series series;
    series.name = v.name;
    series.markers = it->second.size() <= 60;
    for (std::size_t i = 0; i < it->second.size(); ++i) {
      series.x.push_back(static_cast<double>(i + 1));
      series.y.push_back(it->second[i]);
    }
    c.series.push_back(series);
  }
  // Two variants' lines on top of each other look like one: the title says so.
  std::string same;
  for (std::size_t a = 0; a < c.series.size(); ++a)
    for (std::size_t b = a + 1; b < c.series.size(); ++b)
      if (c.series[a].y == c.series[b].y) same += (same.empty() ? "" : "; ") + c.series[a].name + " and " + c.series[b].name;
  if (!same.empty()) c.title += " (" + same + " coincide: one line hides the other)";
  return c;
}

namespace {

void figures_table(const ExperimentSummary& s, std::string& md) {
  md += "| metric |";
  for (const auto& v : s.variants) md += " " + md_cell(v.name == s.experiment.baseline ? v.name + " (baseline)" : v.name) + " |";
  for (const auto& v : s.variants)
    if (v.name != s.experiment.baseline) md += " " + md_cell(v.name + " / " + s.experiment.baseline) + " |";
  md += "\n|---|";
  for (std::size_t i = 0; i < 2 * s.variants.size() - 1; ++i) md += "---:|";
  md += "\n";
  for (const auto& m : s.experiment.metrics) {
    md += "| " + md_cell(m.name) + " |";
    for (const auto& v : s.variants) {
      auto it = v.figures.find(m.name);
      md += " " + (it == v.figures.end() ? std::string("-") : md_cell(figure_text(it->second, m.unit))) + " |";
    }
    for (const auto& v : s.variants) {
      if (v.name == s.experiment.baseline) continue;
      const auto r = s.ratio(v.name, m.name);
      md += " " + (r ? fmt::format("{:.3g}x", *r) : std::string("-")) + " |";
    }
    md += "\n";
  }
}

void kernels_table(const ExperimentSummary& s, std::string& md) {
  const auto rows = kernel_rows(s);
  if (rows.empty()) return;
  md += "\nKernels (traced runs; tracing adds to the times):\n\n| kernel |";
  for (const auto& v : s.variants) md += " " + md_cell(v.name) + " |";
  md += "\n|---|";
  for (std::size_t i = 0; i < s.variants.size(); ++i) md += "---:|";
  md += "\n";
  for (const auto& r : rows) {
    md += "| " + md_cell(r.name) + " |";  // not a code span: md_cell's escapes would show in one
    for (const auto& k : r.per_variant)
      md += " " + (k ? fmt::format("{} ({} calls)", format_quantity(k->total_us, "us"), k->calls) : std::string("-")) + " |";
    md += "\n";
  }
}

// A run's explanations, each with its date, under that run's own figures.
void explanations_md(const ExperimentRunRow& run, std::string& md) {
  if (run.explanations.empty()) {
    md += fmt::format("\nExplanation: none given with experiment run #{} (`workbook experiment explain {} --run {} \"...\"`)\n\n",
                      run.id, run.experiment, run.id);
    return;
  }
  md += fmt::format("\nExplanation given with experiment run #{}:\n\n", run.id);
  for (const auto& x : run.explanations) md += fmt::format("> {} ({})\n>\n", md_cell(x.text), x.recorded_at.substr(0, 10));
  md += "\n";
}

void predictions_list(const ExperimentSummary& s, std::string& md) {
  if (s.predictions.empty()) return;
  md += "\nPredictions (the first of each, recorded before its run, is the scored one):\n\n";
  for (const auto& p : s.predictions) {
    md += fmt::format("- **{}** ({}): ", p.spec.spec.id, md_cell(p.spec.spec.prompt));
    md += p.answer ? "predicted " + md_cell(p.answer->answer.text) : std::string("no prediction");
    if (p.answer) md += " (" + scored_answer_origin(s, *p.answer) + ")";
    if (p.measured) md += fmt::format(", measured {}", p.spec.spec.unit.empty() ? fmt::format("{:.4g}", *p.measured)
                                                                                 : format_quantity(*p.measured, p.spec.spec.unit));
    if (!p.band.empty()) md += " — " + p.band;
    if (!p.measured && p.answer && !p.note.empty()) md += "; " + p.note;  // it holds a code span: not md_cell'd
    if (p.later) md += "; later answer with this run: " + md_cell(p.later->answer.text) + " (not scored)";
    md += "\n";
  }
}

}  // namespace

std::string experiment_markdown(const ExperimentSummary& s, const std::vector<ExperimentSvg>& svgs) {
  std::string md = fmt::format("### {}{}\n\n", s.experiment.name, s.experiment.title.empty() ? "" : ": " + s.experiment.title);
  md += fmt::format("Experiment run #{}, started {}, {}; {} repeat{} per variant{}{}.\n\n", s.run.id, date_time_text(s.run.started_at),
                    s.run.status.empty() ? "unfinished" : s.run.status, s.experiment.repeats,
                    s.experiment.repeats == 1 ? "" : "s", s.run.traced ? ", traced" : "",
                    s.run.slurm_job.empty() ? "" : ", Slurm job " + s.run.slurm_job);
  md += "Machine: " + md_cell(experiment_machine_text(s.run.gpu, s.run.machine)) + "\n\n";
  figures_table(s, md);
  for (const auto& v : s.variants)
    for (const auto& p : v.problems) {  // each message an item, the output lines under it ("    | ...") as text
      std::string output;
      for (const auto& line : split_lines(p + "\n\n")) {  // the empty last line ends a block
        if (line.rfind("    |", 0) == 0) {
          output += printable_text(line) + "\n";
          continue;
        }
        if (!output.empty()) md += "\n\n```text\n" + output + "```\n";
        output.clear();
        if (!line.empty()) md += fmt::format("\n- {}: {}", v.name, md_cell(trim(line)));
      }
    }
  md += "\n";
  kernels_table(s, md);
  predictions_list(s, md);
  explanations_md(s.run, md);
  for (const auto& svg : svgs) md += fmt::format("![{}]({})\n\n", svg.name, svg.name);
  return md;
}

namespace {

// An earlier run of an experiment that was explained: its figures and its explanations.
std::string earlier_run_markdown(const ExperimentSummary& s) {
  std::string md = fmt::format("#### {}: experiment run #{}, started {}, {}\n\n", s.experiment.name, s.run.id, date_time_text(s.run.started_at),
                               s.run.status.empty() ? "unfinished" : s.run.status);
  md += "Machine: " + md_cell(experiment_machine_text(s.run.gpu, s.run.machine)) + "\n\n";
  figures_table(s, md);
  explanations_md(s.run, md);
  return md;
}

}  // namespace

ExperimentsSection experiments_section(Journal& journal) {
  ExperimentsSection out;
  std::set<std::string> names;
  for (const auto& r : experiment_runs(journal, "", 100000)) names.insert(r.experiment);
  for (const auto& name : names) {
    const auto run = latest_experiment_run(journal, name);
    if (!run) continue;
    const ExperimentSummary s = summarize_experiment(*run);
    std::vector<ExperimentSvg> svgs;
    for (const auto& m : s.experiment.metrics) {
      if (m.per != MetricPer::step) continue;
      const plot::Chart chart = curve_chart(s, m);
      if (chart.series.empty()) continue;
      svgs.push_back({fmt::format("experiment-{}-{}.svg", name, m.name), plot::render_svg(chart)});
    }
    out.markdown += experiment_markdown(s, svgs);
    for (const auto& earlier : explained_experiment_runs(journal, name, run->id)) {  // each explanation with its run
      try {
        out.markdown += earlier_run_markdown(summarize_experiment(earlier));
      } catch (const Error&) {  // its kept file no longer parses: its explanation alone
        std::string md = fmt::format("#### {}: experiment run #{}\n", name, earlier.id);
        explanations_md(earlier, md);
        out.markdown += md;
      }
    }
    out.svgs.insert(out.svgs.end(), svgs.begin(), svgs.end());
    nlohmann::json j = summary_json(s);
    j["svgs"] = nlohmann::json::array();
    for (const auto& svg : svgs) j["svgs"].push_back(svg.name);
    out.json.push_back(j);
  }
  if (!out.markdown.empty()) out.markdown = "## Experiments\n\n" + out.markdown;
  return out;
}

}  // namespace workbook
