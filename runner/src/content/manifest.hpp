// The module manifest (modules/moduleNN/module.yaml) as typed structs. The format is
// documented field by field in docs/authoring.md; format_version 1.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace workbook {

inline constexpr int kManifestFormatVersion = 1;

// Where a measured metric should land on this GPU. Either a fixed value with a
// tolerance (`equals`, `tolerance`), or a range whose ends are expressions over device
// figures, parameters, the lab's `vars` and reported metrics (`min`, `max`; one may be absent).
// Which side of a band means "the design is not yet what the module teaches". A figure
// outside the band on that side is out of range (exit 5); on the other side (faster than
// the model, above a ceiling) it is a warning that the band or the timing may be off, and
// it does not fail a right result. `equals` figures fail on both sides.
enum class FailSide { both, above, below };
const char* to_string(FailSide s);

struct ExpectedRange {
  std::string min_expr;     // empty: no lower bound
  std::string max_expr;     // empty: no upper bound
  std::string equals_expr;  // non-empty: fixed value; tolerance applies
  double tolerance = 0;     // absolute, for `equals`
  std::string hint;         // shown when the value falls outside on the failing side
  int line = 0;
  // `fails:` in the manifest; when absent: a band with one end fails at that end, one
  // with both ends by its unit: times (ns, us, ms, s) above, rates (GB/s, GFLOP/s,
  // TFLOP/s) below, anything else on both sides.
  FailSide fails = FailSide::both;
  std::string hint_other;   // `hint_other:` shown on the side that only warns (else a generic text)
  // `when:` an expression over the lab's figures (e.g. "gpus >= 2"); where it is 0 the
  // range does not apply: the figure is neither graded nor required (a one-GPU machine
  // reports no second device). Empty: always applies.
  std::string when_expr{};
};

// A figure from the workbook measured on another GPU (the Colab T4), shown beside ours.
struct Reference {
  std::string gpu;  // an id from data/gpus.yaml, e.g. "t4"
  std::optional<double> min, max, value;
  std::string source;  // e.g. "workbook, Module 14 lab"
  // true: on its own GPU, at default parameters, the figure (widened by 20 %) replaces
  // the model band as the graded range. Set only where the figure agrees with the model
  // (the workbook's figures can be wrong or specific to one setup).
  bool graded = false;
};

// Where a profiler figure comes from (docs/authoring.md, "Profiler figures"): a metric
// with a source is not reported by the lab; the runner measures it when the run uses
// that tool (`workbook run LAB --trace` or `--ncu`) and leaves it out otherwise.
struct MetricSource {
  std::string tool;    // "trace" or "ncu"
  std::string of;      // trace: kernels, copies, memsets, api, unified_memory, gpu
  std::string name;    // trace: a substring of the kernel / copy ("HtoD pinned") / API name; empty: all
  std::string stat;    // trace: calls, total_us, avg_us, min_us, max_us, bytes, bytes_per_call, ...
                       // ncu: median (default), mean, min, max, sum, count (over the matching launches)
  std::string kernel;  // ncu: a substring of the kernel's name; empty: every profiled kernel
  std::string metric;  // ncu: the metric's column name, e.g. dram__bytes_read.sum
  std::string block;   // ncu: only launches with this block size, "32,8,1"; empty: any
  int line = 0;
};

// A metric the lab reports (`expr` empty) or the runner derives (`expr` set).
struct MetricSpec {
  std::string name;
  std::string unit;
  std::string doc;
  std::string expr;  // derived metrics only: over reported metrics and parameters
  std::optional<ExpectedRange> expected;
  std::optional<Reference> reference;
  std::optional<MetricSource> source;  // measured by a profiler, not reported by the lab
  int line = 0;
};

// A lab parameter: `-p NAME=VALUE` overrides it; `quick` is used by smoke runs.
struct ParamSpec {
  std::string name;
  double default_value = 0;
  std::optional<double> quick;
  std::string doc;
  int line = 0;
};

enum class PredictionKind { number, choice, yesno };

// A question asked (and recorded) before the lab is built.
struct PredictionSpec {
  std::string id;
  PredictionKind kind = PredictionKind::number;
  std::string prompt;
  std::string unit;                  // number: the unit the learner answers in
  std::string metric;                // number: the metric it is scored against
  std::vector<std::string> choices;  // choice: the options (learner picks one)
  std::string answer;                // choice/yesno: the right option ("yes"/"no" for yesno)
  std::string answer_expr;           // choice/yesno instead of `answer`: an expression whose value
                                     // (1-based choice index; yes = non-zero) is decided by the run
  std::string why;                   // shown after grading: the model behind the answer
  int line = 0;
};

// A named expression the lab's other expressions can use (e.g. flops: "2*N*N*N").
struct VarSpec {
  std::string name;
  std::string expr;
  int line = 0;
};

