// Tests for run/predictions: `--predict ID=VALUE` read against the run's view of the lab,
// and an id that only a profiler's run asks named with the option that asks it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "profile/profile_run.hpp"
#include "run/predictions.hpp"
#include "util/error.hpp"

#include "../support/ncu_prediction_lab.hpp"

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
