// `workbook show <module|lab> [--json]`: a module's reading and labs, or a lab's goal,
// steps, parameters, predictions, and its expected figures on this GPU beside the workbook's;
// `show LAB --solution`: the reference solution, through the gate (run/solution_gate.hpp),
// as a kernel-by-kernel diff against the learner's copy once they have run it.
#include <fmt/format.h>
#include <unistd.h>

#include "cmd/registry.hpp"
#include "diff/piece_diff.hpp"
#include "journal/journal_queries.hpp"
#include "journal/views.hpp"
#include "run/solution_gate.hpp"
#include "util/file_text.hpp"
#include "util/utf8.hpp"
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
  bool solution = false, full = false, yes = false;
  bool author = false;  // list the known mistakes before the learner's copy has passed
};

// Prints a module: its reading (moduleNN/README.md) in full when there is one, else its
// objectives; then its labs. Returns true when the reading was printed to a terminal.
bool show_module(const Module& m, const Style& s, bool json) {
  const std::optional<std::string> reading = read_file_text(m.dir / "README.md");
  if (json) {
    nlohmann::json labs = nlohmann::json::array();
    for (const auto& lab : m.labs) labs.push_back({{"id", lab.id}, {"title", lab.title}, {"goal", lab.goal}});
    print_json({{"module", m.id}, {"title", m.title}, {"objectives", m.objectives}, {"labs", labs},
                {"reading", reading ? nlohmann::json(valid_utf8(*reading)) : nlohmann::json()}});
    return false;
  }
  const std::size_t width = text_width();
  if (reading) {
    fmt::print("{}", *reading);
    if (!reading->empty() && reading->back() != '\n') fmt::print("\n");
  } else {
    fmt::print("{}  {}\n\n{}\n", s.bold(m.id), s.bold(m.title), "After this module you can:");
    for (const auto& o : m.objectives) fmt::print("{}\n", wrap_text(o, width, "  - ", "    "));
  }
  fmt::print("\nLabs:\n");
  for (const auto& lab : m.labs) fmt::print("  {:<28} {}\n", lab.id, lab.title);
  if (m.labs.empty()) fmt::print("  (none yet)\n");
  return reading.has_value() && std::fflush(stdout) == 0 && isatty(STDOUT_FILENO);
}

std::string range_of(const ExpectedRow& r) {
  if (!r.note.empty()) return r.note;
  if (r.lo && r.hi) return fmt::format("{} - {}", format_figure(*r.lo, ""), format_figure(*r.hi, r.unit));
  if (r.lo) return ">= " + format_figure(*r.lo, r.unit);
  if (r.hi) return "<= " + format_figure(*r.hi, r.unit);
  return "-";
}

// The known mistakes are a list of the bugs to avoid: shown once the learner's own copy
// has passed (a pass in the journal), or to an author (--author).
bool mistakes_open(const Workspace& ws, const std::string& lab, bool author) {
  if (author) return true;
  if (!std::filesystem::exists(ws.journal_path())) return false;
  try {
    Journal journal(ws.journal_path());
    for (const auto& r : lab_records(journal))
      if (r.lab == lab && r.passes > 0) return true;
  } catch (const Error&) {  // a journal that cannot be read: as if nothing had passed
  }
  return false;
}

void show_lab(const LabSpec& lab, const DeviceContext& dev, const Style& s, bool json, bool mistakes) {
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
    for (const auto& v : lab.variants)
      if (mistakes) variants.push_back({{"id", v.id}, {"kind", to_string(v.kind)}, {"what", v.what}});
    print_json({{"lab", lab.id}, {"title", lab.title}, {"goal", lab.goal}, {"steps", lab.steps}, {"source", lab.source},
                {"params", params}, {"checks", lab.checks}, {"predictions", preds}, {"device", dev.describe()},
                {"expected", exp}, {"variants", variants}, {"variants_hidden", mistakes ? 0 : lab.variants.size()}});
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
  if (!lab.variants.empty() && !mistakes) {
    fmt::print("\n{}\n", s.dim(fmt::format("This lab is proven to catch {} known mistake(s); they are listed here once your "
                                           "copy has passed (workbook run {}).", lab.variants.size(), lab.id)));
  } else if (!lab.variants.empty()) {
    fmt::print("\nMistakes this lab is proven to catch (wrong: a check fails; slow: a figure falls out of range):\n");
    for (const auto& v : lab.variants) fmt::print("  {:<6} {:<24} {}\n", to_string(v.kind), v.id, s.dim(v.what));
  }
  fmt::print("\nRun it: workbook run {}\n", lab.id);
}

