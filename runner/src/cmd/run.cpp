// `workbook run <lab>`: predict, build, run, grade and record one lab.
#include <fmt/format.h>
#include <unistd.h>

#include "cmd/registry.hpp"
#include "exec/process.hpp"
#include "journal/journal.hpp"
#include "journal/views.hpp"
#include "content/variant.hpp"
#include "run/compare.hpp"
#include "run/explained.hpp"
#include "run/lab_run.hpp"
#include "profile/profile_run.hpp"
#include "run/params.hpp"
#include "present/compare_report.hpp"
#include "present/run_report.hpp"
#include "present/slurm_notices.hpp"
#include "present/sweep_report.hpp"
#include "run/sweep.hpp"
#include "run/slurm_submit.hpp"
#include "run/solution_gate.hpp"
#include "watch/after_run.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

struct RunOptions {
  RunRequest req;
  bool solution = false;
  bool yes = false;  // --yes: run the solution before any run of your copy without asking
  std::string file;
  std::string variant;
  bool json = false;
  std::optional<std::string> explain;
  std::optional<std::string> seed, timeout;  // checked by parse_seed and parse_timeout (run/params.hpp)
  std::string sweep;                         // --sweep NAME=v1,v2,... or NAME (run/sweep.hpp)
  bool compare = false;                      // --compare (run/compare.hpp)
  bool trace = false;                        // --trace
  std::string ncu, sanitize;                 // --ncu [WHAT], --sanitize [TOOL]
  bool slurm = false;                         // --slurm, --slurm-dry-run (run/slurm_submit.hpp)
  SlurmRunOptions slurm_run;
  long long slurm_continue = 0;               // hidden: the batch script's compute-node side
};

// The Slurm options: --slurm submits the run; the compute node's side is hidden.
void add_slurm_options(CLI::App* cmd, RunOptions& o) {
  auto* slurm = cmd->add_flag("--slurm", o.slurm, "Predict here, then build and run on a Slurm compute node (sbatch)")
                    ->group("Slurm");
  auto* dry = cmd->add_flag("--slurm-dry-run", o.slurm_run.dry_run, "Print the batch script --slurm would submit")
                  ->group("Slurm");
  for (auto [name, into, what] : {std::tuple{"--partition", &o.slurm_run.flags.partition, "Slurm partition"},
                                  std::tuple{"--gres", &o.slurm_run.flags.gres, "GPUs to ask for: gpu:1, gpu:1g.10gb:1, none"},
                                  std::tuple{"--time", &o.slurm_run.flags.time, "Job time limit: minutes or H:M:S"},
                                  std::tuple{"--account", &o.slurm_run.flags.account, "Slurm account to charge"}}) {
    cmd->add_option(name, *into, std::string(what) + " (default: slurm.yaml in the workspace)")->group("Slurm");
  }
  cmd->add_option("--slurm-continue", o.slurm_continue)->group("");  // written into the batch script
  slurm->excludes(dry);
}

void print_feedback(const std::string& feedback, const Style& s) { fmt::print("{}", render_feedback(feedback, s)); }

// --sweep and --compare: several runs, one table (and for a sweep, a chart and an SVG).
void run_several(CommandContext& ctx, const RunOptions& o, const RunRequest& req) {
  const Style style = ctx.global.style();
  const Output out = ctx.global.output(o.json);
  OpenedCourse opened(ctx.global);
  const RunContext rc{opened.catalog, opened.workspace, opened.journal, style};
  if (!o.sweep.empty()) {
    SweepResult r = run_sweep(rc, req, o.sweep, [&](const std::string& step) {
      print_notice(out, [&](const Style& s) {
        if (isatty(STDOUT_FILENO)) fmt::print("{}\n", s.dim("sweep " + step + " ..."));
      });
      std::fflush(stdout);
    });
    const AfterRun after = lab_after_run(explained_point(r), o.explain, req.interactive);
    const std::string feedback = record_given_explanation(opened.journal, after);
    print_result(out, r, sweep_json, [&](const SweepResult& x, const Style& st) {
      print_sweep(x, st);
      print_feedback(feedback, st);
    });
    ctx.exit_code = exit_code_for(r);
    after_run(opened.journal, opened.catalog, after, out);
    return;
  }
  CompareResult r = run_compare(rc, req);
  const AfterRun after = lab_after_run(&r.mine, o.explain, req.interactive);
  const std::string feedback = record_given_explanation(opened.journal, after);
  print_result(out, r, compare_json, [&](const CompareResult& x, const Style& st) {
    print_compare(x, st);
    print_feedback(feedback, st);
  });
  ctx.exit_code = exit_code_for(r);
  after_run(opened.journal, opened.catalog, after, out);
}

