// An experiment: the predict -> measure -> explain loop of a lab, for any command (the
// llm.c project). It is a YAML file in the workspace, experiments/NAME.yaml:
//
//   format_version: 1
//   title: "..."                  # optional
//   repeats: 3                    # runs of each variant (median and spread over them)
//   timeout_s: 600                # per run of a variant (default 600)
//   baseline: fp32                # ratios are against it (default: the first variant)
//   variants:                     # two or more, each a command run without a shell
//     - name: fp32
//       command: ./train_gpt2fp32cu -b 4 -t 1024     # a string (split like a shell would, quotes kept)
//       cwd: ~/llm.c                                  #   or a list of words; cwd: ~ and relative
//       env: {OMP_NUM_THREADS: "8"}                   #   paths are taken from the workspace
//   metrics:                      # read from each run's output (stdout, then stderr)
//     - name: step_ms
//       pattern: '\(([0-9.]+) ms' # a regular expression (ECMAScript) with one captured number
//       unit: ms
//       per: step                 # step: every match, a curve; once: the last match
//       summary: median           # per step: median (default), mean, min, max, last
//       skip: 1                   # per step: leave out the first matches (warm-up)
//   predictions:                  # asked before anything runs, recorded immutably
//     - name: speedup
//       kind: number              # number (with a unit), choice (with choices), yesno
//       unit: x
//       question: "How many times faster per step will bf16 be?"
//       measured: fp32.step_ms / bf16.step_ms   # optional: an expression over VARIANT.METRIC medians
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "content/manifest.hpp"

namespace workbook {

inline constexpr int kExperimentFormatVersion = 1;

struct ExperimentVariant {
  std::string name;
  std::vector<std::string> command;  // argv
  std::string cwd;                   // as written ("" : the workspace)
  std::vector<std::pair<std::string, std::string>> env;
  int line = 0;
};

enum class MetricPer { step, once };
enum class MetricSummary { median, mean, min, max, last };
const char* to_string(MetricPer p);
const char* to_string(MetricSummary s);

struct ExperimentMetric {
  std::string name, pattern, unit;
  MetricPer per = MetricPer::step;
  MetricSummary summary = MetricSummary::median;
  int skip = 0;
  int line = 0;
};

struct ExperimentPrediction {
  PredictionSpec spec;   // id (the name), kind, prompt (the question), unit, choices
  std::string measured;  // "" or an expression over VARIANT.METRIC (the medians)
};

struct Experiment {
  std::string name;           // the file's stem
  std::filesystem::path file;
  std::string text;           // the file as read (kept with each run)
  std::string title;
  int repeats = 1;
  double timeout_s = 600;
  std::string baseline;       // a variant's name
  std::string topic;          // the project topic it measures (data/course.yaml), or ""
  std::vector<ExperimentVariant> variants;
  std::vector<ExperimentMetric> metrics;
  std::vector<ExperimentPrediction> predictions;

  const ExperimentVariant* variant(const std::string& name) const;
};

// Reads and validates the file; every problem is a ContentError line "file:line: field:
// what is wrong" (all of them at once). `display` names the file in them (default: its path).
Experiment load_experiment(const std::filesystem::path& file, const std::string& display = {});
// The same for a text (the file as a run kept it); `name` is the experiment's name.
Experiment parse_experiment(const std::string& text, const std::string& name, const std::string& display);

// A command line split into words as a POSIX shell would split it (spaces; '...' and
// "..." quote; \ escapes), with no expansion. Throws UsageError on an unclosed quote.
std::vector<std::string> split_command(const std::string& line);

// A lab-shaped view of the experiment's predictions, so the lab's prompts and
// validation serve it too (run/predictions.hpp): id "experiment/NAME".
LabSpec prediction_lab(const Experiment& e);

// A `measured:` expression with VARIANT.METRIC written VARIANT__METRIC, the names the
// expression engine (model/expr.hpp) is given.
std::string measured_expression(const std::string& expr);

// True for a name the files and expressions can use: [A-Za-z_][A-Za-z0-9_]*.
bool is_identifier(const std::string& s);

}  // namespace workbook
