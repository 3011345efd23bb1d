// A lab's page (see lab_page.hpp).
#include "present/lab_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "content/metric_source.hpp"
#include "run/expected_table.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"

namespace workbook {

namespace {

// The cell of the expected range, and the legend line of what it shows when it is not a
// range (added to `legend` once).
std::string range_cell(const MetricGrade& r, std::vector<std::string>& legend) {
  auto explain = [&legend](const std::string& line) {
    if (std::find(legend.begin(), legend.end(), line) == legend.end()) legend.push_back(line);
  };
  std::string cell = format_range(r.lo, r.hi, r.unit), note = r.note, flag;
  if (const std::size_t tool = note.find("measured with --"); tool != std::string::npos) {
    flag = note.substr(tool + 14);
    note.erase(tool >= 2 ? tool - 2 : tool);
  }
  if (note == kNoDeviceFigures) {
    cell = "unknown GPU";
    explain("unknown GPU: no GPU found and no --gpu given, so no range could be worked out (try --gpu t4)");
  } else if (note == kAfterTheRun) {
    cell = "after the run";
    explain("after the run: the range is worked out from other figures the run measures");
  } else if (!note.empty() && cell.empty()) {
    cell = note;
  }
  if (cell.empty()) {
    cell = "-";
    explain("-: no range declared; the figure is recorded, not graded");
  }
  if (!flag.empty()) {
    cell += " (" + flag + ")";
    explain("(" + flag + "): a profiler's figure, measured only in a run with " + flag);
  }
  return cell;
}

std::string basis_cell(const MetricGrade& r, std::vector<std::string>& legend) {
  if (!r.lo && !r.hi) return "";
  static const std::map<RangeBasis, std::string> kWhy = {
      {RangeBasis::model, "model: worked out from the GPU's spec sheet figures by the lab's performance model"},
      {RangeBasis::measured, "measured: near what this GPU model measured (data/measured), at the default parameters"},
      {RangeBasis::workbook, "workbook: the workbook's own figure for this GPU, widened by 20 %"}};
  const auto why = kWhy.find(r.basis);
  if (why != kWhy.end() && std::find(legend.begin(), legend.end(), why->second) == legend.end()) legend.push_back(why->second);
  return to_string(r.basis);
}

}  // namespace

std::string expected_figures_text(const std::vector<MetricGrade>& rows, const DeviceContext& dev, const Style& s,
                                  std::size_t width) {
  const std::string title = dev.spec ? fmt::format("Expected on {}:", dev.describe())
                                     : fmt::format("Expected figures ({}; pass --gpu ID, e.g. --gpu t4, to see another GPU's):",
                                                   dev.describe());
  std::string out = "\n" + wrap_text(title, width) + "\n";
  Table t{{{"figure"}, {"expected here", false, true}, {"range from", false, false, true},
           {"the workbook's figure", false, true, true}}, {}, "  ", true};
  std::vector<std::string> legend;
  for (const auto& r : rows) {
    std::string expected = range_cell(r, legend);
    t.rows.push_back({r.name, expected, basis_cell(r, legend), s.dim(r.reference)});
  }
  out += render_table(t, width, s);
  for (const auto& l : legend) out += s.dim(wrap_text(l, width, "  ", "    ")) + "\n";
  return out;
}

std::string lab_page_text(const LabPage& page, const Style& s, std::size_t width) {
  const LabSpec& lab = page.lab;
  const bool mistakes = page.mistakes_open;
  const std::string heading = wrap_text(lab.id + "  " + lab.title, width, "", "  ");  // the title wrapped, never cut
  std::string out = fmt::format("{}\n\n{}\n\n", s.bold(heading), wrap_text(lab.goal, width));
  for (std::size_t i = 0; i < lab.steps.size(); ++i) {
    const std::string number = fmt::format("  {}. ", i + 1);
    out += wrap_text(lab.steps[i], width, number, std::string(number.size(), ' ')) + "\n";
  }
  if (!lab.params.empty()) {
    out += "\nParameters (-p NAME=VALUE):\n";
    Table t{{{"name"}, {"default", true}, {"meaning", false, true}}, {}, "  ", false};
    for (const auto& p : lab.params) t.rows.push_back({p.name, format_figure(p.default_value, ""), s.dim(p.doc)});
    out += render_table(t, width, s);
  }
  if (!lab.predictions.empty()) {
    out += "\nYou will be asked to predict:\n";
    Table t{{{"id"}, {"question", false, true}}, {}, "  ", false};
    for (const auto& p : lab.predictions) {
      const std::string tool = prediction_tool(lab, p);
      t.rows.push_back({p.id, tool.empty() ? p.prompt : p.prompt + " " + s.dim("(asked in a run with --" + tool + ")")});
    }
    out += render_table(t, width, s);
  }
  out += expected_figures_text(page.expected, page.device, s, width);
  if (!lab.variants.empty() && !mistakes) {
    out += "\n" + s.dim(wrap_text(fmt::format("This lab is proven to catch {} known mistake(s); they are listed here once "
                                               "your copy has passed (workbook run {}).",
                                               lab.variants.size(), lab.id),
                                   width)) + "\n";
  } else if (!lab.variants.empty()) {
    out += "\n" + wrap_text("Mistakes this lab is proven to catch (wrong: a check fails; slow: a figure falls out of range):",
                            width) + "\n";
    Table t{{{"kind"}, {"variant"}, {"what it gets wrong", false, true}}, {}, "  ", false};
    for (const auto& v : lab.variants) t.rows.push_back({to_string(v.kind), v.id, s.dim(v.what)});
    out += render_table(t, width, s);
  }
  return out + fmt::format("\nRun it: workbook run {}\n", lab.id);
}

nlohmann::json lab_page_json(const LabPage& page) {
  const LabSpec& lab = page.lab;
  const bool mistakes = page.mistakes_open;
  nlohmann::json params = nlohmann::json::array(), preds = nlohmann::json::array(), exp = nlohmann::json::array();
  for (const auto& p : lab.params) {
    params.push_back({{"name", p.name}, {"default", p.default_value}, {"quick", p.quick ? nlohmann::json(*p.quick) : nlohmann::json()}, {"doc", p.doc}});
  }
  for (const auto& p : lab.predictions) {
    const std::string tool = prediction_tool(lab, p);  // the profiler whose run asks it; null: every run
    preds.push_back({{"id", p.id}, {"kind", to_string(p.kind)}, {"prompt", p.prompt}, {"unit", p.unit}, {"choices", p.choices},
                     {"tool", tool.empty() ? nlohmann::json() : nlohmann::json(tool)}});
  }
  for (const auto& r : page.expected) {
    exp.push_back({{"metric", r.name}, {"unit", r.unit}, {"derived", r.derived},
                   {"min", r.lo ? nlohmann::json(*r.lo) : nlohmann::json()},
                   {"max", r.hi ? nlohmann::json(*r.hi) : nlohmann::json()}, {"note", r.note}, {"reference", r.reference},
                   {"basis", to_string(r.basis)}, {"basis_note", r.basis_note}});
  }
  nlohmann::json variants = nlohmann::json::array();
  for (const auto& v : lab.variants)
    if (mistakes) variants.push_back({{"id", v.id}, {"kind", to_string(v.kind)}, {"what", v.what}});
  return {{"lab", lab.id}, {"title", lab.title}, {"goal", lab.goal}, {"steps", lab.steps}, {"source", lab.source},
          {"params", params}, {"checks", lab.checks}, {"predictions", preds}, {"device", page.device.describe()},
          {"expected", exp}, {"variants", variants}, {"variants_hidden", mistakes ? 0 : lab.variants.size()}};
}

}  // namespace workbook
