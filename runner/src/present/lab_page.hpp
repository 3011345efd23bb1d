// `workbook show LAB`: a lab's page as data (its spec, its expected figures on the GPU
// shown, whether its known mistakes may be listed), and its two renderings: goal, steps,
// parameters, predictions, the expected-figures table with a legend line per symbol
// shown, the known mistakes (or how many there are); or one JSON object.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "grade/grade.hpp"
#include "run/device_context.hpp"
#include "ui/style.hpp"

namespace workbook {

struct LabPage {
  const LabSpec& lab;
  std::vector<MetricGrade> expected;  // the rows of run/expected_table.hpp's expected_rows
  const DeviceContext& device;        // the GPU (or spec sheet) the ranges are for
  bool mistakes_open = false;         // list the known mistakes (the learner's copy passed, or --author)
};

std::string lab_page_text(const LabPage& page, const Style& style, std::size_t width);
nlohmann::json lab_page_json(const LabPage& page);

// The expected figures as a table under its title, then one legend line per symbol the
// table shows ("-", "unknown GPU", "after the run", a profiler's flag, each range basis).
std::string expected_figures_text(const std::vector<MetricGrade>& rows, const DeviceContext& dev, const Style& style,
                                  std::size_t width);

}  // namespace workbook
