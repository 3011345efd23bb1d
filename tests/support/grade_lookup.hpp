// A workbook::Grade for the tests of grading: a run's grade with its verdict
// (grade_parts and decide, as a run gets them), and a graded figure of it by name.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "grade/decide.hpp"
#include "grade/grade.hpp"

namespace wbtest {

// grade_parts with the verdict decide() gives for the lab's process and results alone
// (no interruption, profiler or power source: a run adds those, run/lab_run.cpp).
inline workbook::Grade grade_run(const workbook::LabSpec& lab, const workbook::LabResults& results,
                                 const workbook::RunOutcome& outcome, const workbook::Figures& device,
                                 const std::string& device_note, const workbook::Figures& params,
                                 const std::vector<workbook::RecordedPrediction>& predictions,
                                 const std::string& reference_gpu_name, const workbook::GradeBasis& basis = {}) {
  workbook::Grade g =
      workbook::grade_parts(lab, results, device, device_note, params, predictions, reference_gpu_name, basis);
  workbook::RunFacts facts;
  facts.lab_id = lab.id;
  facts.process = workbook::process_facts(outcome, results, lab.timeout_s);
  facts.checks = g.checks;
  facts.metrics = g.metrics;
  const workbook::Decision d = workbook::decide(facts);
  g.verdict = d.verdict;
  g.verdict_reason = d.reason;
  return g;
}

// A copy (callers often pass a temporary Grade); a failed REQUIRE when there is none.
inline workbook::MetricGrade graded_metric(const workbook::Grade& g, const std::string& name) {
  auto it = std::find_if(g.metrics.begin(), g.metrics.end(), [&](const workbook::MetricGrade& m) { return m.name == name; });
  REQUIRE(it != g.metrics.end());
  return *it;
}

}  // namespace wbtest
