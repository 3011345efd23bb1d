// The report as Markdown and as JSON (see report_data.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "content/lab_id.hpp"
#include "report/report_data.hpp"
#include "ui/units.hpp"
#include "util/json_or_null.hpp"
#include "util/lines.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace workbook {

// Text that a Markdown renderer shows as typed: HTML's < > & as entities (no raw tag,
// no autolink), and \ ` [ ] escaped (no link, image or code span: a `javascript:` link
// needs a [ to start). The report is handed in and may be rendered; what the learner
// typed (explanations, answers) and what a lab reported (figure and kernel names) go
// through here.
std::string md_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\\':
      case '`':
      case '[':
      case ']':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : md_text(printable_text(s))) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

namespace {

std::string range_text(const MetricRow& m) {
  if (m.lo && m.hi && *m.lo == *m.hi) return format_figure(*m.lo, m.unit);
  return format_range(m.lo, m.hi, m.unit);  // "1.2 to 4 x", "at least 5 GB/s": never "a - b"
}

std::string prediction_result(const PredictionRow& p) {
  if (!p.unclear.empty()) return p.unclear;
  if (!p.graded && !p.first) return "a later answer: not scored (the first stays the scored one)";
  if (!p.graded) return "not graded (the run gave no verdict on it)";
  if (p.correct) return *p.correct ? "right" : "wrong (it was " + p.right_answer + ")";
  if (p.factor) return fmt::format("{}, off by {:.3g}x ({}/{})", p.band, *p.factor, p.score, p.max_score);
  return "not comparable";
}

std::string params_text(const std::string& json_text) {
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (!j.is_object() || j.empty()) return "default parameters";
  std::string out;
  for (const auto& [k, v] : j.items()) out += (out.empty() ? "" : ", ") + k + "=" + (v.is_number() ? format_number(v.get<double>()) : v.dump());
  return out;
}

void machine_section(const ReportData& d, std::string& out) {
  out += "## Machine\n\n";
  if (d.machines.empty()) out += "No run in this report names a GPU (host-only labs, or no GPU was found).\n\n";
  for (const auto& m : d.machines) {
    std::string line = "- **" + md_cell(m.gpu) + "**";
    if (!m.spec_id.empty()) line += " (spec sheet `" + m.spec_id + "`)";
    std::string arches;
    for (const auto& a : m.arches) arches += (arches.empty() ? "" : ", ") + a;
    if (!arches.empty()) line += ", compiled for " + arches;
    if (m.calibration) {
      line += "; driver " + m.calibration->driver;
      if (m.calibration->sm_clock_mhz) line += fmt::format(", SM clock {:.0f} MHz", *m.calibration->sm_clock_mhz);
      line += " (at its calibration, " + date_time_text(m.calibration->measured_at) + ")";
    }
    std::string recorded;
    for (const auto& x : m.recorded) recorded += (recorded.empty() ? "" : ", ") + x;
    if (!recorded.empty()) line += fmt::format(".\n  With run #{} ({}): {}", m.run_id, date_time_text(m.run_at), recorded);
    std::string missing;
    for (const auto& x : m.missing) missing += (missing.empty() ? "" : "; ") + x;
    out += line + (missing.empty() ? ".\n" : ".\n  Not recorded in the journal: " + missing + ".\n");
  }
  out += "\n";
}

void figures_table(const LabEvidence& e, std::string& out) {
  if (e.metrics.empty()) {
    out += "No figures were recorded for this run.\n\n";
    return;
  }
  out += "| figure | measured | expected here | |\n|---|---:|---|---|\n";
  for (const auto& m : e.metrics) {
    out += fmt::format("| {}{} | {} | {} | {} |\n", md_cell(m.name), m.derived ? " (derived)" : "",
                       m.value ? format_figure(*m.value, m.unit) : "-", range_text(m), m.status == "no range" ? "" : m.status);
  }
  out += "\n";
}

void predictions_table(const LabEvidence& e, std::string& out) {
  if (e.predictions.empty()) {
    out += "No predictions were recorded for this lab before this run.\n\n";
    return;
  }
  out += "Predictions, recorded before the build (a lab's first of each is the scored one):\n\n"
         "| prediction | predicted | made | measured | result |\n|---|---|---|---:|---|\n";
  for (const auto& p : e.predictions) {
    const std::string made = p.recorded_at.substr(0, 10) +
                             (p.after_measurement ? ", after a measurement was seen" : ", before any measurement");
    out += fmt::format("| {} | {} | {} | {} | {} |\n", md_cell(p.id), md_cell(p.answer), made,
                       p.measured ? format_figure(*p.measured, "") : "", md_cell(prediction_result(p)));
  }
  out += "\n";
}

void lab_section(const LabEvidence& e, std::string& out) {
  out += "## " + e.lab + (e.title.empty() ? "" : " · " + e.title) + "\n\n";
  out += fmt::format("Run #{} ({}), {}, on {}: **{}** · {} · seed {} · {} run(s) of this lab in the journal\n\n", e.run.id,
                     e.run.variant, date_time_text(e.run.started_at), e.run.device.empty() ? "no GPU" : e.run.device,
                     e.run.verdict, params_text(e.run.params), e.run.seed, e.runs_total);
  figures_table(e, out);
  predictions_table(e, out);
  for (const auto& x : e.explanations) {
    out += fmt::format("Explanation given with run #{} ({}):\n\n", e.run.id, date_time_text(x.recorded_at));
    for (const auto& line : split_lines(x.text)) out += "> " + md_text(line) + "\n";
    out += "\n";
    if (!x.feedback.empty()) {
      out += fmt::format("What an examiner would say (checked against run #{}'s figures above):\n\n", e.run.id);
      for (const auto& line : split_lines(x.feedback)) out += "- " + line + "\n";
      out += "\n";
    }
  }
  if (e.explanations.empty()) out += "No explanation was given with this run (`workbook run " + e.lab + " --explain \"...\"`).\n\n";
  if (!e.explained_elsewhere.empty()) {
    std::string runs;
    for (const auto& r : e.explained_elsewhere)
      runs += fmt::format("{}#{} ({}, {})", runs.empty() ? "" : ", ", r.id, r.verdict, r.started_at.substr(0, 10));
    out += fmt::format("Other runs of this lab with an explanation, each with its own figures in `workbook history {}`: "
                       "{}.\n\n",
                       e.lab, runs);
  }
}

// The calibration ledger: per module and kind, then the trend chart.
void ledger_section(const ReportData& d, std::string& out) {
  if (d.ledger.entries.empty()) return;
  out += "## Calibration ledger\n\nEach lab's first prediction (made before any measurement) against its measurement. "
         "p/m is the typical predicted / measured; optimism is the mean log2 of how much better than measured the "
         "prediction promised (a shorter time, more bandwidth, a larger speed-up).\n\n";
  out += "| module | kind | n | typical p/m | optimism | right | off by > 2x |\n|---|---|---|---|---|---|---|\n";
  for (const auto& r : d.ledger.rows)
    out += fmt::format("| {} |\n", fmt::join(ledger_row_cells(r), " | "));
  out += "\n";
  if (const std::string s = ledger_summary(d.ledger); !s.empty()) out += "In short: " + s + ".\n\n";
  if (!d.ledger_svg.empty()) out += fmt::format("![Calibration ledger]({})\n\n", d.ledger_svg);
}

void roofline_section(const ReportData& d, std::string& out) {
  if (d.roofs.empty()) return;
  out += "## Roofline\n\n";
  for (const auto& r : d.roofs) {
    out += fmt::format("![Roofline of {}]({})\n\n", md_text(r.roof.gpu), r.svg_name);
    out += fmt::format("Roof of {} ({}): {:.0f} GB/s, {:.0f} GFLOP/s FP32, ridge at {:.3g} FLOP/byte.\n\n", r.roof.gpu,
                       r.roof.source, r.roof.peak_gbps, r.roof.peak_gflops, plot::ridge_intensity(r.roof));
    out += "| kernel | FLOP/byte | GFLOP/s | roof above it | where |\n|---|---:|---:|---:|---|\n";
    for (const auto& p : r.points) {
      const plot::Placement at = plot::place(r.roof, p);
      out += fmt::format("| {} | {:.3g} | {} | {} | {} |\n", md_cell(p.label), p.intensity, format_figure(p.gflops, ""),
                         format_figure(at.attainable_gflops, ""), plot::describe(at));
    }
    out += "\n";
  }
}

}  // namespace

