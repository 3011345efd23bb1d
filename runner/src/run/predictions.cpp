// Prediction collection (see predictions.hpp).
#include "run/predictions.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "content/metric_source.hpp"
#include "ui/prompt.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/quantity.hpp"
#include "util/text.hpp"

namespace workbook {

namespace {

bool answered(const std::vector<RecordedPrediction>& answers, const std::string& id) {
  return std::any_of(answers.begin(), answers.end(), [&](const RecordedPrediction& r) { return r.id == id; });
}

[[noreturn]] void throw_unknown_prediction(const LabSpec& lab, const LabSpec* whole, const std::string& id) {
  const auto& all = whole ? whole->predictions : lab.predictions;
  auto spec = std::find_if(all.begin(), all.end(), [&](const PredictionSpec& p) { return p.id == id; });
  if (spec != all.end()) {
    const std::string tool = prediction_tool(*whole, *spec);
    const std::string flag = tool.empty() ? "its profiler's option" : "--" + tool;
    throw UsageError(fmt::format("{}'s prediction '{}' is graded on a profiler's figure, so only a run under {} takes it",
                                 lab.id, id, tool.empty() ? "that profiler" : flag),
                     fmt::format("give it in such a run: workbook run {} {} --predict {}=VALUE", lab.id, flag, id));
  }
  std::string ids;
  for (const auto& p : lab.predictions) ids += (ids.empty() ? "" : ", ") + p.id;
  throw UsageError(fmt::format("{} has no prediction '{}'", lab.id, id),
                   fmt::format("its predictions: {}", ids.empty() ? "(none)" : ids));
}

}  // namespace

RecordedPrediction parse_prediction(const PredictionSpec& spec, const std::string& value) {
  RecordedPrediction r{spec.id, trim(value), std::nullopt, trim(value)};
  switch (spec.kind) {
    case PredictionKind::number: {
      // The learner's number grammar (util/quantity.hpp); a unit of the prediction's
      // dimension is converted to its unit ("1500 us" for a prediction in ms).
      std::string error;
      auto q = parse_quantity(value, &error);
      const auto want = find_unit(spec.unit);
      if (q && q->unit && want && q->unit->dimension != want->dimension) {
        throw UsageError(fmt::format("prediction '{}': '{}' is {}, but it asks for {} ({})", spec.id, trim(value),
                                     describe(q->unit->dimension), describe(want->dimension), spec.unit));
      }
      if (q) r.number = q->unit && want ? convert(q->value, *q->unit, *want).front() : q->value;
      if (!r.number) {
        throw UsageError(error.empty() ? fmt::format("prediction '{}': '{}' is not a number", spec.id, value)
                                       : fmt::format("prediction '{}': {}", spec.id, error),
                         fmt::format("write a number{}, e.g. --predict {}=2.5", spec.unit.empty() ? "" : " in " + spec.unit, spec.id));
      }
      break;
    }
    case PredictionKind::choice: {
      auto match = match_choice(value, spec.choices);
      if (!match) {
        std::string list;
        for (std::size_t i = 0; i < spec.choices.size(); ++i) list += fmt::format("\n  {}) {}", i + 1, spec.choices[i]);
        throw UsageError(fmt::format("prediction '{}': '{}' is not one of the choices:{}", spec.id, value, list),
                         "give the choice's exact text, or its number as #N (#2 for the second)");
      }
      r.text = *match;
      break;
    }
    case PredictionKind::yesno: {
      std::string v = trim(value);
      if (v == "y" || v == "yes" || v == "Y" || v == "Yes") r.text = "yes";
      else if (v == "n" || v == "no" || v == "N" || v == "No") r.text = "no";
      else throw UsageError(fmt::format("prediction '{}': answer yes or no, not '{}'", spec.id, value));
      break;
    }
  }
  return r;
}

std::vector<RecordedPrediction> predictions_from_flags(const LabSpec& lab, const std::vector<std::string>& flags,
                                                      const LabSpec* whole) {
  std::vector<RecordedPrediction> out;
  for (const auto& flag : flags) {
    auto kv = split_assignment(flag);
    if (!kv) throw UsageError(fmt::format("--predict '{}': write ID=VALUE", flag));
    auto spec = std::find_if(lab.predictions.begin(), lab.predictions.end(),
                             [&](const PredictionSpec& p) { return p.id == kv->first; });
    if (spec == lab.predictions.end()) throw_unknown_prediction(lab, whole, kv->first);
    if (answered(out, kv->first)) {
      throw UsageError(fmt::format("--predict {} given twice", kv->first));
    }
    out.push_back(parse_prediction(*spec, kv->second));
  }
  return out;
}

std::string prediction_question(const PredictionSpec& spec, const Style& style) {
  std::string suffix = spec.kind == PredictionKind::yesno ? " [yes/no]" : spec.unit.empty() ? "" : fmt::format(" [{}]", spec.unit);
  return fmt::format("{}{}{} (Enter to skip): ", style.cyan("? "), spec.prompt, suffix);
}

void ask_missing_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers, const Style& style,
                             const std::function<void(const RecordedPrediction&)>& record) {
  const CtrlCEndsInput ctrl_c;
  bool header = false;
  for (const auto& spec : lab.predictions) {
    if (answered(answers, spec.id)) continue;
    if (!header) {
      fmt::print("\n{}\n", style.bold(wrap_text(kPredictFirstLine, text_width())));
      header = true;
    }
    if (spec.kind == PredictionKind::choice) {
      auto choice = ask_choice(style.cyan("? ") + spec.prompt, spec.choices, true);
      if (ctrl_c.fired()) throw PredictionPromptInterrupted();
      if (choice) {
        answers.push_back({spec.id, spec.choices[choice->index], std::nullopt, choice->typed});
        record(answers.back());
        fmt::print("  {}\n", style.dim(recorded_echo(spec, answers.back())));
      }
      continue;
    }
    while (true) {
      auto line = ask_line(prediction_question(spec, style));
      if (ctrl_c.fired()) throw PredictionPromptInterrupted();
      if (!line) return;  // end of input: stop asking
      if (line->empty()) break;
      try {
        answers.push_back(parse_prediction(spec, *line));
        record(answers.back());
        fmt::print("  {}\n", style.dim(recorded_echo(spec, answers.back())));
        break;
      } catch (const UsageError& e) {
        fmt::print("{} {}\n", style.yellow("!"), e.what());
      }
    }
  }
}