// `--solution`: the reference, whole (before an attempt, with --full, or without a copy to
// compare), or as the difference from the learner's copy, kernel by kernel.
void show_solution(CommandContext& ctx, const LabSpec& lab, const ShowOptions& o) {
  OpenedCourse opened(ctx.global);
  const SolutionGate gate = pass_solution_gate(
      opened.journal, {lab.id, "Show the solution anyway?", "workbook show " + lab.id + " --solution", o.yes,
                        !o.json && interactive_terminal(), opened.catalog.starter_path(lab),
                        opened.workspace.lab_copy(lab)});
  if (!gate.open) {
    fmt::print("Nothing shown. Try your copy first: workbook run {}\n", lab.id);
    return;
  }
  const std::filesystem::path ref_file = opened.catalog.solution_path(lab), mine_file = opened.workspace.lab_copy(lab);
  const std::optional<std::string> ref = read_file_text(ref_file);
  if (!ref) throw UsageError("cannot read the reference solution " + ref_file.string(), "check the content tree (--content)");
  const std::optional<std::string> mine = gate.before_attempt || o.full ? std::nullopt : read_file_text(mine_file);
  record_solution_view(opened.journal, lab.id, mine ? "diff" : "full", gate.before_attempt);
  const Style s = ctx.global.style();
  if (!mine) {
    if (o.json) {
      print_json({{"lab", lab.id}, {"shown", "full"}, {"before_attempt", gate.before_attempt},
                  {"solution", ref_file.string()}, {"text", valid_utf8(*ref)}});
      return;
    }
    const bool no_copy = !gate.before_attempt && !o.full;
    fmt::print("{}\n{}", s.bold("Reference solution: " + ref_file.string()),
               no_copy ? s.dim("(there is no copy of yours at " + mine_file.string() + " to compare with)\n") : "");
    fmt::print("\n{}{}", *ref, !ref->empty() && ref->back() != '\n' ? "\n" : "");
    return;
  }
  const auto pieces = diff::diff_pieces(*mine, *ref, lab.language != LabLanguage::python);
  if (o.json) {
    print_json({{"lab", lab.id}, {"shown", "diff"}, {"before_attempt", false}, {"yours", mine_file.string()},
                {"solution", ref_file.string()}, {"pieces", diff::piece_diffs_json(pieces)}});
    return;
  }
  fmt::print("{}\n{}\n\n", s.bold("Your copy against the reference, " +
                                    std::string(lab.language == LabLanguage::python ? "line by line" : "kernel by kernel")),
             s.dim("--- yours: " + mine_file.string() + "\n+++ reference: " + ref_file.string()));
  diff::print_piece_diffs(pieces, s);
  fmt::print("{}\n", s.dim("The whole reference: workbook show " + lab.id + " --solution --full"));
}

}  // namespace

const char* const kShowExamples = R"(Examples:
  workbook show 14                                  (the module's reading and labs)
  workbook show module14/tiled_gemm --gpu t4
  workbook show module14/tiled_gemm --solution      (after a run of your copy: the difference, kernel by kernel)
  workbook show module14/tiled_gemm --solution --full --yes
The solution is gated: before you have run your copy once, --solution asks first on a
terminal, and elsewhere needs --yes. Every view is recorded in the journal.)";

void setup_show(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("show", "Show a module, or a lab with its expected figures on your GPU");
  auto o = std::make_shared<ShowOptions>();
  cmd->add_option("what", o->what, "A module (module14, 14) or a lab (module14/tiled_gemm)")->required();
  cmd->add_option("--gpu", o->gpu, "Show the expected figures for this spec sheet id (e.g. t4, h100-sxm)");
  cmd->add_flag("--json", o->json, "Print JSON");
  auto* sol = cmd->add_flag("--solution", o->solution,
                            "Show the lab's reference solution: after a run of your copy, the difference kernel by kernel");
  cmd->add_flag("--full", o->full, "With --solution: the whole solution file instead of the difference")->needs(sol);
  cmd->add_flag("-y,--yes", o->yes, "With --solution: do not ask before your first run (needed without a terminal)")
      ->needs(sol);
  cmd->add_flag("--author", o->author, "For content authors: list the lab's known mistakes even before your copy has passed");
  cmd->footer(kShowExamples);
  cmd->callback([&ctx, o] {
    Catalog catalog = ctx.global.catalog();
    LabRef ref = parse_lab_ref_or_throw(o->what);
    Style s = ctx.global.style();
    if (o->solution && ref.name.empty()) throw UsageError("--solution goes with a lab, e.g. module14/tiled_gemm");
    if (o->solution) return show_solution(ctx, catalog.find_lab(ref), *o);
    if (ref.name.empty()) {
      // The reading counts as Read (progress) once it was printed in full to a terminal.
      if (show_module(catalog.load_module(ref.module), s, o->json)) {
        OpenedCourse opened(ctx.global);
        record_reading(opened.journal, ref.module);
      }
    } else {
      LabSpec lab = catalog.find_lab(ref);
      const Workspace ws = ctx.global.open_workspace();
      show_lab(lab, load_device_context(catalog, o->gpu, ws), s, o->json, mistakes_open(ws, lab.id, o->author));
    }
  });
}

}  // namespace workbook