std::string render_markdown(const ReportData& d) {
  std::string out = "# Workbook report" + (d.scope.empty() ? std::string() : ": " + d.scope) + "\n\n";
  out += "Generated " + d.generated_at + " from the learner's journal. For each lab: the latest passing run (else the "
         "latest run), its figures beside the range expected on that GPU, the predictions made before it ran, and the "
         "explanations given after.\n\n";
  machine_section(d, out);
  if (d.labs.empty()) out += "No runs are recorded" + (d.scope.empty() ? std::string() : " for " + d.scope) + " yet.\n\n";
  for (const auto& e : d.labs) lab_section(e, out);
  roofline_section(d, out);
  out += d.extra_markdown;
  ledger_section(d, out);
  if (!d.notes.empty()) {
    out += "## Notes\n\n";
    for (const auto& n : d.notes) out += "- " + md_text(n) + "\n";
    out += "\n";
  }
  return out;
}

namespace {

nlohmann::json lab_json(const LabEvidence& e) {
  nlohmann::json j = {{"lab", e.lab}, {"title", e.title}, {"runs_total", e.runs_total}};
  j["run"] = {{"id", e.run.id}, {"variant", e.run.variant}, {"started_at", e.run.started_at}, {"verdict", e.run.verdict},
              {"device", e.run.device}, {"arch", e.run.arch}, {"seed", e.run.seed},
              {"params", nlohmann::json::parse(e.run.params, nullptr, false).is_object() ? nlohmann::json::parse(e.run.params) : nlohmann::json::object()}};
  j["metrics"] = nlohmann::json::array();
  for (const auto& m : e.metrics)
    j["metrics"].push_back({{"name", m.name}, {"unit", m.unit}, {"derived", m.derived}, {"value", json_or_null(m.value)},
                            {"expected_min", json_or_null(m.lo)}, {"expected_max", json_or_null(m.hi)}, {"status", m.status}});
  j["predictions"] = nlohmann::json::array();
  for (const auto& p : e.predictions)
    j["predictions"].push_back({{"id", p.id}, {"answer", p.answer}, {"graded", p.graded}, {"measured", json_or_null(p.measured)},
                                {"factor", json_or_null(p.factor)}, {"band", p.band}, {"score", p.score}, {"max_score", p.max_score},
                                {"correct", p.correct ? nlohmann::json(*p.correct) : nlohmann::json()}, {"right_answer", p.right_answer},
                                {"first", p.first}, {"after_measurement", p.after_measurement},
                                {"recorded_at", p.recorded_at}, {"run_id", p.run_id}});
  j["explanations"] = nlohmann::json::array();
  for (const auto& x : e.explanations)
    j["explanations"].push_back({{"text", x.text}, {"recorded_at", x.recorded_at}, {"run_id", x.run_id},
                                 {"feedback", split_lines(x.feedback)}});
  return j;
}

nlohmann::json machine_line_json(const MachineLine& m) {
  nlohmann::json j = {{"gpu", m.gpu}, {"arches", m.arches}, {"spec_sheet", m.spec_id}, {"not_recorded", m.missing}};
  j["run_id"] = m.run_id;
  j["recorded"] = m.recorded;
  j["machine"] = machine_json(m.machine);
  j["calibration"] = nullptr;
  if (m.calibration) {
    j["calibration"] = {{"measured_at", m.calibration->measured_at}, {"driver", m.calibration->driver},
                        {"sm_clock_mhz", json_or_null(m.calibration->sm_clock_mhz)}, {"figures", m.calibration->figures}};
  }
  return j;
}

}  // namespace

