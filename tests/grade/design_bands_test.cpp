// The real manifests of modules 17, 19 and 20 graded on the H200's spec sheet with the
// figures the project measured there (docs/validation/H200-measurements.md, "Runs 3 and
// 4: modules 16, 17 and 19" and "Run 5: modules 20 and 22"): each solution's figures
// inside every band named here, each slow design outside on the side that fails (issue
// 25: ranges that separate designs). Two bases: the model band (any H200 workspace at
// other parameters falls back to it, and it must catch the slow designs by itself) and
// the measured band of data/measured/h200.yaml.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "content/catalog.hpp"
#include "grade/grade.hpp"
#include "specs/gpu_specs.hpp"
#include "specs/measured_refs.hpp"
#include "../support/grade_lookup.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using wbtest::grade_run;

namespace {

struct H200 {
  Catalog catalog{WORKBOOK_SOURCE_DIR};
  std::vector<GpuSpec> specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  std::vector<MeasuredRefs> measured = load_measured_refs(catalog.root() / "data");

  Figures device() const {
    const GpuSpec* s = find_gpu(specs, "h200-sxm");
    REQUIRE(s);
    Figures f = s->figures;
    for (const auto& [k, v] : nominal_measured_figures(*s)) f.emplace(k, v);
    return f;
  }
};

LabSpec lab_of(const H200& h, int module, const std::string& id) {
  for (const LabSpec& l : h.catalog.load_module(module).labs)
    if (l.id == id) return l;
  FAIL("no lab " << id);
  return {};
}

Figures defaults(const LabSpec& lab) {
  Figures p;
  for (const auto& param : lab.params) p[param.name] = param.default_value;
  return p;
}

// Grades `figures` (every check passing) on the model band, or on the measured band.
Grade grade(const H200& h, const LabSpec& lab, const std::map<std::string, double>& figures, bool measured) {
  LabResults r;
  for (const auto& [name, value] : figures) r.metrics.push_back({name, "", value, {}, {}, {}, {}});
  for (const auto& c : lab.checks) r.checks.push_back({c, true, {}, {}, "", false});
  r.ended = true;
  r.end_pass = true;
  GradeBasis basis;
  if (measured) {
    basis.gpu_id = "h200-sxm";
    basis.measured = find_measured(h.measured, "h200-sxm", lab.id, &basis.measured_label);
    REQUIRE(basis.measured);
    basis.default_params = true;
  }
  RunOutcome outcome;
  outcome.exit_code = 0;
  return grade_run(lab, r, outcome, h.device(), "", defaults(lab), {}, "Tesla T4", basis);
}

RangeStatus status(const Grade& g, const std::string& name) {
  auto it = std::find_if(g.metrics.begin(), g.metrics.end(), [&](const MetricGrade& m) { return m.name == name; });
  REQUIRE(it != g.metrics.end());
  INFO(name << " = " << (it->value ? *it->value : -1) << " in " << it->lo.value_or(-1) << " .. " << it->hi.value_or(-1)
            << " (" << to_string(it->basis) << ")");
  return it->status;
}

// Run 5: the solution, and the SIMT kernel timed as the WMMA one.
std::map<std::string, double> wmma_run(double wmma_ms) {
  return {{"err_fp16", 2.66e-4},   {"err_refine_a", 2.08e-4}, {"err_refine_ab", 2.15e-5}, {"err_fp32", 3.05e-6},
          {"simt_ms", 17.0},       {"wmma_ms", wmma_ms},      {"refine_a_ms", 9.81},      {"refine_ab_ms", 14.7},
          {"simt_tflops", 8.1},    {"wmma_tflops", 2.0 * 4096.0 * 4096.0 * 4096.0 / (wmma_ms * 1e-3) / 1e12}};
}

}  // namespace

