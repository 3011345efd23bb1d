// Running an experiment (see experiment_run.hpp).
#include "experiment/experiment_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "build/toolchain_config.hpp"
#include "content/course.hpp"
#include "exec/process.hpp"
#include "experiment/experiment_machine.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/experiment_topics.hpp"
#include "experiment/experiment_trace.hpp"
#include "experiment/metric_reader.hpp"
#include "run/predictions.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"

namespace workbook {
namespace fs = std::filesystem;

fs::path experiment_path(const Workspace& workspace, const std::string& given) {
  std::string name = given;
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0) name.resize(name.size() - 5);
  const bool plain = !name.empty() && name[0] != '.' && name.size() <= 100 &&
                     std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; });
  if (!plain) {
    throw UsageError(fmt::format("'{}' is not an experiment name", given),
                     "use letters, digits, '-' and '_' (e.g. llm_bf16); the file is experiments/NAME.yaml in the workspace");
  }
  return workspace.root() / "experiments" / (name + ".yaml");
}

Experiment load_workspace_experiment(const Workspace& workspace, const std::string& name) {
  const fs::path file = experiment_path(workspace, name);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw UsageError(fmt::format("there is no experiment '{}' ({} does not exist)", name, file.string()),
                     fmt::format("`workbook experiment list` lists them; `workbook experiment new {}` writes one", name));
  }
  return load_experiment(file, "experiments/" + file.filename().string());
}

Experiment prepare_experiment(const Workspace& workspace, const fs::path& content_root, const ExperimentRequest& req) {
  Experiment e = load_workspace_experiment(workspace, req.name);
  if (const auto course = load_course(content_root, workspace.root()); course && !e.topic.empty()) {
    std::vector<std::string> topics;
    for (const auto& t : course->project.topics) topics.push_back(t.topic);
    check_experiment_topic(e.topic, topics, "experiments/" + e.name + ".yaml");
  }
  predictions_from_flags(prediction_lab(e), req.predict);  // a bad -p value is refused here
  return e;
}

namespace {

// The experiment's scored predictions (none when the workspace has no journal yet).
std::vector<LabPrediction> standing_of(const Workspace& workspace, const std::string& name) {
  std::error_code ec;
  if (!fs::exists(workspace.journal_path(), ec)) return {};
  Journal journal(workspace.journal_path());
  return scored_experiment_predictions(journal, name);
}

// Drops from `lab` the predictions that stand, saying so when echoing.
void show_standing(LabSpec& lab, const std::vector<LabPrediction>& standing, const ExperimentRequest& req,
                   const Style& style) {
  for (const auto& s : standing) {
    auto spec = std::find_if(lab.predictions.begin(), lab.predictions.end(),
                             [&](const PredictionSpec& p) { return p.id == s.answer.id; });
    if (spec == lab.predictions.end()) continue;
    if (req.echo) {
      fmt::print("{}\n", style.dim(wrap_text(standing_line(lab, s), text_width(), "", "  ")));
      for (const auto& given : req.predict)
        if (given.rfind(s.answer.id + "=", 0) == 0)
          fmt::print("{}\n", style.dim(wrap_text(given + ": kept as a later answer; your first stays the scored one",
                                                  text_width(), "", "  ")));
    }
    lab.predictions.erase(spec);
  }
}

}  // namespace

std::vector<RecordedPrediction> collect_experiment_predictions(const Workspace& workspace, const Experiment& e,
                                                               const ExperimentRequest& req, const Style& style) {
  const LabSpec whole = prediction_lab(e);
  std::vector<RecordedPrediction> answers = predictions_from_flags(whole, req.predict);
  LabSpec lab = whole;
  show_standing(lab, standing_of(workspace, e.name), req, style);
  std::size_t asked_given = 0;  // answers given for the predictions still asked
  for (const auto& a : answers)
    if (std::any_of(lab.predictions.begin(), lab.predictions.end(), [&](const PredictionSpec& p) { return p.id == a.id; }))
      ++asked_given;
  if (req.no_predict || asked_given >= lab.predictions.size()) return answers;
  if (!req.interactive) {
    std::string missing;
    for (const auto& p : lab.predictions)
      if (std::none_of(answers.begin(), answers.end(), [&](const RecordedPrediction& a) { return a.id == p.id; }))
        missing += fmt::format(" -p {}=VALUE", p.id);
    throw UsageError(fmt::format("experiment '{}' asks for predictions before it runs, and there is no terminal to ask on",
                                 e.name),
                     fmt::format("give them:{} (or run it with --no-predict to record none)", missing));
  }
  ask_missing_predictions(lab, answers, style, [](const RecordedPrediction&) {});
  return answers;
}

