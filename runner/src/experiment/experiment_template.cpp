// The experiment file `experiment new` writes (see experiment_template.hpp).
#include "experiment/experiment_template.hpp"

#include <fmt/format.h>

#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {

namespace {

// {0}: the experiment's name. The file's head: what runs.
constexpr const char* kTemplate = R"yaml(# Experiment "{0}": run with `workbook experiment run {0}`, see it with `workbook experiment show {0}`.
# Predict first (recorded before anything runs, never changed), measure, then explain.
# This one compares llm.c's FP32 and BF16 GPT-2 training (build them first in your llm.c
# checkout: `make train_gpt2fp32cu train_gpt2cu`); edit the commands to fit your build.
format_version: 1
title: "GPT-2 training in FP32 vs BF16 (llm.c)"
# The project topic this measures (one of data/course.yaml's: tiling, Tensor Cores, BF16,
# cuBLAS): `workbook progress` counts it measured once a run ends, explained once you
# explain it. Delete the line if the experiment is for no topic.
topic: BF16

# How many times each variant runs; figures are the median over the runs, with their spread.
repeats: 3
# Seconds each run may take before it is stopped (counted as failed).
timeout_s: 900
# Ratios are shown against this variant.
baseline: fp32

# Each variant is one command, run without a shell (no pipes or $VARS). cwd: where it runs
# (~ is your home; a relative path is taken from the workspace); env: variables to add.
variants:
  - name: fp32
    command: ./train_gpt2fp32cu -b 4 -t 1024 -x 40
    cwd: ~/llm.c
  - name: bf16
    command: ./train_gpt2cu -b 4 -t 1024 -x 40
    cwd: ~/llm.c
    env:
      CUDA_DEVICE_MAX_CONNECTIONS: "1"
)yaml";

// The metrics and the predictions.
constexpr const char* kTemplateReading = R"yaml(

# What to read from each run's output: a regular expression with exactly one (group)
# around the number. per: step reads every match (a curve over the steps); once reads
# the last match. A per-step figure is the median of its steps (summary: mean, min, max
# or last instead) after `skip` warm-up steps. The patterns below read lines such as
#   step 10/40: train loss 4.29 (118 ms, 34800 tok/s)
#   val loss 4.1
# and llm.c's newer form "step   10/40 | loss 4.29 | ... | 118.00 ms | ... | 34800 tok/s".
metrics:
  - name: train_loss
    pattern: 'step\s*\d+/\d+(?::\s*train loss|\s*\|\s*loss)\s+([-+0-9.eE]+)'
    per: step
    summary: last
  - name: step_ms
    pattern: '([0-9.]+) ms'
    unit: ms
    per: step
    skip: 1
  - name: tok_per_s
    pattern: '([0-9.]+) tok/s'
    unit: tok/s
    per: step
    skip: 1
  - name: val_loss
    pattern: 'val loss\s+([-+0-9.eE]+)'
    per: once

# Asked before the run. kind: number (answer in `unit`), choice (with choices:) or yesno.
# measured: an expression over VARIANT.METRIC (the medians) that the answer is graded against.
predictions:
  - name: speedup
    kind: number
    unit: x
    question: "How many times faster per step will BF16 be than FP32?"
    measured: fp32.step_ms / bf16.step_ms
  - name: val_loss_change
    kind: number
    question: "By how much will BF16's validation loss differ from FP32's (bf16 - fp32)?"
    measured: bf16.val_loss - fp32.val_loss
  - name: bound
    kind: choice
    choices: [memory bandwidth, tensor-core compute, kernel launches]
    question: "What limits the BF16 step most?"
)yaml";

}  // namespace

std::string experiment_template(const std::string& name) {
  return fmt::format(kTemplate, name) + (kTemplateReading + 1);  // without its first newline
}

void write_experiment_template(const std::filesystem::path& file, const std::string& name) {
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    throw UsageError(fmt::format("{} exists already; it was left as it is", file.string()),
                     fmt::format("edit it, or choose another name (`workbook experiment new {}_2`)", name));
  }
  write_file_text(file, experiment_template(name));
}

}  // namespace workbook