TEST_CASE("module20's WMMA bands hold the H200 solution and fail the SIMT fallback and a C accumulator", "[grade][bands]") {
  const H200 h;
  const LabSpec lab = lab_of(h, 20, "module20/wmma_gemm");
  for (bool measured : {false, true}) {
    INFO((measured ? "measured band" : "model band"));
    const Grade solution = grade(h, lab, wmma_run(4.9), measured);
    CHECK(status(solution, "wmma_tflops") == RangeStatus::in_range);
    CHECK(status(solution, "wmma_vs_simt") == RangeStatus::in_range);
    const Grade simt = grade(h, lab, wmma_run(17.0), measured);
    CHECK(status(simt, "wmma_tflops") == RangeStatus::below);
    CHECK(status(simt, "wmma_vs_simt") == RangeStatus::below);
    // The accumulator kept in C: at most 14 TFLOP/s by the lookup model (9.8 ms).
    const Grade in_c = grade(h, lab, wmma_run(9.8), measured);
    CHECK(status(in_c, "wmma_tflops") == RangeStatus::below);
    CHECK(status(in_c, "wmma_vs_simt") == RangeStatus::below);
  }
}

TEST_CASE("module19's vector_ms and scalar_vs_vector fail the scalar kernel launched as the vector one on the H200", "[grade][bands]") {
  const H200 h;
  const LabSpec lab = lab_of(h, 19, "module19/spmv");
  const auto run = [](double vector_ms) {
    return std::map<std::string, double>{{"nnz_long", 6397267},    {"nnz_short", 399672},     {"scalar_ms", 0.0718},
                                         {"vector_ms", vector_ms}, {"cusparse_ms", 0.0621},   {"scalar_short_ms", 0.0056},
                                         {"vector_short_ms", 0.0188}, {"cusparse_short_ms", 0.0153},
                                         {"vector_gbps", 1005}};
  };
  for (bool measured : {false, true}) {
    INFO((measured ? "measured band" : "model band"));
    const Grade solution = grade(h, lab, run(0.0521), measured);
    CHECK(status(solution, "vector_ms") == RangeStatus::in_range);
    CHECK(status(solution, "scalar_vs_vector") == RangeStatus::in_range);
    const Grade slow = grade(h, lab, run(0.0718), measured);
    CHECK(status(slow, "vector_ms") == RangeStatus::above);
    CHECK(status(slow, "scalar_vs_vector") == RangeStatus::below);
  }
}

TEST_CASE("module17's graph bands fail per-step launches below and a synchronizing plain loop above", "[grade][bands]") {
  const H200 h;
  const LabSpec lab = lab_of(h, 17, "module17/heat_graph");
  // Run 4's figures: empty, gpu step, plain step, graph step; then the same at BIG_N.
  const auto run = [](double empty, double gpu, double stream, double graph, double gpu_big, double stream_big,
                      double graph_big) {
    return std::map<std::string, double>{{"max_err_final", 2.85e-5}, {"capture_us", 393}, {"empty_us", empty},
                                         {"gpu_step_us", gpu},        {"stream_us", stream}, {"graph_us", graph},
                                         {"gpu_step_big_us", gpu_big}, {"stream_big_us", stream_big},
                                         {"graph_big_us", graph_big}};
  };
  const Grade solution = grade(h, lab, run(3.74, 1.93, 3.73, 1.27, 6.91, 6.89, 5.9), false);
  for (const char* m : {"stream_us", "graph_us", "stream_big_us", "graph_big_us", "speedup_small", "speedup_big"})
    CHECK(status(solution, m) == RangeStatus::in_range);
  const Grade one_by_one = grade(h, lab, run(4.33, 1.91, 3.77, 3.72, 6.87, 6.87, 6.87), false);
  CHECK(status(one_by_one, "graph_us") == RangeStatus::above);
  CHECK(status(one_by_one, "speedup_small") == RangeStatus::below);
  const Grade synced = grade(h, lab, run(4.66, 2.08, 10.5, 1.29, 7.01, 15.5, 5.92), false);
  CHECK(status(synced, "stream_us") == RangeStatus::above);
  CHECK(status(synced, "speedup_small") == RangeStatus::above);  // fails: both, not a warning
  CHECK(status(synced, "speedup_big") == RangeStatus::above);
  CHECK(synced.verdict == Verdict::out_of_range);
}
