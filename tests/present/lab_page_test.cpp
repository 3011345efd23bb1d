// Tests for present/lab_page: a prediction that only a profiler's run asks says so, on the
// page and in its JSON.
#include <catch2/catch.hpp>

#include <string>

#include "present/lab_page.hpp"

#include "../support/ncu_prediction_lab.hpp"

using Catch::Matchers::Contains;
using workbook::DeviceContext;
using workbook::LabPage;
using workbook::LabSpec;
using workbook::Style;

TEST_CASE("show LAB: a profiler's prediction names the option whose run asks it", "[lab_page]") {
  const LabSpec lab = wbtest::lab_with_ncu_prediction();
  const DeviceContext device;
  const LabPage page{lab, {}, device, false};

  const std::string text = lab_page_text(page, Style(false), 100);
  CHECK_THAT(text, Contains("speedup     How much faster?\n"));
  CHECK_THAT(text, Contains("read_ratio  How many MB read? (asked in a run with --ncu)\n"));

  const nlohmann::json j = lab_page_json(page);
  REQUIRE(j["predictions"].size() == 2);
  CHECK(j["predictions"][0]["tool"].is_null());
  CHECK(j["predictions"][1]["tool"] == "ncu");
}