std::string recorded_echo(const PredictionSpec& spec, const RecordedPrediction& r) {
  if (spec.kind == PredictionKind::choice) {
    const auto at = std::find(spec.choices.begin(), spec.choices.end(), r.text);
    if (at != spec.choices.end()) return fmt::format("recorded: {} (option {})", r.text, at - spec.choices.begin() + 1);
  }
  if (spec.kind == PredictionKind::number && r.number) {
    return fmt::format("recorded: {}{}", format_number(*r.number), spec.unit.empty() ? "" : " " + spec.unit);
  }
  return "recorded: " + r.text;
}

std::string standing_line(const LabSpec& lab, const LabPrediction& standing) {
  std::string prompt = standing.answer.id;
  for (const auto& spec : lab.predictions) {
    if (spec.id == standing.answer.id) prompt = spec.prompt;
  }
  const std::string with = standing.run_id > 0 ? fmt::format(" with run #{}", standing.run_id) : "";
  std::string line = fmt::format("{} your prediction (made {}{}, {}): {}", prompt, standing.recorded_at.substr(0, 10),
                                 with, standing.after_measurement ? "after a measurement was seen" : "before any measurement",
                                 standing.answer.text);
  if (!standing.answer.unclear.empty()) line += fmt::format(" ({})", standing.answer.unclear);
  return line;
}

std::string no_gpu_notice(const LabSpec& lab) {
  return fmt::format(
      "This machine has no NVIDIA GPU (nvidia-smi lists none): {} will be built but not run. To run it, use a "
      "machine with a GPU: Google Colab (docs/colab.md), or a Slurm cluster's login node with `workbook run {} "
      "--slurm`. Predictions you give now are kept: the lab's next run shows them instead of asking again.",
      lab.id, lab.id);
}

std::vector<LabPrediction> standing_predictions(const LabSpec& lab, const std::vector<LabPrediction>& first) {
  std::vector<LabPrediction> out;
  for (const auto& f : first) {
    auto spec = std::find_if(lab.predictions.begin(), lab.predictions.end(),
                             [&](const PredictionSpec& p) { return p.id == f.answer.id; });
    if (spec == lab.predictions.end()) continue;
    out.push_back(f);
    if (spec->kind == PredictionKind::choice) out.back().answer.unclear = unclear_choice_note(spec->choices, f.answer.text, f.answer.entered);
  }
  return out;
}

}  // namespace workbook