// --predict, --no-predict, --repredict (run/lab_run.hpp: the lab's first predictions stand).
void add_predict_options(CLI::App* cmd, RunOptions& o) {
  cmd->add_option("--predict", o.req.predict, "Give a prediction: ID=VALUE (repeatable)");
  auto* no_predict = cmd->add_flag("--no-predict", o.req.no_predict,
                                   "Do not ask for predictions (those the lab has stand and are graded)");
  cmd->add_flag("--repredict", o.req.repredict,
                "Ask the lab's predictions again: kept beside your first ones, which stay the scored ones")
      ->excludes(no_predict);
}

// --trace, --ncu [WHAT], --sanitize [TOOL] (profile/profile_run.hpp); one at a time.
void add_profile_options(CLI::App* cmd, RunOptions& o) {
  auto* trace = cmd->add_flag("--trace", o.trace,
                              "Trace kernels, copies, API calls and Unified Memory with CUPTI (no nsys needed)");
  auto* ncu = cmd->add_option("--ncu", o.ncu,
                              "Run under Nsight Compute; optional: sections and/or metrics, comma-separated "
                              "(--ncu=SpeedOfLight,dram__bytes_read.sum)")
                  ->expected(0, 1);
  auto* san = cmd->add_option("--sanitize", o.sanitize,
                              "Run under compute-sanitizer: memcheck (default), racecheck, synccheck or initcheck")
                  ->expected(0, 1);
  trace->excludes(ncu)->excludes(san);
  ncu->excludes(san);
}

ProfileRequest profile_request(const CLI::App& cmd, const RunOptions& o) {
  ProfileRequest r;
  if (o.trace) r.tool = ProfileTool::trace;
  if (cmd.count("--ncu") > 0) r = {ProfileTool::ncu, o.ncu};
  if (cmd.count("--sanitize") > 0) r = {ProfileTool::sanitize, o.sanitize};
  if (r.option == "true") r.option.clear();  // CLI11 gives a value-less optional option the value "true"
  if (r.option.find('/') != std::string::npos) {
    throw UsageError(fmt::format("'{}' looks like a lab, not a profiler option", r.option),
                     "put the lab first: `workbook run module12/coalescing --ncu`, or write --ncu=WHAT");
  }
  return r;
}

// The compute node's side (--slurm-continue): the run, its report into the job's output.
void continue_on_slurm(CommandContext& ctx, RunOptions& o, RunRequest req, const Style& style) {
  req.continue_run_id = o.slurm_continue;
  req.interactive = false;
  OpenedCourse opened(ctx.global);
  const RunReport report = continue_slurm_run({opened.catalog, opened.workspace, opened.journal, style}, req);
  if (req.verbose) print_report(report, style);
  ctx.exit_code = exit_code_for(report);
}

// --slurm and --slurm-dry-run (the login node), --slurm-continue (the compute node); the
// exit code, and the explanation (asked on the login node once the job has ended).
void run_on_slurm(CommandContext& ctx, RunOptions& o, RunRequest req) {
  if (!o.slurm && !o.slurm_run.dry_run && o.slurm_continue == 0) {
    throw UsageError("--partition, --gres, --time and --account go with --slurm (or --slurm-dry-run)");
  }
  const Style style = ctx.global.style();
  if (o.slurm_continue != 0) return continue_on_slurm(ctx, o, req, style);
  o.slurm_run.json = o.json;
  const Workspace workspace = ctx.global.open_workspace();
  if (o.slurm_run.dry_run) {
    const std::string script = slurm_dry_run_script(ctx.global.catalog(), workspace, style, req, o.slurm_run.flags);
    fmt::print(stderr, "Dry run: nothing is submitted; RUN_ID becomes the journal's run id.\n");
    fmt::print("{}", script);
    return;
  }
  const Output out = ctx.global.output(o.json);
  ConsoleSlurmObserver observer(out);
  const SlurmRunEnd outcome = submit_slurm_run(ctx.global.catalog(), workspace, style, req, o.slurm_run, observer);
  print_result(out, outcome, [](const SlurmRunEnd& x) { return x.json; },
               [](const SlurmRunEnd& x, const Style& st) { fmt::print("{}", render_slurm_end(x, st)); });
  ctx.exit_code = exit_code_for(outcome.report);
  // The node has ended the run and closed the journal: the login node opens it again.
  Journal journal(workspace.journal_path());
  const AfterRun after = lab_after_run(&outcome.report, o.explain, req.interactive);
  const std::string feedback = record_given_explanation(journal, after);
  print_notice(out, [&](const Style& st) { print_feedback(feedback, st); });
  after_run(journal, ctx.global.catalog(), after, out);
}

