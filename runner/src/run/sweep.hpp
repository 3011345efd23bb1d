// `workbook run <lab> --sweep NAME=v1,v2,...` (or `--sweep NAME` for a sweep the lab's
// manifest declares): one build (the build cache makes every run after the first reuse
// it), one run per value on one seed, each run journaled; predictions are asked (or
// taken from --predict) once, with the first run. Then a table of the figures per value,
// a terminal chart and an SVG plot in the workspace (plots/moduleNN/).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "plot/chart.hpp"
#include "run/lab_run.hpp"

namespace workbook {

// The observer of the runs of a sweep or a comparison: it prints nothing (the caller
// shows n/N progress and one table at the end) but asks the predictions on an
// interactive terminal.
class PromptOnlyObserver : public RunObserver {
 public:
  PromptOnlyObserver(Style style, bool interactive) : style_(style), interactive_(interactive) {}
  void ask_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers,
                       const RecordPrediction& record) override;

 private:
  Style style_;
  bool interactive_;
};

// Grading: a lab's expected ranges are set for its default parameters, so only the run
// at the parameter's default (its quick value with --quick) is graded as a normal run.
// At every other value the figures are shown without a range verdict, each labelled
// "not graded: the ranges are for NAME=default"; the checks still count there, so a
// wrong result at any value is a FAIL.
struct SweepPlan {
  std::string param;
  std::string unit;                  // the x axis's unit ("value" when the manifest gives none)
  std::vector<double> values;
  std::vector<std::string> metrics;  // plotted; empty: chosen after the first run
  double default_value = 0;          // the value the lab's ranges are for
};

// Reads the flag against the lab: "NAME=v1,v2,..." (whole numbers, at least two,
// distinct) or "NAME" for the lab's declared sweep of NAME. Throws UsageError naming the
// lab's parameters / declared sweeps when the flag does not fit.
// `quick` picks the parameter's quick value as the graded default.
SweepPlan plan_sweep(const LabSpec& lab, const std::string& flag, bool quick = false);

// "" for the plan's default value (graded as a normal run); else the label its figures
// carry: "not graded: the ranges are for NAME=default".
std::string sweep_grading_note(const SweepPlan& plan, double value);

struct SweepResult {
  LabSpec lab;
  SweepPlan plan;
  std::uint64_t seed = 0;
  std::vector<RunReport> runs;       // in the order of plan.values; fewer when it stopped early
  std::string stopped;               // why it stopped before the last value ("" when it did not)
  std::filesystem::path svg;         // written plot (empty when nothing to plot)
};

// Runs the sweep. `progress` (may be empty) is told "n/N NAME=value" before each run.
SweepResult run_sweep(const RunContext& ctx, const RunRequest& base, const std::string& flag,
                      const std::function<void(const std::string&)>& progress = {});

// The point a sweep's explanation is kept with: the graded one (at the lab's own value of
// the swept parameter), else the first; nullptr when no point was recorded.
const RunReport* explained_point(const SweepResult& r);

// The metrics to plot: the plan's, else the first timed one (ms, us, s) every run
// reported, else the first reported one.
std::vector<std::string> sweep_metrics(const SweepResult& r);

// The chart of the plotted metrics against the parameter (pure).
plot::Chart sweep_chart(const SweepResult& r);

// Shown by present/sweep_report.hpp (print_sweep, sweep_json).

// A value as the sweep names it ("256", "0.5"); the figure `name` of a run, or nullptr.
std::string sweep_value_text(double v);
const MetricGrade* find_metric(const RunReport& r, const std::string& name);

// The sweep's one verdict, for its JSON and its exit code: pass when every value passed,
// else the first run's verdict that is not (grade/decide.hpp, combined_verdict).
Verdict sweep_verdict(const SweepResult& r);

// 0 when every value passed; otherwise the exit code of the first run that did not.
int exit_code_for(const SweepResult& r);

}  // namespace workbook
