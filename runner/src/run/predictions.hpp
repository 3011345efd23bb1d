// Collecting the learner's predictions before a run: from --predict ID=VALUE, or asked
// on the terminal. Values are validated here, so what is recorded is always gradable.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "grade/grade.hpp"
#include "ui/style.hpp"

namespace workbook {

// Checks one answer against its prediction; throws UsageError saying what is accepted.
RecordedPrediction parse_prediction(const PredictionSpec& spec, const std::string& value);

// Parses every `--predict ID=VALUE`; unknown ids and bad values throw UsageError.
std::vector<RecordedPrediction> predictions_from_flags(const LabSpec& lab, const std::vector<std::string>& flags);

// Asks each prediction not already given, on the terminal, and hands each answer to
// `record` as soon as it is given. The learner may skip one with an empty line; end of
// input stops asking.
void ask_missing_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers, const Style& style,
                             const std::function<void(const RecordedPrediction&)>& record);

}  // namespace workbook