long long open_experiment_run(Journal& journal, const Experiment& e, const std::vector<RecordedPrediction>& predictions,
                              bool traced) {
  const bool seen = experiment_measured(journal, e.name);
  const long long id = begin_experiment_run(journal, e, traced);
  for (const auto& p : predictions) record_experiment_prediction(journal, id, e.name, p, seen);
  return id;
}

namespace {

fs::path resolve_cwd(const Workspace& workspace, const std::string& cwd) {
  if (cwd.empty()) return workspace.root();
  if (cwd == "~" || cwd.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    return fs::path(home ? home : "") / (cwd.size() > 2 ? cwd.substr(2) : "");
  }
  const fs::path p(cwd);
  return p.is_absolute() ? p : workspace.root() / p;
}

RepeatOutcome outcome_of(const ProcessResult& pr) {
  if (pr.interrupted) return RepeatOutcome::interrupted;
  if (pr.timed_out) return RepeatOutcome::timeout;
  if (pr.signal != 0) return RepeatOutcome::crashed;
  if (pr.exit_code != 0) return RepeatOutcome::failed;
  return RepeatOutcome::ok;
}

// What the readings leave unsaid: figures past the most kept, lines cut.
std::string unread_note(const MetricReadings& readings, const std::string& metric) {
  std::string note;
  if (auto it = readings.unread.find(metric); it != readings.unread.end() && it->second > 0)
    note += fmt::format("\n    ('{}' matched more than {} times: the last {} values replaced the last one kept, so "
                        "its last value is right but a per-step summary saw only the first {})",
                        metric, kMostValues, it->second, kMostValues);
  return note;
}

// The run's readings (read from the output as it arrived); a metric that matched nothing
// makes the repeat no_metrics.
void read_repeat(const Experiment& e, const ProcessResult& pr, const MetricReadings& readings, RepeatResult& r) {
  r.readings = readings.values;
  for (const auto& m : e.metrics) r.detail += unread_note(readings, m.name);
  if (r.outcome != RepeatOutcome::ok) return;
  const std::string output = pr.out + (pr.out.empty() || pr.out.back() == '\n' ? "" : "\n") + pr.err;
  for (const auto& m : e.metrics) {
    if (!r.readings[m.name].empty()) continue;
    const std::string where = fmt::format("{} (repeat {})", r.variant, r.repeat);
    if (r.outcome == RepeatOutcome::no_metrics) {  // the output's lines are shown once, with the first
      r.detail += fmt::format("\nmetric '{}': the pattern '{}' matched nothing there either", m.name, m.pattern);
      continue;
    }
    r.outcome = RepeatOutcome::no_metrics;
    r.detail += no_match_message(m, where, output);
    if (auto it = readings.not_numbers.find(m.name); it != readings.not_numbers.end() && it->second > 0)
      r.detail += fmt::format("\n    ({} matches captured text that is not a number)", it->second);
    if (readings.cut_lines > 0)
      r.detail += fmt::format("\n    ({} lines were longer than {} KiB and were read only that far)", readings.cut_lines,
                              kLongestLine >> 10);
  }
}

struct RepeatPlan {
  const Experiment& e;
  const ExperimentVariant& v;
  int repeat;
  double timeout_s;
  const TracePlan* trace;  // nullptr: not traced
  fs::path trace_file;
};

RepeatResult run_repeat(const Workspace& workspace, const RepeatPlan& plan, bool echo) {
  RepeatResult r;
  r.variant = plan.v.name;
  r.repeat = plan.repeat;
  ProcessOptions proc;
  proc.argv = plan.v.command;
  proc.cwd = resolve_cwd(workspace, plan.v.cwd);
  proc.env = plan.v.env;
  proc.timeout_s = plan.timeout_s;
  proc.echo = echo;
  if (plan.trace) add_trace_environment(*plan.trace, plan.trace_file, proc);
  // The patterns read the whole output as it arrives, under the time limit and Ctrl-C;
  // only the first megabytes are kept as text (for the message when nothing matched).
  MetricStream out(plan.e.metrics), err(plan.e.metrics);
  proc.on_output = [&](int stream, std::string_view piece) { (stream == 1 ? out : err).feed(piece); };
  const ProcessResult pr = run_process(proc);  // UsageError when it cannot be started
  out.finish();
  err.finish();
  r.outcome = outcome_of(pr);
  r.exit_code = pr.signal == 0 ? std::optional<int>(pr.exit_code) : std::nullopt;
  r.wall_s = pr.wall_s;
  if (r.outcome != RepeatOutcome::ok) r.detail = fmt::format("{} (repeat {}) {}", r.variant, r.repeat, describe(pr));
  read_repeat(plan.e, pr, join_readings(out.readings(), err.readings()), r);
  if (plan.trace) r.kernels = trace_kernels(plan.trace_file);
  return r;
}

ExperimentStatus status_of(const std::vector<RepeatResult>& results, std::string& detail) {
  auto first = [&](std::initializer_list<RepeatOutcome> outcomes) -> const RepeatResult* {
    for (const auto& r : results)
      if (std::find(outcomes.begin(), outcomes.end(), r.outcome) != outcomes.end()) return &r;
    return nullptr;
  };
  if (const auto* r = first({RepeatOutcome::interrupted})) {
    detail = r->detail;
    return ExperimentStatus::interrupted;
  }
  if (const auto* r = first({RepeatOutcome::failed, RepeatOutcome::crashed, RepeatOutcome::timeout})) {
    detail = r->detail;
    return ExperimentStatus::failed;
  }
  if (const auto* r = first({RepeatOutcome::no_metrics})) {
    detail = r->detail;
    return ExperimentStatus::no_metrics;
  }
  detail.clear();
  return ExperimentStatus::done;
}

}  // namespace

