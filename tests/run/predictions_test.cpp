// Tests for run/predictions: `--predict ID=VALUE` read against the run's view of the lab,
// and an id that only a profiler's run asks named with the option that asks it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "profile/profile_run.hpp"
#include "run/predictions.hpp"
#include "ui/prompt.hpp"
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
