// Collecting the learner's predictions before a run: from --predict ID=VALUE, or asked
// on the terminal. Values are validated here, so what is recorded is always gradable.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "grade/grade.hpp"
#include "journal/lab_predictions.hpp"
#include "ui/style.hpp"
#include "util/error.hpp"

namespace workbook {

// Checks one answer against its prediction; throws UsageError saying what is accepted.
RecordedPrediction parse_prediction(const PredictionSpec& spec, const std::string& value);

// Parses every `--predict ID=VALUE`; unknown ids and bad values throw UsageError. `lab`
// is the run's view of the lab (profile_view); `whole`, the lab as written, lets an id
// that only a profiler's run asks say so and name the option.
std::vector<RecordedPrediction> predictions_from_flags(const LabSpec& lab, const std::vector<std::string>& flags,
                                                      const LabSpec* whole = nullptr);

// Ctrl-C at a prediction prompt: nothing was run, and nothing of it is recorded (exit 130).
class PredictionPromptInterrupted : public Error {
 public:
  PredictionPromptInterrupted()
      : Error(Exit::interrupted, "nothing was run; your predictions so far were not recorded (Ctrl-C at a prediction prompt)") {}
};

// Asks each prediction not already given, on the terminal, and hands each answer to
// `record` as soon as it is given. The learner may skip one with an empty line; end of
// input stops asking. Ctrl-C at a prompt throws PredictionPromptInterrupted.
void ask_missing_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers, const Style& style,
                             const std::function<void(const RecordedPrediction&)>& record);

// What a prompt echoes once an answer is taken: "recorded: 4 (option 2)", "recorded: 1.5 ms".
std::string recorded_echo(const PredictionSpec& spec, const RecordedPrediction& r);

// The line before the first question (ui wraps it to the terminal).
inline constexpr const char* kPredictFirstLine =
    "Predict first. Your answers are recorded before anything runs, and cannot be changed.";

// A numeric or yes/no prediction's question as its prompt asks it (pure): "? At N = 1024,
// how many times faster ...? [x] (Enter to skip): "; ui/prompt wraps it to the terminal.
std::string prediction_question(const PredictionSpec& spec, const Style& style);

// The line a later run (of a lab or an experiment) shows instead of asking again (pure):
// "How many ...? your prediction (made 2026-11-30 with run #3, before any measurement): 900".
std::string standing_line(const LabSpec& lab, const LabPrediction& standing);

// What a run of `lab` on a machine without a GPU says before any prediction is asked.
std::string no_gpu_notice(const LabSpec& lab);

// Of the lab's first predictions, those the lab still asks (content may drop one). A choice
// answer an older workbook recorded without what was typed, whose text is also another
// option's number, gets `unclear` set (grade.hpp's unclear_choice_note): shown, never scored.

std::vector<LabPrediction> standing_predictions(const LabSpec& lab, const std::vector<LabPrediction>& first);

}  // namespace workbook