ExperimentStatus measure_experiment(Journal& journal, const Workspace& workspace, const Experiment& e, long long run_id,
                               const ExperimentRequest& req, const Style& style, const std::string& gpu_name) {
  const ExperimentMachine machine = query_experiment_machine(workspace.root());
  record_experiment_machine(journal, run_id, gpu_name.empty() ? machine.gpu : gpu_name, machine_to_json(machine.machine));
  std::optional<TracePlan> trace;
  if (req.trace) trace = plan_experiment_trace(workspace.root());
  const double timeout_s = req.timeout_s.value_or(e.timeout_s) * (trace ? trace->timeout_factor : 1.0);
  std::vector<RepeatResult> results;
  std::vector<std::string> stopped;  // variants that failed: not run again
  for (int k = 1; k <= e.repeats; ++k) {
    for (const auto& v : e.variants) {
      if (std::find(stopped.begin(), stopped.end(), v.name) != stopped.end()) continue;
      if (req.echo) fmt::print("{}\n", style.dim(fmt::format("== {} (repeat {} of {}) ==", v.name, k, e.repeats)));
      std::fflush(stdout);
      const fs::path trace_file = workspace.state_dir() / "experiments" / fmt::format("run-{}", run_id) /
                                  fmt::format("{}-{}.trace.jsonl", v.name, k);
      RepeatResult r;
      try {
        r = run_repeat(workspace, {e, v, k, timeout_s, trace ? &*trace : nullptr, trace_file}, req.echo);
      } catch (const Error& err) {
        finish_experiment_run(journal, run_id, ExperimentStatus::not_run, fmt::format("{}: {}", v.name, err.what()));
        throw UsageError(fmt::format("variant {}: {}", v.name, err.what()),
                         err.hint().empty() ? "fix its command or cwd in " + e.name + ".yaml" : err.hint());
      }
      record_repeat(journal, run_id, r);
      results.push_back(r);
      if (r.outcome == RepeatOutcome::interrupted) break;
      if (r.outcome != RepeatOutcome::ok && r.outcome != RepeatOutcome::no_metrics) stopped.push_back(v.name);
    }
    if (!results.empty() && results.back().outcome == RepeatOutcome::interrupted) break;
  }
  // Read again just after the last repeat, while the clocks are still up: before the first
  // one an idle GPU reports its idle clock (345 MHz on the H200), which no repeat ran at.
  if (!results.empty()) {
    const ExperimentMachine after = query_experiment_machine(workspace.root());
    record_experiment_machine(journal, run_id, gpu_name.empty() ? after.gpu : gpu_name, machine_to_json(after.machine));
  }
  std::string detail;
  const ExperimentStatus status = status_of(results, detail);
  finish_experiment_run(journal, run_id, status, detail);
  return status;
}

int experiment_exit_code(ExperimentStatus status) {
  switch (status) {
    case ExperimentStatus::done: return static_cast<int>(Exit::ok);
    case ExperimentStatus::failed: return static_cast<int>(Exit::runtime_error);
    case ExperimentStatus::interrupted: return static_cast<int>(Exit::interrupted);
    case ExperimentStatus::no_metrics:
    case ExperimentStatus::not_run: break;
  }
  return static_cast<int>(Exit::usage);
}

Explainable explainable_experiment(long long run_id, ExperimentStatus status) {
  Explainable e;
  e.run_id = run_id;
  e.kept_with = fmt::format("experiment run #{}", run_id);
  e.prompt = "Explain the difference with a model (roofline, occupancy, Amdahl) in a sentence or two";
  e.worth_asking = status != ExperimentStatus::interrupted && status != ExperimentStatus::not_run;
  e.record = [run_id](Journal& journal, const std::string& text) {
    record_experiment_explanation(journal, run_id, text);
    return std::string();
  };
  return e;
}

}  // namespace workbook
