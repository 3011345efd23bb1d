// `workbook show <module|lab> [--json]`: a module's objectives and labs, or a lab's goal,
// steps, parameters, predictions, and its expected figures on this GPU beside the workbook's.
#include <fmt/format.h>

#include "cmd/registry.hpp"
#include "run/device_context.hpp"
#include "run/expected_table.hpp"
#include "run/lab_run.hpp"
#include "run/report_print.hpp"
#include "ui/wrap.hpp"

namespace workbook {

namespace {

struct ShowOptions {
  std::string what;
  bool json = false;
  std::optional<std::string> gpu;
};

void show_module(const Module& m, const Style& s, bool json) {
  if (json) {
    nlohmann::json labs = nlohmann::json::array();
    for (const auto& lab : m.labs) labs.push_back({{"id", lab.id}, {"title", lab.title}, {"goal", lab.goal}});
    print_json({{"module", m.id}, {"title", m.title}, {"objectives", m.objectives}, {"labs", labs}});
    return;
  }
  const std::size_t width = text_width();
  fmt::print("{}  {}\n\n{}\n", s.bold(m.id), s.bold(m.title), "After this module you can:");
  for (const auto& o : m.objectives) fmt::print("{}\n", wrap_text(o, width, "  - ", "    "));
  fmt::print("\nLabs:\n");
  for (const auto& lab : m.labs) fmt::print("  {:<28} {}\n", lab.id, lab.title);
  if (m.labs.empty()) fmt::print("  (none yet)\n");
}

std::string range_of(const ExpectedRow& r) {
  if (!r.note.empty()) return r.note;
  if (r.lo && r.hi) return fmt::format("{} - {}", format_figure(*r.lo, ""), format_figure(*r.hi, r.unit));
  if (r.lo) return ">= " + format_figure(*r.lo, r.unit);
  if (r.hi) return "<= " + format_figure(*r.hi, r.unit);
  return "-";
}

void show_lab(const LabSpec& lab, const DeviceContext& dev, const Style& s, bool json) {
  Figures defaults;
  for (const auto& p : lab.params) defaults[p.name] = p.default_value;
  auto rows = expected_rows(lab, dev.figures, dev.reference ? dev.reference->name : "T4",
                            grade_basis(dev, lab, defaults, false, true));
  if (json) {
    nlohmann::json params = nlohmann::json::array(), preds = nlohmann::json::array(), exp = nlohmann::json::array();
    for (const auto& p : lab.params) {
      params.push_back({{"name", p.name}, {"default", p.default_value}, {"quick", p.quick ? nlohmann::json(*p.quick) : nlohmann::json()}, {"doc", p.doc}});
    }
    for (const auto& p : lab.predictions) {
      preds.push_back({{"id", p.id}, {"kind", to_string(p.kind)}, {"prompt", p.prompt}, {"unit", p.unit}, {"choices", p.choices}});
    }
    for (const auto& r : rows) {
      exp.push_back({{"metric", r.metric}, {"unit", r.unit}, {"derived", r.derived},
                     {"min", r.lo ? nlohmann::json(*r.lo) : nlohmann::json()},
                     {"max", r.hi ? nlohmann::json(*r.hi) : nlohmann::json()}, {"note", r.note}, {"reference", r.reference},
                     {"basis", r.basis}, {"basis_note", r.basis_note}});
    }
    nlohmann::json variants = nlohmann::json::array();
    for (const auto& v : lab.variants) variants.push_back({{"id", v.id}, {"kind", to_string(v.kind)}, {"what", v.what}});
    print_json({{"lab", lab.id}, {"title", lab.title}, {"goal", lab.goal}, {"steps", lab.steps}, {"source", lab.source},
                {"params", params}, {"checks", lab.checks}, {"predictions", preds}, {"device", dev.describe()},
                {"expected", exp}, {"variants", variants}});
    return;
  }
  const std::size_t width = text_width();
  fmt::print("{}  {}\n\n{}\n\n", s.bold(lab.id), s.bold(lab.title), wrap_text(lab.goal, width));
  for (std::size_t i = 0; i < lab.steps.size(); ++i) {
    const std::string number = fmt::format("  {}. ", i + 1);
    fmt::print("{}\n", wrap_text(lab.steps[i], width, number, std::string(number.size(), ' ')));
  }
  if (!lab.params.empty()) {
    fmt::print("\nParameters (-p NAME=VALUE):\n");
    for (const auto& p : lab.params) {
      fmt::print("  {:<10} {:<10} {}\n", p.name, format_figure(p.default_value, ""), s.dim(p.doc));
    }
  }
  if (!lab.predictions.empty()) {
    fmt::print("\nYou will be asked to predict:\n");
    for (const auto& p : lab.predictions) {
      fmt::print("{}\n", wrap_text(p.prompt, width, fmt::format("  {:<12} ", p.id), std::string(15, ' ')));
    }
  }
  if (dev.spec) fmt::print("\nExpected on {}:\n", dev.describe());
  else fmt::print("\nExpected figures ({}; pass --gpu ID, e.g. --gpu t4, to see another GPU's):\n", dev.describe());
  for (const auto& r : rows) {
    fmt::print("  {:<16} {:<32} {}{}\n", r.metric, range_of(r), s.dim(r.reference),
               r.basis == "model" || !r.lo ? "" : s.dim(" [" + r.basis + "]"));
  }
  if (!lab.variants.empty()) {
    fmt::print("\nMistakes this lab is proven to catch (wrong: a check fails; slow: a figure falls out of range):\n");
    for (const auto& v : lab.variants) fmt::print("  {:<6} {:<24} {}\n", to_string(v.kind), v.id, s.dim(v.what));
  }
  fmt::print("\nRun it: workbook run {}\n", lab.id);
}

}  // namespace

void setup_show(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("show", "Show a module, or a lab with its expected figures on your GPU");
  auto o = std::make_shared<ShowOptions>();
  cmd->add_option("what", o->what, "A module (module14, 14) or a lab (module14/tiled_gemm)")->required();
  cmd->add_option("--gpu", o->gpu, "Show the expected figures for this spec sheet id (e.g. t4, h100-sxm)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->footer("Examples:\n  workbook show 14\n  workbook show module14/tiled_gemm --gpu t4");
  cmd->callback([&ctx, o] {
    Catalog catalog = ctx.global.catalog();
    LabRef ref = parse_lab_ref_or_throw(o->what);
    Style s = ctx.global.style();
    if (ref.name.empty()) {
      show_module(catalog.load_module(ref.module), s, o->json);
    } else {
      LabSpec lab = catalog.find_lab(ref);
      show_lab(lab, load_device_context(catalog, o->gpu, ctx.global.open_workspace()), s, o->json);
    }
  });
}

}  // namespace workbook
