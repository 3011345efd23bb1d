// The run pipeline (see lab_run.hpp).
#include "run/lab_run.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unistd.h>
#include <algorithm>

#include "build/lab_build.hpp"
#include "build/toolchain.hpp"
#include "build/toolchain_config.hpp"
#include "content/variant.hpp"
#include "grade/decide.hpp"
#include "exec/process.hpp"
#include "run/console_observer.hpp"
#include "run/params.hpp"
#include "ui/wrap.hpp"
#include "profile/gpu_state_store.hpp"
#include "profile/memcheck_pass.hpp"
#include "journal/lab_predictions.hpp"
#include "run/lab_calibration.hpp"
#include "run/predictions.hpp"
#include "run/slurm_journal.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/seed.hpp"

namespace workbook {
namespace fs = std::filesystem;

const char* to_string(LabVariant v) {
  switch (v) {
    case LabVariant::starter: return "starter";
    case LabVariant::solution: return "solution";
    case LabVariant::file: return "file";
    case LabVariant::variant: return "variant";
  }
  return "?";
}

namespace {

std::string format_param(double v) { return fmt::format("{:.17g}", v); }

}  // namespace

GradeBasis grade_basis(const DeviceContext& dev, const LabSpec& lab, const Figures& params, bool quick,
                       bool any_sheet, std::string* set_aside, const GpuClocks* clocks, const std::string& toolkit,
                       const SessionReference* session) {
  GradeBasis basis;
  if (!dev.spec || (!dev.spec_is_local && !any_sheet)) return basis;
  basis.gpu_id = dev.spec->id;
  basis.device_now = dev.figures;
  basis.default_params = !quick && std::all_of(lab.params.begin(), lab.params.end(), [&](const ParamSpec& p) {
    auto it = params.find(p.name);
    return it != params.end() && it->second == p.default_value;
  });
  if (session && !quick) {  // timed just now, in this state: before every other measured band
    basis.measured = &session->figures;
    basis.measured_label = session->label;
    basis.measured_device = dev.figures;
    return basis;
  }
  if (const OwnReference* own = quick ? nullptr : own_reference_for(dev, lab, params, set_aside, clocks, toolkit)) {
    basis.measured = &own->measured;  // this GPU's own references come first
    basis.measured_label = own->label;
    basis.measured_device = Figures(own->measured.basis.begin(), own->measured.basis.end());
    return basis;
  }
  if (const MeasuredLab* m = find_measured(dev.measured_refs, dev.spec->id, lab.id, &basis.measured_label)) {
    const bool same = !quick && std::all_of(m->params.begin(), m->params.end(), [&](const auto& kv) {
      auto it = params.find(kv.first);
      return it != params.end() && it->second == kv.second;
    });
    if (same) {
      basis.measured = m;
      // What an uncalibrated workspace grades on (the sheet and the nominal figures), with
      // the values the measured file says its runs were graded on over them.
      basis.measured_device = dev.spec->figures;
      for (const auto& [k, v] : nominal_measured_figures(*dev.spec)) basis.measured_device[k] = v;
      for (const auto& [k, v] : m->basis) basis.measured_device[k] = v;
    }
  }
  return basis;
}

namespace {

fs::path choose_source(const RunContext& ctx, const LabSpec& lab, const RunRequest& req) {
  switch (req.variant) {
    case LabVariant::solution: return ctx.catalog.solution_path(lab);
    case LabVariant::file: {
      std::error_code ec;
      if (fs::is_directory(req.file, ec)) {
        throw UsageError(fmt::format("--file {}: is a directory, not a source file", req.file.string()),
                         "name the lab's source file itself, e.g. --file labs/module14/tiled_gemm.cu");
      }
      if (!fs::is_regular_file(req.file, ec)) {
        throw UsageError(fmt::format("--file {}: no such file", req.file.string()));
      }
      return fs::absolute(req.file).lexically_normal();
    }
    case LabVariant::variant: {
      const VariantSpec& v = find_variant(lab, req.variant_id);
      return write_variant_source(lab, v, ctx.catalog.solution_path(lab), ctx.workspace.state_dir() / "variants" / lab.id);
    }
    case LabVariant::starter: break;
  }
  ctx.workspace.ensure_common(ctx.catalog);  // so the header's nvcc line works in the workspace
  if (ctx.workspace.ensure_lab_copy(ctx.catalog, lab)) ctx.observer->starter_copied(ctx.workspace.lab_copy(lab));
  return ctx.workspace.lab_copy(lab);
}

}  // namespace

namespace {

// The pipeline's steps: each fills its part of the report (and the journal); run_lab
// calls them in order and stops where one says so.

// Step 0, before anything is recorded: the lab, its parameters, the source, the device,
// the architecture and the seed. Bad requests and content throw here.
struct Prepared {
  std::optional<Toolchain> nvcc;  // CUDA labs only
  DeviceContext dev;
  double timeout_s = 0;
  std::vector<RecordedPrediction> predictions;  // given with --predict
  ProfilePlan profile;                          // --trace / --ncu / --sanitize
};

Prepared prepare(const RunContext& ctx, const RunRequest& req, RunReport& report) {
  LabRef ref = parse_lab_ref_or_throw(req.lab);
  if (ref.name.empty()) {
    throw UsageError(fmt::format("'{}' names a module; run one of its labs", req.lab), "`workbook show " + req.lab + "` lists them");
  }
  Prepared p;
  const LabSpec& whole = ctx.catalog.find_lab(ref);
  report.lab = profile_view(whole, req.profile.tool);  // a profiler's figures only under it
  const LabSpec& lab = report.lab;
  report.variant = req.variant;
  report.params = resolve_params(lab, req.params, req.quick);
  p.predictions = predictions_from_flags(lab, req.predict, &whole);
  if (lab.language == LabLanguage::cuda && !req.builds_elsewhere) {  // a Slurm job builds on its node
    p.nvcc = find_toolchain(ctx.workspace.root());  // with <workspace>/toolchain.yaml
    if (!p.nvcc) {
      throw UsageError("nvcc (the CUDA compiler) was not found",
                       "install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), put its bin/ on "
                       "PATH, or set WORKBOOK_NVCC to the nvcc to use");
    }
  }
  if (req.builds_elsewhere) p.profile.request = req.profile;  // the Slurm node looks for the tool
  else p.profile = plan_profile(req.profile, lab, p.nvcc ? p.nvcc->nvcc.parent_path().parent_path() : fs::path());
  p.timeout_s = req.timeout_s.value_or(std::min(86400.0, lab.timeout_s * p.profile.timeout_factor));
  if (p.timeout_s <= 0) throw UsageError("--timeout must be positive");
  ctx.workspace.ensure();
  report.source = choose_source(ctx, lab, req);
  p.dev = load_device_context(ctx.catalog, req.gpu, req.ignore_calibration ? nullptr : &ctx.journal);
  report.device = p.dev.describe();
  report.figures_source = p.dev.figures_source;
  report.device_figures = p.dev.figures;
  report.calibrated = !p.dev.measured.empty();
  report.arch = arch_for_gpu(req.arch, p.dev.gpu ? p.dev.gpu->compute_cap : "");
  report.seed = req.seed ? *req.seed : new_seed();
  return p;
}

// Step 1, before the run is opened: the lab's standing predictions (its first of each id,
// journal/lab_predictions.hpp) are shown, not asked again (unless --repredict); the others
// are asked. A Ctrl-C at a prompt leaves no run and no prediction behind.
std::vector<RecordedPrediction> collect_predictions(const RunContext& ctx, const RunRequest& req, const Prepared& p,
                                                    const LabSpec& lab, const std::vector<LabPrediction>& standing,
                                                    bool seen) {
  for (const auto& s : standing) ctx.observer->notice(standing_line(lab, s));
  std::vector<RecordedPrediction> known = p.predictions;  // --predict
  if (!req.repredict) {
    for (const auto& s : standing) {
      if (std::none_of(known.begin(), known.end(), [&](const RecordedPrediction& r) { return r.id == s.answer.id; }))
        known.push_back(s.answer);
    }
  }
  const std::size_t before = known.size();
  if (!req.no_predict && req.interactive && known.size() < lab.predictions.size()) {
    if (req.repredict && !standing.empty())
      ctx.observer->notice("--repredict: your first predictions stay the scored ones; the answers you give now are kept beside them");
    else if (seen) ctx.observer->notice("A figure of this lab has been measured already: these predictions are recorded as made after it");
  }
  if (!req.no_predict) ctx.observer->ask_predictions(lab, known, [](const RecordedPrediction&) {});
  std::vector<RecordedPrediction> given = p.predictions;
  given.insert(given.end(), known.begin() + static_cast<std::ptrdiff_t>(before), known.end());
  return given;
}

// Step 1: the run is opened in the journal and the predictions given are written, all
// before the build. An answer for an id the lab has predicted before is kept as a later
// one (not scored); the lab's scored predictions are graded with this run.
void predict(const RunContext& ctx, const RunRequest& req, Prepared& p, RunReport& report) {
  const LabSpec& lab = report.lab;
  const bool seen = measurement_seen(ctx.journal, lab.id);
  const std::vector<LabPrediction> standing = standing_predictions(lab, first_predictions(ctx.journal, lab.id));
  const std::vector<RecordedPrediction> given = collect_predictions(ctx, req, p, lab, standing, seen);
  nlohmann::json params_json = nlohmann::json::object();
  for (const auto& [k, v] : report.params) params_json[k] = v;
  report.run_id = ctx.journal.begin_run({lab.id, to_string(req.variant), report.source.string(), params_json.dump(),
                                         report.seed, p.dev.gpu ? p.dev.gpu->name : "", report.arch});
  for (const auto& s : standing) {
    report.predictions.push_back(s.answer);
    report.prediction_uids[s.answer.id] = s.uid;
  }
  for (const auto& r : given) {
    const std::string uid = ctx.journal.record_prediction(report.run_id, lab.id, r, seen);
    if (report.prediction_uids.count(r.id)) {
      report.later_predictions.push_back(r);
      ctx.observer->notice(fmt::format("{} = {}: kept as a later answer{}; your first stays the scored one", r.id, r.text,
                                       seen ? ", made after a measurement was seen" : ""));
    } else {
      report.predictions.push_back(r);
      report.prediction_uids[r.id] = uid;
    }
  }
}

// Step 1, on a Slurm compute node: the run opened on the login node, with the predictions
// recorded there (run/slurm_submit.hpp); the lab's scored ones are graded.
void resume(const RunContext& ctx, const RunRequest& req, RunReport& report) {
  report.run_id = req.continue_run_id;
  record_run_arch(ctx.journal, report.run_id, report.arch);  // while the run is open (an ended one is kept)
  for (const auto& s : standing_predictions(report.lab, first_predictions(ctx.journal, report.lab.id))) {
    report.predictions.push_back(s.answer);
    report.prediction_uids[s.answer.id] = s.uid;
  }
}

// The decider's answer (grade/decide.hpp) in the report.
void take_decision(const Decision& d, RunReport& report) {
  report.grade.verdict = d.verdict;
  report.grade.verdict_reason = d.reason;
  report.next_step = d.next_step;
}

// Step 2: the build (content-hash cached). Returns the result when there is something to
// run; otherwise the report holds the compile error.
std::optional<BuildResult> build(const RunContext& ctx, const Prepared& p, RunReport& report) {
  const LabSpec& lab = report.lab;
  BuildRequest request = lab_build_request(ctx, lab, report.source, report.arch);
  request.flags.insert(request.flags.end(), p.profile.build_flags.begin(), p.profile.build_flags.end());
  ctx.observer->building(request.display_name, lab.language == LabLanguage::cuda     ? "for " + report.arch
                                               : lab.language == LabLanguage::python ? std::string("(Python: syntax check)")
                                                                                     : std::string("(host C++)"));
  BuildResult built = build_lab(request, p.nvcc ? &*p.nvcc : nullptr);
  report.build_cached = built.cached;
  report.build_command = built.command;
  report.build_diagnostics = built.diagnostics;
  report.built = built.ok;
  ctx.journal.record_build(report.run_id, built.key, built.cached, built.ok);
  RunFacts facts;
  facts.lab_id = lab.id;
  if (built.interrupted) {
    facts.interrupted = "interrupted during the build";
    ctx.journal.end_run(report.run_id, facts, -1);
    throw Error(Exit::interrupted, "interrupted during the build; your predictions are kept in the journal");
  }
  if (built.ok) return built;
  facts.build_failed = BuildFailure{request.display_name, report.build_diagnostics, "", ""};
  if (built.toolchain_problem) {  // the machine's compiler pair, not the lab (build/toolchain_problem.hpp)
    facts.build_failed->toolchain_reason = built.toolchain_problem->reason;
    facts.build_failed->toolchain_next_step = built.toolchain_problem->next_step;
  }
  report.compile_error_kind = built.toolchain_problem ? built.toolchain_problem->kind : "source";
  take_decision(ctx.journal.end_run(report.run_id, facts, -1), report);  // its detail: the compiler's output
  return std::nullopt;
}

// What the report's machine line needs beyond the clocks: the driver and its CUDA
// version (from the clock query), the toolkit that built the lab, the power source.
MachineState machine_of(const std::optional<GpuClocks>& clocks, const std::optional<Toolchain>& nvcc) {
  MachineState m;
  if (clocks) {
    m.driver = clocks->driver;
    m.cuda_driver = clocks->cuda_version;
  }
  if (nvcc) m.toolkit = nvcc->release.empty() ? nvcc->version : nvcc->release;
  m.power_source = read_power_source();
  return m;
}

// Step 3b, for a lab with `memcheck: quick`: the same binary again at its quick size
// under compute-sanitizer's memcheck; its check joins the run's results (when it runs:
// memcheck_pass_wanted).
void memcheck_pass(const RunContext& ctx, const RunRequest& req, const Prepared& p, const BuildResult& built,
                   const ProcessOptions& graded, const ProcessResult& pr, const RunReport& report, LabResults& results) {
  const LabSpec& lab = report.lab;
  if (!memcheck_pass_wanted(lab, req.memcheck, p.profile.request.tool, pr)) return;
  const auto sanitizer = find_compute_sanitizer(p.nvcc ? p.nvcc->nvcc.parent_path().parent_path() : fs::path());
  if (!sanitizer) {
    ctx.observer->notice("memcheck_quick was NOT checked: compute-sanitizer was not found (see the check's line)");
    results.checks.push_back(memcheck_missing_check());
    return;
  }
  ctx.observer->notice("Memcheck: the lab again at its quick size under compute-sanitizer (its manifest asks for it)");
  MemcheckPass pass;
  pass.sanitizer = *sanitizer;
  pass.program = built.interpreter;
  pass.program.push_back(built.binary.string());
  pass.seed = report.seed;
  pass.log_file = ctx.workspace.runs_dir() / fmt::format("run-{}.memcheck.sanitizer.txt", report.run_id);
  pass.results_file = ctx.workspace.runs_dir() / fmt::format("run-{}.memcheck.jsonl", report.run_id);
  for (const auto& kv : graded.env)
    if (kv.first != "WORKBOOK_RESULTS") pass.env.push_back(kv);
  pass.timeout_s = std::min(86400.0, lab.timeout_s * 20);
  results.checks.push_back(run_memcheck_pass(pass));
}

// Step 3: the lab runs with a time limit; its results file is read back.
ProcessResult execute(const RunContext& ctx, const RunRequest& req, const Prepared& p, const BuildResult& built,
                      RunReport& report, LabResults& results) {
  const LabSpec& lab = report.lab;
  report.results_file = ctx.workspace.runs_dir() / fmt::format("run-{}.jsonl", report.run_id);
  fs::remove(report.results_file);
  ProcessOptions proc;
  proc.argv = built.interpreter;
  proc.argv.insert(proc.argv.end(), {built.binary.string(), fmt::format("seed={}", report.seed),
                                     fmt::format("quick={}", req.quick ? 1 : 0)});
  for (const auto& [k, v] : report.params) proc.argv.push_back(k + "=" + format_param(v));
  proc.env = {{"WORKBOOK_RESULTS", report.results_file.string()}};
  if (lab.language == LabLanguage::python) {  // the harness module (wb.py) sits in labs/common
    proc.env.push_back({"PYTHONPATH", ctx.catalog.common_dir().string()});
    proc.env.push_back({"PYTHONDONTWRITEBYTECODE", "1"});  // no __pycache__ in the content
    proc.env.push_back({"PYTHONUNBUFFERED", "1"});         // its lines in order with ours
  }
  if (p.nvcc) {
    const fs::path cupti = cupti_library(*p.nvcc);
    if (!cupti.empty()) proc.env.push_back({"WB_CUPTI_LIB", cupti.string()});
  }
  proc.timeout_s = p.timeout_s;
  proc.echo = ctx.observer->echoes_output();
  // The lab's lines are shown on this terminal through a pipe: its harness folds them to
  // the terminal's width (labs/common/wb_host.hpp); in a log they stay one line each.
  if (proc.echo && isatty(STDOUT_FILENO)) proc.env.push_back({"WB_COLUMNS", std::to_string(text_width())});
  const fs::path profile_output = profile_output_file(ctx.workspace.runs_dir(), report.run_id, p.profile);
  wrap_command(p.profile, profile_output, proc);
  if (p.dev.gpu) report.profile.clocks_before = query_gpu_clocks();
  ctx.observer->running(p.timeout_s);
  ProcessResult pr = run_process(proc);
  if (p.dev.gpu) {
    report.profile.clocks_after = query_gpu_clocks();
    report.profile.machine = machine_of(report.profile.clocks_before, p.nvcc);
  }
  report.ran = true;
  report.out = pr.out;
  report.err = pr.err;
  report.wall_s = pr.wall_s;
  report.process_summary = describe(pr);
  results = read_results_file(report.results_file, report.seed);
  collect_profile(p.profile, profile_output, report.lab, pr, report.profile, results);
  memcheck_pass(ctx, req, p, built, proc, pr, report, results);
  ctx.workspace.prune_runs();  // runs/ keeps the newest results files only
  report.errors = results.errors;
  report.protocol_problems = results.protocol_problems;
  return pr;
}

// Step 4: the verdict and the figures, recorded in the journal.
void grade_and_record(const RunContext& ctx, const RunRequest& req, const Prepared& p, const ProcessResult& pr,
                      const LabResults& results, RunReport& report) {
  Figures scope_params = report.params;
  for (const auto& [k, v] : results.params) scope_params[k] = v;
  RunOutcome outcome{pr.timed_out, pr.signal == 0 ? pr.exit_code : -1, pr.signal, pr.timeout_s,
                     last_nonblank_line(pr.err.empty() ? pr.out : pr.err)};
  std::string set_aside;  // this GPU's own references, not used in this run's state: said before grading
  const GpuClocks* clocks = report.profile.clocks_after ? &*report.profile.clocks_after : nullptr;
  GradeBasis basis = grade_basis(p.dev, report.lab, report.params, req.quick, false, &set_aside, clocks,
                                 report.profile.machine.toolkit,
                                 req.session_reference ? &*req.session_reference : nullptr);
  if (!set_aside.empty()) ctx.observer->notice(set_aside);
  basis.ranges_not_graded = req.ranges_not_graded;
  report.grade = grade_parts(report.lab, results, p.dev.figures, p.dev.note, scope_params, report.predictions,
                             p.dev.reference ? p.dev.reference->name : "T4", basis);
  RunFacts facts;
  facts.lab_id = report.lab.id;
  if (pr.interrupted) facts.interrupted = report.process_summary;  // Ctrl-C, SIGTERM or SIGHUP: nothing to grade
  facts.process = process_facts(outcome, results, report.lab.timeout_s);
  facts.checks = report.grade.checks;
  facts.metrics = report.grade.metrics;
  facts.profiler = profiler_facts(report.profile);
  facts.on_battery = p.dev.power_source == "battery";
  note_battery(report.grade, p.dev.power_source);  // clocks capped on battery (run/device_context.hpp)
  ctx.journal.record_grade(report.run_id, report.grade, report.prediction_uids);
  record_gpu_state(ctx.journal, report.run_id, report.profile);
  take_decision(ctx.journal.end_run(report.run_id, facts, pr.exit_code), report);
}

}  // namespace

RunReport run_lab(const RunContext& outer, const RunRequest& req) {
  // Without an observer from the caller: the console's when the request is verbose.
  RunObserver quiet;
  ConsoleObserver console(outer.style, req.interactive, {outer.workspace.root(), outer.catalog.root()});
  RunContext ctx = outer;
  if (!ctx.observer) ctx.observer = req.verbose ? static_cast<RunObserver*>(&console) : &quiet;
  RunReport report;
  Prepared p = prepare(ctx, req, report);
  // No GPU is said first, before the lab's description and before any prediction is asked.
  if (report.lab.language == LabLanguage::cuda && !p.dev.gpu && !req.builds_elsewhere && req.continue_run_id == 0)
    ctx.observer->notice(no_gpu_notice(report.lab));
  ctx.observer->started(report, p.dev);
  if (req.continue_run_id != 0) {
    resume(ctx, req, report);
  } else {
    predict(ctx, req, p, report);
  }
  if (req.stop_after_predict) return report;
  std::optional<BuildResult> built = build(ctx, p, report);
  if (!built) return report;
  if (report.lab.language == LabLanguage::cuda && !p.dev.gpu) {  // nothing to run a CUDA lab on
    RunFacts facts;
    facts.lab_id = report.lab.id;
    facts.no_gpu = true;
    take_decision(ctx.journal.end_run(report.run_id, facts, -1), report);
    return report;
  }
  LabResults results;
  ProcessResult pr = execute(ctx, req, p, *built, report, results);
  grade_and_record(ctx, req, p, pr, results, report);
  return report;
}

RunReport prepare_run(const RunContext& outer, const RunRequest& req) {
  RunObserver quiet;
  RunContext ctx = outer;
  if (!ctx.observer) ctx.observer = &quiet;
  RunReport report;
  prepare(ctx, req, report);
  return report;
}

BuildRequest lab_build_request(const RunContext& ctx, const LabSpec& lab, const fs::path& source,
                               const std::string& arch) {
  BuildRequest build;
  build.source = source;
  build.display_name = display_path({ctx.workspace.root(), ctx.catalog.root()}, source);
  build.include_dirs = {ctx.catalog.common_dir()};
  build.flags = lab.flags;
  build.libs = lab.libs;
  build.arch = arch;
  build.language = lab.language == LabLanguage::cuda     ? Language::cuda
                   : lab.language == LabLanguage::python ? Language::python
                                                         : Language::host;
  build.cache_dir = ctx.workspace.build_cache();
  return build;
}

int exit_code_for(const RunReport& report) { return static_cast<int>(exit_for(report.grade.verdict)); }

}  // namespace workbook