// A variant of the lab's solution used as a test input: a classic mistake the module
// teaches (kind wrong: must grade `fail`) or the design the module replaces (kind slow:
// correct, but must grade `out_of_range`). It is the solution's text with `edits`
// applied in order; each edit's `from` must occur exactly once at that point, so a
// variant can never silently stop applying when the solution changes.
struct SourceEdit {
  std::string from, to;
  int line = 0;
};

enum class VariantKind { wrong, slow };

struct VariantSpec {
  std::string id;    // "grid_rounds_down"
  VariantKind kind = VariantKind::wrong;
  std::string what;  // the mistake, in one sentence
  std::vector<SourceEdit> edits;
  int line = 0;
};

// A parameter sweep the lab offers (`sweeps:`): `workbook run <lab> --sweep PARAM` builds
// once and runs the lab once per value, then tables and plots `metrics` against it.
struct SweepSpec {
  std::string param;                 // one of the lab's params
  std::vector<double> values;        // integers, as params are
  std::vector<std::string> metrics;  // plotted (reported or derived); empty: chosen by the runner
  std::string unit;                  // what the parameter counts ("threads", "segments"): the x axis's unit
  std::string doc;
  int line = 0;
};

// What an examiner checks in the learner's explanation of the lab's main figure
// (`examiner:` in the manifest; explain/feedback.hpp grades the text against the run).
struct ExplainCeiling {
  std::string expr;  // a device figure, var or expression: "dram_gbps", "tiled_floor_ms"
  std::string unit;  // the unit its value is in: "GB/s", "ms"
};

// For a speed-up: the part of the time that did not speed up (Amdahl).
struct ExplainAmdahl {
  std::string speedup;             // the metric holding the measured speed-up
  std::string unchanged;           // expression: the fraction (0..1) of the old time that did not speed up; empty: none
  std::vector<std::string> words;  // words that name that part ("copies", "serial stage")
  int line = 0;
};

struct ExplainSpec {
  std::string bound;                // the limiting resource: memory, compute, latency, launch, pcie, ... (or a lab's own)
  std::vector<std::string> figures; // the metrics that matter (reported or derived), the main one first
  // Words that name each resource, beyond the runner's own vocabulary (explain/vocabulary.hpp);
  // the bound must have words, here or there.
  std::vector<std::pair<std::string, std::vector<std::string>>> words;
  std::string intensity;            // expression: the main kernel's FLOP per DRAM byte; empty: not a roofline lab
  // What a figure is compared with; nullopt: the bound's default (content/examiner.hpp);
  // empty (`ceilings: {}`): nothing, a figure alone is enough.
  std::optional<std::vector<ExplainCeiling>> ceilings;
  std::optional<ExplainAmdahl> amdahl;
  int line = 0;
};

enum class LabLanguage { cuda, host, python };

struct LabSpec {
  std::string name;   // "tiled_gemm"
  std::string id;     // "module14/tiled_gemm"
  std::string title;
  std::string goal;
  std::string source;  // file name under labs/moduleNN/ and solutions/moduleNN/ (.cu, .cpp, .py)
  LabLanguage language = LabLanguage::cuda;
  std::vector<std::string> steps;
  double timeout_s = 60;
  std::vector<std::string> flags;  // extra compiler flags
  std::vector<std::string> libs;   // e.g. -lcublas
  std::vector<ParamSpec> params;
  std::vector<std::string> checks;  // must be reported, and pass
  // `memcheck: quick`: after the run, a second one at the quick size under
  // compute-sanitizer's memcheck, graded as the check kMemcheckCheck (profile/memcheck_pass.hpp).
  bool memcheck = false;
  // `exercised:` function -> the checks that run it (dev/exercised.hpp): every function
  // holding a starter TODO must be named here.
  std::vector<std::pair<std::string, std::vector<std::string>>> exercised;
  std::vector<VarSpec> vars;
  std::vector<MetricSpec> metrics;  // reported by the lab
  std::vector<MetricSpec> derived;  // computed by the runner
  std::vector<PredictionSpec> predictions;
  std::string explain_prompt;  // the "explain the number with a model" question
  std::vector<VariantSpec> variants;
  std::vector<SweepSpec> sweeps;
  // Progressive hints (`hints:`), shown one at a time by `workbook hint`: a nudge toward
  // the idea, then the mechanism, then nearly the code (never the whole solution).
  std::vector<std::string> hints;
  std::optional<ExplainSpec> examiner;  // `examiner:`; dev check requires one
  int line = 0;
};

// The check a lab's memcheck pass reports (`memcheck: quick`, profile/memcheck_pass.hpp).
inline constexpr const char* kMemcheckCheck = "memcheck_quick";

// The most hints a lab may declare (a longer list stops being a hint and becomes a walkthrough).
inline constexpr std::size_t kMaxHints = 6;

struct Module {
  int number = 0;
  std::string id;  // "module14"
  std::string title;
  std::vector<std::string> objectives;
  std::vector<LabSpec> labs;
  std::filesystem::path file;
  std::filesystem::path dir;
};

const char* to_string(PredictionKind kind);
const char* to_string(LabLanguage language);
const char* to_string(VariantKind kind);

}  // namespace workbook