nlohmann::json report_data_json(const ReportData& d) {
  nlohmann::json j = {{"scope", d.scope}, {"generated_at", d.generated_at}, {"notes", d.notes}};
  j["labs"] = nlohmann::json::array();
  for (const auto& e : d.labs) j["labs"].push_back(lab_json(e));
  j["machines"] = nlohmann::json::array();
  for (const auto& m : d.machines) j["machines"].push_back(machine_line_json(m));
  j["rooflines"] = nlohmann::json::array();
  for (const auto& r : d.roofs) {
    nlohmann::json rj = {{"gpu", r.roof.gpu}, {"source", r.roof.source}, {"peak_gbps", r.roof.peak_gbps},
                         {"peak_gflops", r.roof.peak_gflops}, {"ridge", plot::ridge_intensity(r.roof)}, {"svg", r.svg_name}};
    rj["kernels"] = nlohmann::json::array();
    for (const auto& p : r.points) {
      const plot::Placement at = plot::place(r.roof, p);
      rj["kernels"].push_back({{"kernel", p.label}, {"intensity", p.intensity}, {"gflops", p.gflops},
                               {"attainable_gflops", at.attainable_gflops}, {"pct_of_roof", at.pct_of_roof},
                               {"bound", at.memory_bound ? "memory" : "compute"}});
    }
    j["rooflines"].push_back(rj);
  }
  make_valid_utf8(j);
  return j;
}

}  // namespace workbook
