// `workbook experiment new|run|show|explain|list`: predict -> measure -> explain for any command
// (experiment/*: the file, the runs, the journal, the summary).
#include <fmt/format.h>
#include <unistd.h>

#include "cmd/registry.hpp"
#include "experiment/experiment_run.hpp"
#include "present/experiment_show.hpp"
#include "experiment/experiment_slurm.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/experiment_summary.hpp"
#include "experiment/experiment_template.hpp"
#include "present/slurm_notices.hpp"
#include "watch/after_run.hpp"
#include "ui/prompt.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook {

namespace {

struct ExperimentOptions {
  ExperimentRequest req;
  bool json = false;
  std::optional<std::string> explain;
  std::optional<double> timeout;
  bool slurm = false;
  ExperimentSlurmOptions slurm_run;
  long long slurm_continue = 0;  // hidden: the batch script's compute-node side
  long long run_id = 0;          // show --run ID
};

void print_summary(Journal& journal, long long run_id, const Output& out) {
  const auto row = load_experiment_run(journal, run_id);
  if (!row) throw Error(Exit::internal, fmt::format("experiment run #{} is not in the journal", run_id));
  const ExperimentSummary s = summarize_experiment(*row);
  print_result(out, s, summary_json,
               [](const ExperimentSummary& x, const Style& st) { fmt::print("{}", experiment_text(x, st, text_width())); });
}

// The run `id` of experiment `name`, or its latest with results when id is 0.
long long experiment_run_of(Journal& journal, const std::string& name, long long id) {
  if (id == 0) {
    const auto latest = latest_experiment_run(journal, name);
    if (!latest) {
      throw UsageError(fmt::format("experiment '{}' has no run with results yet", name),
                       fmt::format("run it: workbook experiment run {}", name));
    }
    return latest->id;
  }
  if (const auto row = load_experiment_run(journal, id); !row || row->experiment != name) {
    throw UsageError(fmt::format("run #{} is not a run of experiment '{}'", id, name),
                     "`workbook experiment list` lists the runs");
  }
  return id;
}

// After the runs: the summary, with the explanation given (--explain) or asked on a
// terminal, as after a lab's run (watch/after_run.hpp).
void explain_and_show(CommandContext& ctx, const ExperimentOptions& o, long long run_id, ExperimentStatus status) {
  const Workspace ws = ctx.global.open_workspace();
  Journal journal(ws.journal_path());
  const bool given = o.explain && !o.explain->empty();
  const AfterRun after{explainable_experiment(run_id, status), given ? o.explain : std::nullopt, o.req.interactive};
  record_given_explanation(journal, after);
  const Output out = ctx.global.output(o.json);
  print_notice(out, [](const Style&) { fmt::print("\n"); });
  print_summary(journal, run_id, out);
  after_run(journal, ctx.global.catalog(), after, out);
  ctx.exit_code = experiment_exit_code(status);
  if (status != ExperimentStatus::done) {  // on stderr, also with --json (whose JSON holds the status)
    const auto row = load_experiment_run(journal, run_id);
    if (row && !row->detail.empty())
      fmt::print(stderr, "{}\n", wrap_text(row->detail, stderr_width(), status == ExperimentStatus::interrupted ? "interrupted: " : "problem: ", "  "));
  }
}

void run_experiment(CommandContext& ctx, ExperimentOptions& o) {
  const Style style = ctx.global.style();
  const Workspace ws = ctx.global.open_workspace();
  ExperimentRequest& req = o.req;
  req.interactive = !o.json && interactive_terminal();
  req.echo = !o.json;
  if (o.timeout) {
    if (!(*o.timeout >= 1 && *o.timeout <= 86400)) throw UsageError("--timeout must be from 1 to 86400 seconds");
    req.timeout_s = o.timeout;
  }
  if (o.slurm_continue != 0) {
    req.interactive = false;
    ctx.exit_code = experiment_exit_code(continue_experiment(ws, style, req, o.slurm_continue));
    return;
  }
  const SlurmFlags& f = o.slurm_run.flags;
  const std::filesystem::path content_root = ctx.global.catalog().root();
  if (o.slurm_run.dry_run) {
    const std::string script = experiment_dry_run_script(ws, content_root, req, f);
    fmt::print(stderr, "Dry run: nothing is submitted; RUN_ID becomes the experiment run's id.\n");
    fmt::print("{}", script);
    return;
  }
  if (o.slurm) {
    ConsoleSlurmObserver observer(ctx.global.output(o.json));
    const long long id = submit_experiment(ws, content_root, style, req, f, observer);
    Journal journal(ws.journal_path());
    const auto row = load_experiment_run(journal, id);
    return explain_and_show(ctx, o, id, row ? experiment_status_named(row->status).value_or(ExperimentStatus::failed)
                                           : ExperimentStatus::failed);
  }
  if (f.partition || f.gres || f.time || f.account)
    throw UsageError("--partition, --gres, --time and --account go with --slurm (or --slurm-dry-run)");
  const Experiment e = prepare_experiment(ws, content_root, req);
  const std::vector<RecordedPrediction> predictions = collect_experiment_predictions(ws, e, req, style);
  ws.ensure();
  long long id = 0;
  ExperimentStatus status = ExperimentStatus::not_run;
  {
    Journal journal(ws.journal_path());
    id = open_experiment_run(journal, e, predictions, req.trace);
    print_notice(ctx.global.output(o.json), [&](const Style& st) {
      fmt::print("{}\n", st.dim(fmt::format("Experiment run #{}: {} variants x {} repeats; predictions recorded.", id,
                                            e.variants.size(), e.repeats)));
    });
    status = measure_experiment(journal, ws, e, id, req, style);
  }
  explain_and_show(ctx, o, id, status);
}

void add_run(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand("run", "Predict, then run each variant, read the metrics and record them");
  auto o = std::make_shared<ExperimentOptions>();
  cmd->add_option("name", o->req.name, "The experiment (experiments/NAME.yaml in the workspace)")->required();
  cmd->add_option("-p,--predict", o->req.predict, "Give a prediction: NAME=VALUE (repeatable)");
  cmd->add_flag("--no-predict", o->req.no_predict, "Record no predictions (needed without a terminal when none is given)");
  cmd->add_flag("--trace", o->req.trace, "Trace every run with CUPTI: a per-kernel table per variant (no change to the program)");
  cmd->add_option("--timeout", o->timeout, "Seconds each run may take (default: the file's timeout_s)");
  cmd->add_option("--explain", o->explain, "Your explanation of the result (instead of the prompt)");
  add_json_flag(cmd, o->json, "one JSON object (the summary) instead of the text");
  auto* slurm = cmd->add_flag("--slurm", o->slurm, "Predict here, then run the variants on a Slurm compute node")->group("Slurm");
  auto* dry = cmd->add_flag("--slurm-dry-run", o->slurm_run.dry_run, "Print the batch script --slurm would submit")->group("Slurm");
  slurm->excludes(dry);
  auto& fl = o->slurm_run.flags;
  cmd->add_option("--partition", fl.partition, "Slurm partition (default: slurm.yaml)")->group("Slurm");
  cmd->add_option("--gres", fl.gres, "GPUs to ask for: gpu:1, gpu:1g.10gb:1 (default: slurm.yaml, else gpu:1)")->group("Slurm");
  cmd->add_option("--time", fl.time, "Job time limit: minutes or H:M:S (default: slurm.yaml)")->group("Slurm");
  cmd->add_option("--account", fl.account, "Slurm account to charge (default: slurm.yaml)")->group("Slurm");
  cmd->add_option("--slurm-continue", o->slurm_continue)->group("");
  cmd->footer(R"(Examples:
  workbook experiment run llm_bf16                       (asks the predictions on a terminal)
  workbook experiment run llm_bf16 -p speedup=1.8 -p val_loss_change=0.01 -p bound=2
  workbook experiment run llm_bf16 --no-predict --json --timeout 300
  workbook experiment run llm_bf16 --trace
  workbook experiment run llm_bf16 --slurm --gres gpu:1 --time 30
Predictions are recorded before anything runs and never change. Exit codes: 0 done, 2 a pattern matched nothing (or a command could not start), 4 a variant failed, crashed or timed out, 130 Ctrl-C (the runs so far are kept).)");
  cmd->callback([&ctx, o] { run_experiment(ctx, *o); });
}

void add_new(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand("new", "Write a commented experiment file to start from (the llm.c FP32 vs BF16 example)");
  auto name = std::make_shared<std::string>();
  cmd->add_option("name", *name, "The experiment's name, e.g. llm_bf16")->required();
  cmd->footer("Example:\n  workbook experiment new llm_bf16   then edit experiments/llm_bf16.yaml");
  cmd->callback([&ctx, name] {
    const Workspace ws = ctx.global.open_workspace();
    const auto file = experiment_path(ws, *name);
    write_experiment_template(file, file.stem().string());
    fmt::print("Wrote {}\nEdit its commands, then: workbook experiment run {}\n", file.string(), file.stem().string());
    ctx.exit_code = 0;
  });
}

void add_show(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand("show", "The latest run of an experiment: variants side by side, predictions, explanation");
  auto o = std::make_shared<ExperimentOptions>();
  cmd->add_option("name", o->req.name, "The experiment")->required();
  cmd->add_option("--run", o->run_id, "Show this run (an id from `experiment list`) instead of the latest");
  add_json_flag(cmd, o->json);
  cmd->footer("Examples:\n  workbook experiment show llm_bf16\n  workbook experiment show llm_bf16 --run 3 --json");
  cmd->callback([&ctx, o] {
    const Workspace ws = ctx.global.open_workspace();
    Journal journal(ws.journal_path());
    print_summary(journal, experiment_run_of(journal, o->req.name, o->run_id), ctx.global.output(o->json));
    ctx.exit_code = 0;
  });
}

void explain_run(CommandContext& ctx, const ExperimentOptions& o, std::string text) {
  const Workspace ws = ctx.global.open_workspace();
  Journal journal(ws.journal_path());
  const long long id = experiment_run_of(journal, o.req.name, o.run_id);
  const Style style = ctx.global.style();
  if (trim(text).empty() && !o.json && interactive_terminal()) {
    fmt::print("{}\n", style.bold(wrap_text(fmt::format("Explain run #{} of {} with a model (roofline, occupancy, "
                                                        "Amdahl)", id, o.req.name), text_width())));
    text = ask_line("> ").value_or("");
  }
  if (trim(text).empty()) {
    throw UsageError("no explanation given",
                     fmt::format("give it as an argument: workbook experiment explain {} \"...\"", o.req.name));
  }
  record_experiment_explanation(journal, id, text);
  print_result(ctx.global.output(o.json), nlohmann::json{{"run_id", id}, {"experiment", o.req.name}, {"text", text}},
               [](const nlohmann::json& j) { return j; },
               [&](const nlohmann::json&, const Style& st) {
                 fmt::print("{}\n", st.dim(fmt::format("Kept with experiment run #{}; the run itself is unchanged "
                                                       "(its figures: workbook experiment show {} --run {}).",
                                                       id, o.req.name, id)));
               });
  ctx.exit_code = 0;
}

void add_explain(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand("explain", "Add an explanation to a run that has ended (the run is not changed)");
  auto o = std::make_shared<ExperimentOptions>();
  auto text = std::make_shared<std::string>();
  cmd->add_option("name", o->req.name, "The experiment")->required();
  cmd->add_option("text", *text, "Your explanation (asked on a terminal when not given)");
  cmd->add_option("--run", o->run_id, "The run it explains (an id from `experiment list`; default: the latest)");
  add_json_flag(cmd, o->json);
  cmd->footer("Examples:\n  workbook experiment explain llm_bf16 \"BF16 halves the bytes moved ...\"\n"
              "  workbook experiment explain llm_bf16 --run 3 \"...\"\n"
              "Each explanation is a new record kept with its run and shown with that run's figures.");
  cmd->callback([&ctx, o, text] { explain_run(ctx, *o, *text); });
}

void add_list(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand("list", "The experiment files in the workspace and their runs");
  auto json = std::make_shared<bool>(false);
  add_json_flag(cmd, *json);
  cmd->callback([&ctx, json] {
    const Workspace ws = ctx.global.open_workspace();
    ExperimentList list{(ws.root() / "experiments").string(), {}, {}};
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(ws.root() / "experiments", ec))
      if (f.path().extension() == ".yaml") list.files.push_back(f.path().stem().string());
    std::sort(list.files.begin(), list.files.end());
    if (std::filesystem::exists(ws.journal_path(), ec)) {
      Journal journal(ws.journal_path());
      list.runs = experiment_runs(journal, "", 200);
    }
    print_result(ctx.global.output(*json), list, experiment_list_json,
                 [](const ExperimentList& l, const Style& s) { fmt::print("{}", experiment_list_text(l, s)); });
    ctx.exit_code = 0;
  });
}

}  // namespace

void setup_experiment(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("experiment", "Predict, measure and explain any command: variants side by side (llm.c)");
  cmd->require_subcommand(1);
  cmd->footer(R"(Examples:
  workbook experiment new llm_bf16
  workbook experiment run llm_bf16
  workbook experiment show llm_bf16
  workbook experiment explain llm_bf16 "..."
  workbook experiment list
An experiment is experiments/NAME.yaml in the workspace (docs/experiment.md).)");
  add_new(cmd, ctx);
  add_run(cmd, ctx);
  add_show(cmd, ctx);
  add_explain(cmd, ctx);
  add_list(cmd, ctx);
}

}  // namespace workbook
