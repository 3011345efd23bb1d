// A graded figure of a workbook::Grade by name, for the tests of grading.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "grade/grade.hpp"

namespace wbtest {

// A copy (callers often pass a temporary Grade); a failed REQUIRE when there is none.
inline workbook::MetricGrade graded_metric(const workbook::Grade& g, const std::string& name) {
  auto it = std::find_if(g.metrics.begin(), g.metrics.end(), [&](const workbook::MetricGrade& m) { return m.name == name; });
  REQUIRE(it != g.metrics.end());
  return *it;
}

}  // namespace wbtest