// The gate before the reference solution, or a variant of it (the solution with a line
// changed, written into the workspace), runs (run/solution_gate.hpp); each pass is
// recorded as a view ("run" or "variant"). False when the learner said no on the terminal.
bool open_solution_gate(CommandContext& ctx, const RunOptions& o, const RunRequest& req) {
  OpenedCourse opened(ctx.global);
  const LabSpec& spec = opened.catalog.find_lab(parse_lab_ref_or_throw(req.lab));
  const std::string lab = spec.id;
  const bool variant = !o.variant.empty();
  if (variant) find_variant(spec, o.variant);  // an unknown id is refused before anything is asked
  const SolutionGate gate = pass_solution_gate(
      opened.journal,
      {lab, variant ? "Run a variant of the reference solution anyway?" : "Run the reference solution anyway?",
       "workbook run " + lab + (variant ? " --variant " + o.variant : std::string(" --solution")), o.yes,
       req.interactive, opened.catalog.starter_path(spec), opened.workspace.lab_copy(spec)});
  if (!gate.open) {
    fmt::print("Nothing run. Try your copy first: workbook run {}\n", lab);
    return false;
  }
  record_solution_view(opened.journal, lab, variant ? "variant" : "run", gate.before_attempt);
  return true;
}

// One run of the lab: the report (or its JSON), the explanation with the examiner's
// feedback, the reviews a badly missed prediction nudges; returns the exit code.
int run_one(CommandContext& ctx, const RunOptions& o, const RunRequest& req) {
  Style style = ctx.global.style();
  OpenedCourse opened(ctx.global);
  RunReport report = run_lab({opened.catalog, opened.workspace, opened.journal, style}, req);
  const AfterRun after = lab_after_run(&report, o.explain, req.interactive);
  const std::string feedback = record_given_explanation(opened.journal, after);
  const Output out = ctx.global.output(o.json);
  print_result(out, ExplainedRun{report, o.explain, feedback}, explained_run_json, print_explained_run);
  after_run(opened.journal, opened.catalog, after, out);
  return exit_code_for(report);
}

// --solution and --variant pass the gate (a yes when there is no attempt yet); false
// when the learner said no. --yes alone answers nothing.
bool pass_gate_if_any(CommandContext& ctx, const RunOptions& o, const RunRequest& req) {
  const bool gated = o.solution || !o.variant.empty();
  if (o.yes && !gated) throw UsageError("--yes goes with --solution or --variant", "drop --yes, or add the option it answers for");
  return !gated || open_solution_gate(ctx, o, req);
}

}  // namespace

const char* const kRunExamples = R"(Examples:
  workbook run module14/tiled_gemm
  workbook run module14/tiled_gemm --solution --predict speedup=3 --predict reason=1
  workbook run module14/tiled_gemm --no-predict --json -p N=512 --timeout 30
  workbook run module14/tiled_gemm --variant bank_conflicts --no-predict
  workbook run module14/conv1d --sweep TILE --no-predict          (the lab's declared sweep)
  workbook run module14/tiled_gemm --sweep N=256,512,1024 --json
  workbook run module14/tiled_gemm --compare
  workbook run module16/streams_pipeline --solution --trace
  workbook run module12/coalescing --solution --quick --ncu
  workbook run module13/dot_reduction --solution --quick --sanitize=racecheck
  workbook run module14/tiled_gemm --slurm --partition gpu --gres gpu:1g.10gb:1 --time 20
  workbook run module14/tiled_gemm --repredict                     (answer again, after seeing a result)
Your copy of the starter lives in the workspace (labs/moduleNN/); predictions are
recorded before the build and can never be changed. A lab's first prediction of each
kind is its scored one: later runs show it and do not ask again; --repredict or
--predict then adds a later answer, kept but not scored. Ctrl-C at a prompt runs and
records nothing (exit 130). --solution before your first run of your copy asks first on
a terminal; scripts pass --yes.)";

