// The experiment summary as text (see experiment_show.hpp).
#include "present/experiment_show.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "experiment/experiment_machine.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"
#include "util/lines.hpp"

namespace workbook {

std::string figure_text(const Spread& s, const std::string& unit) {
  std::string text = unit.empty() ? fmt::format("{:.4g}", s.median) : format_quantity(s.median, unit);
  if (s.samples > 1) text += fmt::format(" ±{:.1f}%", 50.0 * s.relative());
  return text + fmt::format(" ({} run{})", s.samples, s.samples == 1 ? "" : "s");
}

std::vector<KernelRow> kernel_rows(const ExperimentSummary& s, std::size_t limit) {
  std::map<std::string, double> longest;
  for (const auto& v : s.variants)
    for (const auto& [name, t] : v.kernels) longest[name] = std::max(longest[name], t.total_us);
  std::vector<std::pair<std::string, double>> order(longest.begin(), longest.end());
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<KernelRow> rows;
  for (const auto& [name, total] : order) {
    if (rows.size() == limit) break;
    KernelRow row{name, {}};
    for (const auto& v : s.variants) {
      auto it = v.kernels.find(name);
      row.per_variant.push_back(it == v.kernels.end() ? std::nullopt : std::optional<KernelTime>(it->second));
    }
    rows.push_back(row);
  }
  return rows;
}

namespace {

void add_figures(const ExperimentSummary& s, const Style& style, std::size_t width, std::vector<std::string>& out) {
  Table t;
  t.columns.push_back({"metric"});
  for (const auto& v : s.variants)
    t.columns.push_back({v.name == s.experiment.baseline ? v.name + " (baseline)" : v.name, true});
  for (const auto& v : s.variants)
    if (v.name != s.experiment.baseline) t.columns.push_back({v.name + " / " + s.experiment.baseline, true, false, true});
  for (const auto& m : s.experiment.metrics) {
    std::vector<std::string> row{m.name};
    for (const auto& v : s.variants) {
      auto it = v.figures.find(m.name);
      row.push_back(it == v.figures.end() ? "-" : figure_text(it->second, m.unit));
    }
    for (const auto& v : s.variants) {
      if (v.name == s.experiment.baseline) continue;
      const auto r = s.ratio(v.name, m.name);
      row.push_back(r ? fmt::format("{:.3g}x", *r) : "-");
    }
    t.rows.push_back(row);
  }
  for (const auto& line : split_lines(render_table(t, width, style))) out.push_back(line);
}

void add_kernels(const ExperimentSummary& s, const Style& style, std::size_t width, std::vector<std::string>& out) {
  const std::vector<KernelRow> rows = kernel_rows(s);
  if (rows.empty()) return;
  out.push_back("");
  for (const auto& line : split_lines(wrap_text("Kernels (traced runs: their times include the tracing's cost)", width)))
    out.push_back(style.bold(line));
  Table t;
  t.columns.push_back({"kernel", false, true});
  for (const auto& v : s.variants) t.columns.push_back({v.name, true});
  for (const auto& r : rows) {
    std::vector<std::string> row{r.name};
    for (const auto& k : r.per_variant)
      row.push_back(k ? fmt::format("{} ({}x)", format_quantity(k->total_us, "us"), k->calls) : "-");
    t.rows.push_back(row);
  }
  for (const auto& line : split_lines(render_table(t, width, style))) out.push_back(line);
}

}  // namespace

std::string scored_answer_origin(const ExperimentSummary& s, const LabPrediction& a) {
  return fmt::format("made {}{}, {}", a.recorded_at.substr(0, 10),
                     a.run_id == s.run.id ? " with this run" : fmt::format(" with experiment run #{}", a.run_id),
                     a.after_measurement ? "after an earlier run was measured" : "before any measurement");
}

namespace {

void add_predictions(const ExperimentSummary& s, const Style& style, std::size_t width, std::vector<std::string>& out) {
  if (s.predictions.empty()) return;
  out.push_back("");
  out.push_back(style.bold("Your predictions (the first of each is the scored one)"));
  for (const auto& p : s.predictions) {
    const std::string& unit = p.spec.spec.unit;
    std::string line = fmt::format("  {:<16} ", p.spec.spec.id);
    line += p.answer ? "predicted " + p.answer->answer.text : std::string("no prediction");
    if (p.measured) line += fmt::format(", measured {}", unit.empty() ? fmt::format("{:.4g}", *p.measured) : format_quantity(*p.measured, unit));
    if (!p.band.empty()) line += ": " + p.band;
    if (!p.measured && p.answer) line += " (" + p.note + ")";
    for (const auto& part : split_lines(wrap_columns(line, width))) out.push_back(part);  // hangs under "predicted"
    if (p.answer) out.push_back(style.dim("    " + scored_answer_origin(s, *p.answer)));
    if (p.later) out.push_back(style.dim(fmt::format("    later answer with this run: {} (not scored)", p.later->answer.text)));
  }
}

}  // namespace

std::vector<std::string> summary_lines(const ExperimentSummary& s, const Style& style, std::size_t width) {
  std::vector<std::string> out;
  const std::string title = s.experiment.title.empty() ? s.experiment.name : s.experiment.name + ": " + s.experiment.title;
  out.push_back(style.bold("Experiment " + title));
  const std::string run_line = fmt::format("run #{} · started {} · {} · {} repeat{} per variant{}{}", s.run.id,
                                           date_time_text(s.run.started_at), s.run.status.empty() ? "unfinished" : s.run.status,
                                           s.experiment.repeats, s.experiment.repeats == 1 ? "" : "s",
                                           s.run.traced ? " · traced" : "",
                                           s.run.slurm_job.empty() ? "" : " · Slurm job " + s.run.slurm_job);
  for (const auto& line : split_lines(wrap_text(run_line, width, "", "  "))) out.push_back(style.dim(line));
  for (const auto& line : split_lines(wrap_text("Machine: " + experiment_machine_text(s.run.gpu, s.run.machine), width, "",
                                                "  ")))
    out.push_back(line);
  out.push_back("");
  add_figures(s, style, width, out);
  for (const auto& v : s.variants)
    for (const auto& p : v.problems)
      for (const auto& line : split_lines(p)) out.push_back(line.rfind("    |", 0) == 0 ? line : style.dim("  " + v.name + ": ") + line);
  add_kernels(s, style, width, out);
  add_predictions(s, style, width, out);
  if (!s.run.explanations.empty()) {
    out.push_back("");
    out.push_back(style.bold(fmt::format("Your explanation (given with run #{})", s.run.id)));
    for (const auto& x : s.run.explanations)
      for (const auto& line : split_lines(wrap_text(x.recorded_at.substr(0, 10) + "  " + x.text, width, "  ", "    ")))
        out.push_back(line);
  }
  return out;
}

std::string experiment_list_text(const ExperimentList& list, const Style& s) {
  std::string out = s.bold("Experiments in " + list.dir) + "\n";
  for (const auto& f : list.files) out += "  " + f + "\n";
  if (list.files.empty()) out += "  " + s.dim("none yet: workbook experiment new NAME") + "\n";
  if (!list.runs.empty()) out += s.bold("Runs") + "\n";
  for (const auto& r : list.runs) {
    out += fmt::format("  #{:<5} {:<20} {:<12} {} {}\n", r.id, r.experiment, r.status.empty() ? "unfinished" : r.status,
                       r.started_at, s.dim(r.gpu.empty() ? "no GPU" : r.gpu));
  }
  return out;
}

nlohmann::json experiment_list_json(const ExperimentList& list) {
  nlohmann::json j{{"files", list.files}, {"runs", nlohmann::json::array()}};
  for (const auto& r : list.runs) {
    j["runs"].push_back({{"id", r.id}, {"experiment", r.experiment}, {"started_at", r.started_at}, {"status", r.status},
                         {"gpu", r.gpu}, {"slurm_job", r.slurm_job}});
  }
  return j;
}

}  // namespace workbook
