// Tests for run/predictions: `--predict ID=VALUE` read against the run's view of the lab,
// and an id that only a profiler's run asks named with the option that asks it.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <iostream>

#include "content/catalog.hpp"
#include "profile/profile_run.hpp"
#include "run/predictions.hpp"
#include "ui/prompt.hpp"
#include "ui/style.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"

#include "../support/lines.hpp"
#include "../support/ncu_prediction_lab.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using wbtest::lab_with_ncu_prediction;

namespace {

std::pair<std::string, std::string> usage_error(const LabSpec& view, const LabSpec* whole, const std::string& flag) {
  try {
    predictions_from_flags(view, {flag}, whole);
  } catch (const UsageError& e) {
    return {e.what(), e.hint()};
  }
  return {"", ""};
}

}  // namespace

TEST_CASE("predictions_from_flags: a profiler's prediction outside its run names the option", "[predictions]") {
  const LabSpec whole = lab_with_ncu_prediction();
  const LabSpec view = profile_view(whole, ProfileTool::none);
  REQUIRE(view.predictions.size() == 1);
  auto [what, hint] = usage_error(view, &whole, "read_ratio=16");
  CHECK(what == "module14/tiled_gemm's prediction 'read_ratio' is graded on a profiler's figure, so only a run under "
                "--ncu takes it");
  CHECK(hint == "give it in such a run: workbook run module14/tiled_gemm --ncu --predict read_ratio=VALUE");
  // Under ncu the same flag is taken.
  const LabSpec under_ncu = profile_view(whole, ProfileTool::ncu);
  CHECK(predictions_from_flags(under_ncu, {"read_ratio=16"}, &whole).size() == 1);
}

TEST_CASE("predictions_from_flags: an id the lab does not have lists the ones it has", "[predictions]") {
  const LabSpec whole = lab_with_ncu_prediction();
  const LabSpec view = profile_view(whole, ProfileTool::none);
  auto [what, hint] = usage_error(view, &whole, "speed=3");
  CHECK(what == "module14/tiled_gemm has no prediction 'speed'");
  CHECK(hint == "its predictions: speedup");
  CHECK(usage_error(view, nullptr, "read_ratio=1").first == "module14/tiled_gemm has no prediction 'read_ratio'");
}

namespace {

// module16/streams_pipeline's question: options whose texts are numbers.
LabSpec lab_with_numbered_choices() {
  LabSpec lab;
  lab.id = "module16/streams_pipeline";
  PredictionSpec p;
  p.id = "segments";
  p.kind = PredictionKind::choice;
  p.prompt = "From how many segments on does the pipeline stop getting faster?";
  p.choices = {"2", "4", "8", "16"};
  lab.predictions = {p};
  return lab;
}

// Answers the prompts from `typed` (std::cin for the call).
std::vector<RecordedPrediction> asked_with(const LabSpec& lab, const std::string& typed) {
  std::istringstream in(typed);
  std::streambuf* saved = std::cin.rdbuf(in.rdbuf());
  std::vector<RecordedPrediction> answers;
  ask_missing_predictions(lab, answers, Style(false), [](const RecordedPrediction&) {});
  std::cin.rdbuf(saved);
  return answers;
}

}  // namespace

TEST_CASE("a choice typed at the prompt as its number records that option, and the echo says so", "[predictions]") {
  const LabSpec lab = lab_with_numbered_choices();
  const auto answers = asked_with(lab, "2\n");
  REQUIRE(answers.size() == 1);
  CHECK(answers[0].text == "4");     // option 2, not the option whose text is "2"
  CHECK(answers[0].entered == "2");  // what was typed, kept
  CHECK(recorded_echo(lab.predictions[0], answers[0]) == "recorded: 4 (option 2)");
  // A --predict flag reads an option's exact text first; #N is the position.
  CHECK(predictions_from_flags(lab, {"segments=2"})[0].text == "2");
  CHECK(predictions_from_flags(lab, {"segments=#2"})[0].text == "4");
}

TEST_CASE("the echo of a number is the number recorded, in the prediction's unit", "[predictions]") {
  PredictionSpec p;
  p.id = "t";
  p.kind = PredictionKind::number;
  p.unit = "ms";
  CHECK(recorded_echo(p, parse_prediction(p, "1500 us")) == "recorded: 1.5 ms");
}

TEST_CASE("an older journal's choice answer that is also another option's number is shown with the doubt, not scored",
          "[predictions]") {
  const LabSpec lab = lab_with_numbered_choices();
  LabPrediction old;  // written by an older workbook: no `entered`
  old.answer = {"segments", "2", std::nullopt};
  old.recorded_at = "2026-12-03T10:00:00.000Z";
  const auto standing = standing_predictions(lab, {old});
  REQUIRE(standing.size() == 1);
  CHECK(standing[0].answer.unclear.find("you may have meant option 2 ('4'); not scored") != std::string::npos);
  CHECK(standing_line(lab, standing[0]).find("not scored") != std::string::npos);
  LabPrediction now = old;  // this workbook records what was typed: no doubt
  now.answer.entered = "#1";
  CHECK(standing_predictions(lab, {now})[0].answer.unclear.empty());
}

TEST_CASE("every prediction prompt of the real content fits 60, 80 and 100 columns, words whole", "[predictions][width]") {
  // module16/streams_pipeline's first prompt was one 272-column line the terminal broke
  // mid-word ("four t/imes").
  const Style plain(false);
  std::size_t asked = 0;
  for (const Module& m : Catalog(WORKBOOK_SOURCE_DIR).load_all()) {
    for (const LabSpec& lab : m.labs) {
      for (const PredictionSpec& spec : lab.predictions) {
        ++asked;
        for (std::size_t width : {60u, 80u, 100u}) {
          const std::string shown = spec.kind == PredictionKind::choice
                                        ? choice_text("? " + spec.prompt, spec.choices, width)
                                        : question_text(prediction_question(spec, plain), width);
          for (const std::string& l : wbtest::lines_of(shown)) {
            INFO(lab.id << " " << spec.id << " at " << width << ": " << l);
            CHECK(text_columns(l) <= width);
          }
        }
      }
    }
  }
  CHECK(asked > 20);
  for (std::size_t width : {60u, 80u, 100u})
    for (const std::string& l : wbtest::lines_of(wrap_text(kPredictFirstLine, width))) CHECK(text_columns(l) <= width);
}
