// Grading one lab run: checks, metrics against expected ranges, predictions against
// measurements, and the overall verdict.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "specs/measured_refs.hpp"
#include "model/expr.hpp"
#include "grade/results.hpp"
#include "util/error.hpp"

namespace workbook {

// pass: every check passed and every graded figure (a metric with an expected range) is
// in range. out_of_range: every check passed (the kernel is right), but a graded figure
// is outside the range this GPU should give (slower, or suspiciously faster).
// interrupted: the learner (Ctrl-C) or the system (SIGTERM, SIGHUP) stopped the run.
// The one verdict of a run; not_run: built, but there was no GPU to run it on.
enum class Verdict { pass, fail, out_of_range, compile_error, runtime_error, timeout, interrupted, not_run };
const char* to_string(Verdict v);
// The runner's exit status for a verdict (docs/commands.md, "Exit codes").
Exit exit_for(Verdict v);

struct CheckGrade {
  std::string name;
  bool reported = false;
  bool pass = false;
  bool required = false;  // listed in the manifest
  std::optional<double> value, limit;
  std::string detail;
  bool skipped = false;  // reported as skipped by the lab (ReportedCheck::skipped)
};

// not_graded: the figure was measured at parameters its range was not set for (a
// sweep's value other than the manifest's default): shown, without a range verdict.
// below_warning / above_warning: outside the band on the side that does not fail
// (ExpectedRange::fails): the result stands, with a warning that the band or the timing
// may be off. below / above: outside on the failing side (out of range).
enum class RangeStatus { in_range, below, above, no_range, unknown, missing, not_graded, below_warning, above_warning };
const char* to_string(RangeStatus s);

// Where a figure's band comes from: the lab's model over the device figures, the
// project's measurements of this GPU model (data/measured), or the workbook's own figure
// for this GPU (GradeBasis).
enum class RangeBasis { model, measured, workbook };
const char* to_string(RangeBasis b);  // "model", "measured", "workbook"

// A figure graded against its band, or (before a run: run/expected_table.hpp) its band alone.
struct MetricGrade {
  std::string name, unit;
  bool derived = false;
  std::optional<double> value;       // empty: not reported / not computable
  std::optional<double> lo, hi;      // the expected range on this GPU
  RangeStatus status = RangeStatus::no_range;
  std::string note;                  // why a range is unknown, or the hint when outside
  std::string reference;             // "T4: 8-15 ms"
  RangeBasis basis = RangeBasis::model;  // where lo/hi come from
  std::string basis_note;            // e.g. "measured on this GPU model: 2026-11-30, driver ..."
  double basis_factor = 1;           // a measured band converted to this workspace's figures (lo, hi already include it)
  std::optional<ReportedMetric> stats;
  bool applies = true;  // false: its range's `when:` is 0 on this run (not graded, not required)
};

// What can tighten a graded figure's range beyond the model band: the project's own
// measurements of this lab on the learner's GPU model, or the workbook's figure when
// the learner's GPU is the workbook's reference GPU (the T4). Both apply only to
// min/max ranges (never to exact `equals` figures), and only when the run used the
// parameters the figures were measured at.
struct GradeBasis {
  std::string gpu_id;                     // the local GPU's spec sheet id; empty: none applies
  const MeasuredLab* measured = nullptr;  // null unless the run's parameters match its params
  std::string measured_label;             // "2026-11-30, driver ..., CUDA 13.0, 1980 MHz"
  bool default_params = false;            // the run used every parameter's default (not --quick)
  // Non-empty: no figure is graded against a range, each says this instead (e.g. "not
  // graded: the ranges are for BLOCK=256"); checks still decide pass or fail.
  std::string ranges_not_graded;
  // The device figures the measured band was graded on (the spec sheet's and nominal
  // figures, with the measured file's `basis:` over them); empty: no conversion.
  Figures measured_device;
  Figures device_now;  // this workspace's device figures (calibrated where measured)
};

// The relative half-width around a workbook reference figure: its range widened by 20 %.
inline constexpr double kReferenceMargin = 0.2;

// What the learner answered before the run.
struct RecordedPrediction {
  std::string id;
  std::string text;                 // the answer: a choice's text, "yes"/"no", or the number as typed
  std::optional<double> number;     // number predictions, in the prediction's unit
  std::string entered = {};         // what the learner typed for it ('' in rows older workbooks wrote)
  std::string unclear = {};         // why an older row's answer may not be what was meant: not scored
};

// Why a choice answer recorded without what was typed (by an older workbook, whose prompt
// read a number as an option's text first) may not be what the learner meant: its text is
// also another option's number. '' when it is clear. Such an answer is shown with this
// note and never scored.
std::string unclear_choice_note(const std::vector<std::string>& choices, const std::string& answer,
                                const std::string& entered);

struct PredictionGrade {
  std::string id;
  PredictionKind kind = PredictionKind::number;
  std::string answer;               // what the learner said
  std::optional<double> predicted, measured;
  std::optional<double> factor;     // max(p/m, m/p) for numbers
  std::string band;                 // "within 1.25x", "within 2x", "within 4x", "off by more than 4x"
  int score = 0;                    // 3, 2, 1, 0 (numbers); 1 or 0 (choices)
  int max_score = 0;
  std::optional<bool> correct;      // choices and yes/no
  std::string right_answer;
  std::string why;
  std::string note;                 // e.g. "metric not measured"
};

// How the process ended, as far as grading needs it.
struct RunOutcome {
  bool timed_out = false;
  int exit_code = -1;      // -1: did not exit normally
  int signal = 0;
  double timeout_s = 0;    // the limit the lab ran under (--timeout or the manifest's)
  std::string last_line = {};  // the last non-blank line the lab wrote to stderr (or stdout):
                           // with exit 3 it names the missing requirement
};

// The check a graded figure that was not reported as a finite number fails.
inline constexpr const char* kFiguresReported = "figures_reported";

// Exit status 3 of a lab: a requirement (a Python package, a GPU) is missing.
inline constexpr int kLabExitMissing = 3;

struct Grade {
  Verdict verdict = Verdict::fail;
  std::string verdict_reason;
  std::vector<CheckGrade> checks;
  std::vector<MetricGrade> metrics;
  std::vector<PredictionGrade> predictions;
};

// The figures expressions see: device figures, parameters, the lab's vars (in order).
// Throws Error when a var cannot be evaluated.
Figures expression_scope(const LabSpec& lab, const Figures& device, const Figures& params);

// The numeric prediction band for a factor >= 1.
std::pair<std::string, int> prediction_band(double factor);

// Checks, figures and predictions graded; the verdict is left to the decider
// (grade/decide.hpp), which the caller feeds with these and the run's other facts.
Grade grade_parts(const LabSpec& lab, const LabResults& results, const Figures& device, const std::string& device_note,
                  const Figures& params, const std::vector<RecordedPrediction>& predictions,
                  const std::string& reference_gpu_name, const GradeBasis& basis = {});

// Replaces m.lo/m.hi (the model band) with the measured or workbook band where one
// applies, and sets m.basis and m.basis_note. `factor` converts a measured band to this
// workspace's device figures: the figure's value over what it would have been on the
// basis it was measured on (1: same basis; nullopt: unknown without a run, said so in the note).
void apply_basis(const MetricSpec& spec, const GradeBasis& basis, MetricGrade& m,
                 std::optional<double> factor = 1.0);

// A figure's name, unit and reference, without a value or a band.
MetricGrade figure_of(const MetricSpec& spec, const std::string& reference_gpu_name);

// Sets m.lo/m.hi to the band of spec's expected range in `scope`, tightened by `basis`
// (apply_basis, with `factor`): what a run's grade compares the figure with and what
// `show` lists before a run, worked out here alone. Throws Error when the range uses a
// name the scope does not hold.
void set_band(const MetricSpec& spec, const Figures& scope, const GradeBasis& basis, std::optional<double> factor,
              MetricGrade& m);

// True for below/above: outside the band on its failing side.
bool outside_range(const MetricGrade& m);
// True for the two warning statuses.
bool outside_warning(const MetricGrade& m);

// The range [lo, hi] of an expected range in a scope; nullopt ends are open.
std::pair<std::optional<double>, std::optional<double>> evaluate_range(const ExpectedRange& range, const Figures& scope);

// "T4: 8-15 ms" / "T4: 2.5 x"
std::string format_reference(const Reference& ref, const std::string& unit, const std::string& gpu_name);

}  // namespace workbook