void setup_run(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("run", "Predict, build, run, grade and record a lab");
  auto o = std::make_shared<RunOptions>();
  cmd->add_option("lab", o->req.lab, "The lab, e.g. module14/tiled_gemm")->required();
  auto* sol = cmd->add_flag("--solution", o->solution, "Run the reference solution instead of your copy");
  cmd->add_flag("-y,--yes", o->yes,
                "With --solution or --variant: do not ask before your first run (needed without a terminal)");
  auto* file = cmd->add_option("--file", o->file, "Run this source file as the lab")->excludes(sol);
  auto* var = cmd->add_option("--variant", o->variant,
                  "Authors: run one of the lab's known-wrong or slow variants of the solution (see `workbook show`)")
      ->excludes(sol)
      ->excludes(file);
  cmd->add_option("-p,--param", o->req.params, "Set a parameter: NAME=VALUE (repeatable)");
  add_predict_options(cmd, *o);
  cmd->add_flag("--quick", o->req.quick, "Use each parameter's quick (small) value");
  cmd->add_option("--timeout", o->timeout, "Time limit in seconds, from 1 to 86400 (default: the lab's, usually 60)");
  cmd->add_option("--arch", o->req.arch, "Compile for this GPU architecture, e.g. sm_90 (default: detected)");
  cmd->add_option("--gpu", o->req.gpu, "Take expected ranges from this spec sheet id (data/gpus.yaml)");
  cmd->add_option("--seed", o->seed, "Seed for the random inputs (default: fresh each run)");
  cmd->add_option("--explain", o->explain, "Your explanation of the main figure (instead of the prompt)");
  auto* sweep = cmd->add_option("--sweep", o->sweep,
                                "Run once per value: NAME=v1,v2,... or NAME for a sweep the lab declares (one build, one seed)");
  cmd->add_flag("--compare", o->compare, "Time the reference solution, then grade your copy against it (one seed): figures side by side")
      ->excludes(sol)->excludes(file)->excludes(var)->excludes(sweep);
  add_json_flag(cmd, o->json, "one JSON object instead of the report");
  add_profile_options(cmd, *o);
  add_slurm_options(cmd, *o);
  cmd->footer(kRunExamples);
  cmd->callback([&ctx, o, cmd] {
    RunRequest req = o->req;
    if (o->solution) req.variant = LabVariant::solution;
    if (!o->file.empty()) {
      req.variant = LabVariant::file;
      req.file = o->file;
    }
    if (!o->variant.empty()) {
      req.variant = LabVariant::variant;
      req.variant_id = o->variant;
    }
    req.profile = profile_request(*cmd, *o);
    if (o->seed) req.seed = parse_seed(*o->seed);
    if (o->timeout) req.timeout_s = parse_timeout(*o->timeout);
    req.interactive = !o->json && interactive_terminal();
    req.verbose = !o->json;
    const SlurmFlags& f = o->slurm_run.flags;
    const bool on_slurm = o->slurm || o->slurm_run.dry_run || o->slurm_continue != 0 || f.partition || f.gres || f.time || f.account;
    // Every path that writes or shows the reference passes the gate, a dry run too (its check
    // of the request writes a variant's source into the workspace); the compute node's side
    // passes none: the login node asked.
    if (o->slurm_continue == 0 && !pass_gate_if_any(ctx, *o, req)) return;
    if (!o->sweep.empty()) refuse_swept_param(o->sweep, req.params);
    if (!o->sweep.empty() || o->compare) {
      if (on_slurm) throw UsageError("--sweep and --compare run on this machine: they do not go with the Slurm options");
      return run_several(ctx, *o, req);
    }
    if (on_slurm) {
      run_on_slurm(ctx, *o, req);
      return;
    }
    ctx.exit_code = run_one(ctx, *o, req);
  });
}

}  // namespace workbook
