// `workbook show <module|lab> [--json]`: a module's reading and labs, or a lab's goal,
// steps, parameters, predictions, and its expected figures on this GPU beside the workbook's;
// `show LAB --solution`: the reference solution, through the gate (run/solution_gate.hpp),
// as a kernel-by-kernel diff against the learner's copy once they have run it.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "cmd/registry.hpp"
#include "diff/piece_diff.hpp"
#include "journal/journal_queries.hpp"
#include "journal/views.hpp"
#include "present/lab_page.hpp"
#include "present/module_page.hpp"
#include "present/solution_view.hpp"
#include "run/device_context.hpp"
#include "run/expected_table.hpp"
#include "run/lab_run.hpp"
#include "run/solution_gate.hpp"
#include "ui/pager.hpp"
#include "ui/wrap.hpp"
#include "util/file_text.hpp"

namespace workbook {

namespace {

struct ShowOptions {
  std::string what;
  bool json = false;
  std::optional<std::string> gpu;
  bool solution = false, full = false, yes = false, no_pager = false;
  bool author = false;  // list the known mistakes before the learner's copy has passed
};

// Shows a module (through the pager on a terminal). Returns true when the reading was
// shown in full to a terminal: printed to one, or handed whole to the pager.
bool show_module(const Module& m, const Output& out, bool no_pager) {
  const ModulePage page{m, read_file_text(m.dir / "README.md")};
  bool in_full = false;
  print_result(out, page, module_page_json, [&](const ModulePage& p, const Style& s) {
    const Shown shown = show_text(module_page_text(p, s, text_width()), pager_for_stdout(no_pager));
    in_full = p.reading.has_value() && shown_in_full(shown, std::ferror(stdout) == 0 && isatty(STDOUT_FILENO));
  });
  return in_full;
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

void show_lab(const LabSpec& lab, const DeviceContext& dev, const Output& out, bool no_pager, bool mistakes) {
  Figures defaults;
  for (const auto& p : lab.params) defaults[p.name] = p.default_value;
  const LabPage page{lab, expected_rows(lab, dev.figures, dev.reference ? dev.reference->name : "T4",
                                        grade_basis(dev, lab, defaults, false, true)),
                     dev, mistakes};
  print_result(out, page, lab_page_json, [no_pager](const LabPage& p, const Style& s) {
    show_text(lab_page_text(p, s, text_width()), pager_for_stdout(no_pager));
  });
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
    SolutionShown shut{lab.id};
    shut.gated = true;
    return print_result(ctx.global.output(o.json), shut, solution_json, print_solution);
  }
  const std::filesystem::path ref_file = opened.catalog.solution_path(lab), mine_file = opened.workspace.lab_copy(lab);
  const std::optional<std::string> ref = read_file_text(ref_file);
  if (!ref) throw UsageError("cannot read the reference solution " + ref_file.string(), "check the content tree (--content)");
  std::optional<std::string> mine;
  if (!gate.before_attempt && !o.full) {
    FileText read = read_regular_file(mine_file, kMostLabBytes);
    if (!read.text && !read.missing) {
      throw UsageError(fmt::format("cannot read your copy {}: it {}", mine_file.string(), read.problem),
                       fmt::format("move it out of the way (mv {0} {0}.old) and `workbook reset {1}` writes the "
                                   "starter again; --full shows the solution without your copy",
                                   mine_file.string(), lab.id));
    }
    mine = std::move(read.text);
  }
  record_solution_view(opened.journal, lab.id, mine ? "diff" : "full", gate.before_attempt);
  SolutionShown view{lab.id, false, gate.before_attempt, ref_file.string(), *ref};
  if (mine) {
    view.yours_path = mine_file.string();
    view.by_line = lab.language == LabLanguage::python;
    view.pieces = diff::diff_pieces(*mine, *ref, !view.by_line);
  } else if (!gate.before_attempt && !o.full) {
    view.absent_copy = mine_file.string();
  }
  print_result(ctx.global.output(o.json), view, solution_json, print_solution);
}

}  // namespace

const char* const kShowExamples = R"(Examples:
  workbook show 14                                  (the module's reading and labs, paged on a terminal)
  workbook show 14 --no-pager                       (printed straight out; also PAGER=cat or WORKBOOK_PAGER=)
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
  add_json_flag(cmd, o->json);
  cmd->add_flag("--no-pager", o->no_pager, "Print straight to the terminal, not through $PAGER (less -FRX)");
  auto* sol = cmd->add_flag("--solution", o->solution,
                            "Show the lab's reference solution: after a run of your copy, the difference kernel by kernel");
  cmd->add_flag("--full", o->full, "With --solution: the whole solution file instead of the difference")->needs(sol);
  cmd->add_flag("-y,--yes", o->yes, "With --solution: do not ask before your first run (needed without a terminal)")
      ->needs(sol);
  cmd->add_flag("--author", o->author, "For content authors: list the lab's known mistakes even before your copy has passed");
  cmd->footer(kShowExamples);
  cmd->callback([&ctx, o] {
    const Catalog& catalog = ctx.global.catalog();
    LabRef ref = parse_lab_ref_or_throw(o->what);
    if (o->solution && ref.name.empty()) throw UsageError("--solution goes with a lab, e.g. module14/tiled_gemm");
    if (o->solution) return show_solution(ctx, catalog.find_lab(ref), *o);
    if (ref.name.empty()) {
      // The reading counts as Read (progress) once it was shown in full on a terminal.
      if (show_module(catalog.load_module(ref.module), ctx.global.output(o->json), o->no_pager)) {
        OpenedCourse opened(ctx.global);
        record_reading(opened.journal, ref.module);
      }
    } else {
      const LabSpec& lab = catalog.find_lab(ref);
      const Workspace ws = ctx.global.open_workspace();
      show_lab(lab, load_device_context(catalog, o->gpu, ws), ctx.global.output(o->json), o->no_pager,
               mistakes_open(ws, lab.id, o->author));
    }
  });
}

}  // namespace workbook
