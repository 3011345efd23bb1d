// The real manifests of modules 18 and 22 graded on the learner's GPUs' spec sheets (issue
// 37): module22's TF32 error floor holds on every GPU with TF32, the RTX 3050 included,
// whatever its TF32 speed; module18's prefetch figures are graded only where the lab
// measures them (concurrent managed access), so a correct run on Windows or WSL passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "content/catalog.hpp"
#include "grade/grade.hpp"
#include "specs/gpu_specs.hpp"
#include "../support/grade_lookup.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using wbtest::grade_run;

namespace {

struct LearnerCourse {
  Catalog catalog{WORKBOOK_SOURCE_DIR};
  std::vector<GpuSpec> specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");

  Figures device(const std::string& id) const {
    const GpuSpec* s = find_gpu(specs, id);
    REQUIRE(s);
    Figures f = s->figures;
    for (const auto& [k, v] : nominal_measured_figures(*s)) f.emplace(k, v);
    return f;
  }

  LabSpec lab(int module, const std::string& id) const {
    for (const LabSpec& l : catalog.load_module(module).labs)
      if (l.id == id) return l;
    FAIL("no lab " << id);
    return {};
  }
};

// `figures` reported, every check passing, at the lab's default parameters, on `gpu`'s sheet.
Grade grade_on(const LearnerCourse& c, const LabSpec& lab, const std::string& gpu, const std::map<std::string, double>& figures) {
  LabResults r;
  for (const auto& [name, value] : figures) r.metrics.push_back({name, "", value, {}, {}, {}, {}});
  for (const auto& check : lab.checks) r.checks.push_back({check, true, {}, {}, "", false});
  r.ended = true;
  r.end_pass = true;
  Figures params;
  for (const auto& p : lab.params) params[p.name] = p.default_value;
  RunOutcome outcome;
  outcome.exit_code = 0;
  return grade_run(lab, r, outcome, c.device(gpu), "", params, {}, "Tesla T4", GradeBasis{});
}

RangeStatus figure_status(const Grade& g, const std::string& name) {
  auto it = std::find_if(g.metrics.begin(), g.metrics.end(), [&](const MetricGrade& m) { return m.name == name; });
  REQUIRE(it != g.metrics.end());
  INFO(name << " = " << (it->value ? *it->value : -1) << " in " << it->lo.value_or(-1) << " .. " << it->hi.value_or(-1));
  return it->status;
}

}  // namespace

TEST_CASE("module22: tf32_err must show TF32's error on every GPU with TF32, fast or not", "[grade][content]") {
  const LearnerCourse c;
  const LabSpec lab = c.lab(22, "module22/cublas_vs_mine");
  // FP32-level error (6e-7): the TF32 run never switched the handle to TF32 math.
  const auto never_switched = [](double capable) {
    return std::map<std::string, double>{{"tf32_capable", capable}, {"tf32_err", 6e-7}};
  };
  // The RTX 3050 laptop (sm_86): TF32 Tensor Cores no faster than FP32, TF32 all the same.
  CHECK(figure_status(grade_on(c, lab, "rtx3050-laptop-6gb", never_switched(1)), "tf32_err") == RangeStatus::below);
  CHECK(figure_status(grade_on(c, lab, "h200-sxm", never_switched(1)), "tf32_err") == RangeStatus::below);
  const std::map<std::string, double> tf32 = {{"tf32_capable", 1}, {"tf32_err", 3e-4}};
  CHECK(figure_status(grade_on(c, lab, "rtx3050-laptop-6gb", tf32), "tf32_err") == RangeStatus::in_range);
  // The T4 (sm_75) has no TF32: cuBLAS runs FP32 in TF32 mode, and FP32's error passes.
  CHECK(figure_status(grade_on(c, lab, "t4", never_switched(0)), "tf32_err") == RangeStatus::in_range);
}

TEST_CASE("module18: the prefetch figures are graded only where concurrent managed access measures them",
          "[grade][content]") {
  const LearnerCourse c;
  const LabSpec lab = c.lab(18, "module18/unified_memory");
  const char* prefetch_figures[] = {"prefetch_ms", "prefetched_kernel_ms", "prefetch_back_ms", "prefetched_vs_explicit"};
  // Windows or WSL: the lab skips its prefetches and reports none of them.
  const Grade without = grade_on(c, lab, "rtx3050-laptop-6gb", {{"concurrent_managed_access", 0}});
  for (const char* name : prefetch_figures) {
    INFO(name);
    CHECK(figure_status(without, name) == RangeStatus::not_graded);
  }
  // Linux: the same figures missing are a run that did not measure what it must.
  const Grade with = grade_on(c, lab, "rtx3050-laptop-6gb", {{"concurrent_managed_access", 1}});
  for (const char* name : prefetch_figures) {
    INFO(name);
    CHECK(figure_status(with, name) == RangeStatus::missing);
  }
}
