// Tests for profile/profile_run: which figures a run under each tool grades, the tool's
// output collected into figures and checks, the command wrapped, and missing tools.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "../support/temp_dir.hpp"
#include "profile/gpu_state_store.hpp"
#include "profile/ncu_csv.hpp"
#include "present/profile_view.hpp"
#include "profile/profile_json.hpp"
#include "profile/profile_run.hpp"
#include "profile_fixture.hpp"
#include "util/error.hpp"

using namespace workbook;

namespace {

// The decider's answer for a lab that exited with `exit_code` (0: it passed) under the
// profiler of `report` (with its facts, or without them).
Decision decided_with(const ProfileReport& report, int exit_code, bool with_profiler = true) {
  RunFacts facts;
  ProcessFacts p;
  p.outcome.exit_code = exit_code;
  p.ended = true;
  p.end_pass = exit_code == 0;
  facts.process = p;
  if (with_profiler) facts.profiler = profiler_facts(report);
  return decide(facts);
}

// Whether any printed line contains `text`.
bool any_line_has(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

MetricSpec metric_spec(const std::string& name, const std::string& tool = "", bool graded = true) {
  MetricSpec m;
  m.name = name;
  if (graded) m.expected = ExpectedRange{"0", "1e9", "", 0, "", 0, FailSide::both, ""};
  if (!tool.empty()) {
    m.source = MetricSource{};
    m.source->tool = tool;
    m.source->of = "kernels";
    m.source->stat = "calls";
    m.source->metric = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
    m.source->kernel = name == "row_sectors" ? "copy_row_wise" : "copy_col_wise";
    m.source->stat = tool == "ncu" ? "median" : "calls";
  }
  return m;
}

PredictionSpec prediction(const std::string& id, const std::string& metric_name, const std::string& answer_expr = "") {
  PredictionSpec p;
  p.id = id;
  p.metric = metric_name;
  if (!answer_expr.empty()) {
    p.kind = PredictionKind::yesno;
    p.answer_expr = answer_expr;
  }
  return p;
}

LabSpec sample_lab() {
  LabSpec lab;
  lab.id = "module99/sample";
  lab.metrics = {metric_spec("row_ms"), metric_spec("launches", "trace"), metric_spec("row_sectors", "ncu"),
                 metric_spec("col_sectors", "ncu")};
  MetricSpec speed = metric_spec("speed"), ratio = metric_spec("sect_ratio"), per_launch = metric_spec("per_launch");
  speed.expr = "row_ms * 2";
  ratio.expr = "col_sectors / row_sectors";
  per_launch.expr = "row_ms / launches";
  lab.derived = {speed, ratio, per_launch};
  lab.predictions = {prediction("p_ms", "row_ms"), prediction("p_launch", "launches"), prediction("p_ratio", "sect_ratio"),
                     prediction("many", "", "launches > 3")};
  return lab;
}

std::vector<std::string> names(const std::vector<MetricSpec>& v) {
  std::vector<std::string> n;
  for (const auto& m : v) n.push_back(m.name + (m.expected ? "*" : ""));  // * graded
  return n;
}

std::vector<std::string> ids(const std::vector<PredictionSpec>& v) {
  std::vector<std::string> n;
  for (const auto& p : v) n.push_back(p.id);
  return n;
}

struct EnvVar {  // sets a variable for one test
  std::string name;
  EnvVar(const char* n, const std::string& v) : name(n) { ::setenv(n, v.c_str(), 1); }
  ~EnvVar() { ::unsetenv(name.c_str()); }
};

}  // namespace

TEST_CASE("a plain run leaves every profiler figure out, and what is built on them", "[profile]") {
  const LabSpec v = profile_view(sample_lab(), ProfileTool::none);
  CHECK(names(v.metrics) == std::vector<std::string>{"row_ms*"});
  CHECK(names(v.derived) == std::vector<std::string>{"speed*"});
  CHECK(ids(v.predictions) == std::vector<std::string>{"p_ms"});
}

TEST_CASE("run --trace grades its own figures, the lab's timings, slowed by tracing, are only shown", "[profile]") {
  const LabSpec v = profile_view(sample_lab(), ProfileTool::trace);
  CHECK(names(v.metrics) == std::vector<std::string>{"row_ms", "launches*"});
  CHECK(names(v.derived) == std::vector<std::string>{"speed", "per_launch*"});
  CHECK(ids(v.predictions) == std::vector<std::string>{"p_launch", "many"});
}

TEST_CASE("run --ncu grades only its own figures and asks only about them", "[profile]") {
  const LabSpec v = profile_view(sample_lab(), ProfileTool::ncu);
  CHECK(names(v.metrics) == std::vector<std::string>{"row_ms", "row_sectors*", "col_sectors*"});
  CHECK(names(v.derived) == std::vector<std::string>{"speed", "sect_ratio*"});
  CHECK(ids(v.predictions) == std::vector<std::string>{"p_ratio"});
}

TEST_CASE("run --sanitize grades no figure and asks nothing", "[profile]") {
  const LabSpec v = profile_view(sample_lab(), ProfileTool::sanitize);
  CHECK(names(v.metrics) == std::vector<std::string>{"row_ms"});
  CHECK(names(v.derived) == std::vector<std::string>{"speed"});
  CHECK(v.predictions.empty());
}

TEST_CASE("the sanitizer's summary becomes a check with the first error", "[profile]") {
  ProfilePlan plan;
  plan.request = {ProfileTool::sanitize, "memcheck"};
  ProfileReport report;
  LabResults results;
  collect_profile(plan, wbtest::profile_fixture_path("sanitizer_memcheck_atomic.txt"), sample_lab(), ProcessResult{},
                  report, results);
  REQUIRE(results.checks.size() == 1);
  CHECK(results.checks[0].name == "sanitizer_memcheck");
  CHECK_FALSE(results.checks[0].pass);
  CHECK(results.checks[0].value == Approx(15));
  CHECK(results.checks[0].detail.find("at dot_reduction.cu:112") != std::string::npos);
  CHECK(results.checks[0].detail.find("sm_60") == std::string::npos);
  // The report names the lab's line and shows the header frame only as where it was inlined from.
  const auto lines = profile_lines(report, Style(false));
  REQUIRE(lines.size() > 3);
  CHECK(lines[0] == "compute-sanitizer memcheck: " + results.checks[0].detail);
  CHECK(lines[1] == "  Invalid __global__ atomic of size 8 bytes");
  CHECK(lines[2] == "    at dot_reduction.cu:112  dot_tree(double *, const float *, const float *, int)+0x400");
  CHECK(lines[3] == "    (inlined from sm_60_atomic_functions.hpp:294  atomicAdd(double *, double)+0x400)");
  LabResults clean;
  ProfileReport clean_report;
  collect_profile(plan, wbtest::profile_fixture_path("sanitizer_memcheck_clean.txt"), sample_lab(), ProcessResult{},
                  clean_report, clean);
  CHECK(clean.checks.at(0).pass);
  // No log file and nothing on stdout: no summary, so no pass.
  LabResults none;
  ProfileReport none_report;
  collect_profile(plan, "/nonexistent/log.txt", sample_lab(), ProcessResult{}, none_report, none);
  CHECK_FALSE(none.checks.at(0).pass);
}

TEST_CASE("ncu's figures land in the results, without counter access the run is not_run (exit 2)", "[profile]") {
  ProfilePlan plan;
  plan.request = {ProfileTool::ncu, ""};
  const LabSpec lab = profile_view(sample_lab(), ProfileTool::ncu);
  ProfileReport report;
  LabResults results;
  collect_profile(plan, wbtest::profile_fixture_path("ncu_raw_coalescing.csv"), lab, ProcessResult{}, report, results);
  REQUIRE(results.metric("row_sectors"));
  CHECK(results.metric("row_sectors")->value == Approx(4));
  CHECK(results.metric("col_sectors")->value == Approx(32));
  CHECK(report.figures.size() == 2);
  CHECK(report.not_run_reason.empty());
  CHECK(report.warnings.empty());
  // The report lists the metrics asked for under the kernel's name, not ncu's own columns.
  plan.ncu.metrics = default_ncu_metrics();
  ProfileReport listed;
  LabResults listed_results;
  collect_profile(plan, wbtest::profile_fixture_path("ncu_raw_coalescing.csv"), lab, ProcessResult{}, listed,
                  listed_results);
  const auto lines = profile_lines(listed, Style(false));
  auto shown = [&](const std::string& text) { return any_line_has(lines, text); };
  CHECK(shown("copy_col_wise (8,32,1) x8"));
  CHECK(shown("copy_row_wise (32,8,1) x9"));
  CHECK_FALSE(shown("(const float *"));
  CHECK(shown("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"));
  CHECK_FALSE(shown("nvlink__"));
  CHECK_FALSE(shown("profiler__replayer_passes"));
  CHECK_FALSE(shown("dram__bytes_read.avg"));  // a roll-up ncu adds to dram__bytes_read.sum
  CHECK_FALSE(shown("capped"));                 // 50 launches: under the cap

  // At the cap (module09/heat and module17/heat_graph on the H200: 300 of thousands of
  // heat_step launches), the report says the rest ran unprofiled.
  std::string capped_csv = "\"ID\",\"Kernel Name\",\"Block Size\",\"gpu__time_duration.sum\"\n\"\",\"\",\"\",\"ns\"\n";
  for (int i = 0; i < kNcuLaunchCap; ++i) capped_csv += fmt::format("\"{}\",\"heat_step\",\"(256, 1, 1)\",\"2112\"\n", i);
  ProfileReport capped;
  capped.ncu = parse_ncu_csv(capped_csv);
  REQUIRE(capped.ncu->rows.size() == static_cast<std::size_t>(kNcuLaunchCap));
  const auto capped_lines = profile_lines(capped, Style(false));
  CHECK(any_line_has(capped_lines, "capped: ncu profiles the first 300 launches"));

  ProfileReport denied;
  LabResults none;
  ProcessResult pr;
  pr.out = wbtest::profile_fixture("ncu_permission.txt");  // no log file: ncu's lines on stdout
  collect_profile(plan, "/nonexistent/ncu.csv", lab, pr, denied, none);
  CHECK(denied.not_run_reason.find("ERR_NVGPUCTRPERM") != std::string::npos);
  const Decision g = decided_with(denied, 0);
  CHECK(g.verdict == Verdict::not_run);
  CHECK(exit_for(g.verdict) == Exit::usage);
}

TEST_CASE("ncu's error on the H200 (the counters held by another profiler) is the failed run's reason", "[profile]") {
  // Recorded: module15/matvec under ncu while a second ncu ran: 56 launches profiled, then
  // the driver refused matvec_warp and the lab exited with code 9.
  ProfilePlan plan;
  plan.request = {ProfileTool::ncu, ""};
  const LabSpec lab = profile_view(sample_lab(), ProfileTool::ncu);
  ProfileReport report;
  LabResults results;
  collect_profile(plan, wbtest::profile_fixture_path("ncu_driver_busy_matvec.csv"), lab, ProcessResult{}, report,
                  results);
  REQUIRE(report.ncu);
  CHECK(report.ncu->rows.size() == 56);
  REQUIRE(report.ncu->errors.size() == 4);
  CHECK(report.ncu->errors[2] == "Failed to profile \"matvec_warp\" in process 12155");
  const std::string why = "An error was reported by the driver: Profiling failed because a driver resource was unavailable.";
  CHECK(ncu_error_reason(*report.ncu).rfind(why, 0) == 0);
  REQUIRE(report.warnings.size() == 1);
  CHECK(report.warnings[0].find(why) != std::string::npos);
  CHECK(decided_with(report, 9, false).reason == "the lab exited with code 9");  // without ncu's word
  const Decision g = decided_with(report, 9);
  CHECK(g.verdict == Verdict::runtime_error);
  CHECK(g.reason.rfind("Nsight Compute: " + why, 0) == 0);
  // A run that passed keeps its verdict; a run ncu broke off with no rows shows ncu's lines.
  const Decision ok = decided_with(report, 0);
  CHECK(ok.verdict == Verdict::pass);
  CHECK(ok.reason.empty());
  ProfileReport failed;
  LabResults none;
  collect_profile(plan, wbtest::profile_fixture_path("ncu_failed_heat_graph.csv"), lab, ProcessResult{}, failed, none);
  REQUIRE(failed.ncu);
  CHECK(failed.ncu->rows.empty());
  CHECK(ncu_error_reason(*failed.ncu) == "Failed to profile \"heat_step\" in process 12850");
  CHECK(failed.warnings == std::vector<std::string>{"ncu wrote no CSV rows; its messages are shown below"});
}

TEST_CASE("trace figures and the summary come from the trace file", "[profile]") {
  ProfilePlan plan;
  plan.request = {ProfileTool::trace, ""};
  const LabSpec lab = profile_view(sample_lab(), ProfileTool::trace);
  ProfileReport report;
  LabResults results;
  collect_profile(plan, wbtest::profile_fixture_path("trace_streams.jsonl"), lab, ProcessResult{}, report, results);
  REQUIRE(results.metric("launches"));
  CHECK(results.metric("launches")->value == Approx(4));
  REQUIRE(report.trace);
  CHECK(report.timeline.size() == 4);
  const nlohmann::json j = profile_json(report);
  CHECK(j["tool"] == "trace");
  CHECK(j["trace"]["kernels"][0]["name"] == "scale");
  CHECK(j["figures"]["launches"] == 4);
  const auto lines = profile_lines(report, Style(false));
  CHECK(any_line_has(lines, "HtoD pinned"));
}

TEST_CASE("the tools wrap the lab's command, the harness's CUPTI clock is kept out", "[profile]") {
  ProfilePlan plan;
  plan.request = {ProfileTool::sanitize, "racecheck"};
  plan.tool = "/opt/cuda/bin/compute-sanitizer";
  ProcessOptions proc;
  proc.argv = {"/tmp/lab", "seed=1"};
  wrap_command(plan, "/tmp/log.txt", proc);
  CHECK(proc.argv.front() == "/opt/cuda/bin/compute-sanitizer");
  CHECK(proc.argv[proc.argv.size() - 2] == "/tmp/lab");
  auto has_env = [&](const std::string& k, const std::string& v) {
    return std::find(proc.env.begin(), proc.env.end(), std::pair<std::string, std::string>{k, v}) != proc.env.end();
  };
  CHECK(has_env("WB_TIMING", "events"));
  ProfilePlan trace;
  trace.request = {ProfileTool::trace, ""};
  trace.tool = "/opt/wb/libworkbook_trace.so";
  proc = ProcessOptions{};
  proc.argv = {"/tmp/lab"};
  wrap_command(trace, "/tmp/t.jsonl", proc);
  CHECK(proc.argv == std::vector<std::string>{"/tmp/lab"});
  CHECK(has_env("CUDA_INJECTION64_PATH", "/opt/wb/libworkbook_trace.so"));
  CHECK(has_env("WORKBOOK_TRACE", "/tmp/t.jsonl"));
  CHECK(has_env("WB_TIMING", "events"));
}

TEST_CASE("a missing tool or a bad option is a usage error (exit 2) before anything runs", "[profile]") {
  const LabSpec lab = sample_lab();
  {
    EnvVar e("WORKBOOK_NCU", "/nonexistent/ncu");
    CHECK_THROWS_AS(plan_profile({ProfileTool::ncu, ""}, lab, "/nonexistent"), UsageError);
  }
  {
    EnvVar e("WORKBOOK_TRACE_LIB", "/nonexistent/libworkbook_trace.so");
    CHECK_THROWS_AS(plan_profile({ProfileTool::trace, ""}, lab, "/nonexistent"), UsageError);
  }
  CHECK_THROWS_AS(plan_profile({ProfileTool::sanitize, "leakcheck"}, lab, "/nonexistent"), UsageError);
  {
    wbtest::TempDir dir;
    const auto fake = dir.write("ncu", "#!/bin/sh\n");
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    EnvVar e("WORKBOOK_NCU", fake.string());
    const ProfilePlan plan = plan_profile({ProfileTool::ncu, ""}, profile_view(lab, ProfileTool::ncu), "/nonexistent");
    CHECK(plan.tool == fake);
    CHECK(plan.build_flags == std::vector<std::string>{"-lineinfo"});
    CHECK(plan.ncu_kernels == std::vector<std::string>{"copy_row_wise", "copy_col_wise"});
    CHECK(plan.timeout_factor > 1);
  }
  CHECK(plan_profile({}, lab, "").tool.empty());
}

TEST_CASE("a crash under the sanitizer names the sanitizer's first error as the reason", "[profile]") {
  ProfileReport report;
  report.sanitizer = SanitizerReport{};
  report.sanitizer->tool = "memcheck";
  report.sanitizer->error_count = 2;
  report.sanitizer->errors.push_back({"Invalid __global__ write of size 8 bytes", "dot_tree", "dot_reduction.cu:112", "", "", {}});
  CHECK(decided_with(report, 4, false).reason == "the lab exited with code 4");
  const Decision g = decided_with(report, 4);
  CHECK(g.verdict == Verdict::runtime_error);
  CHECK(g.reason == "compute-sanitizer 2 errors: Invalid __global__ write of size 8 bytes at dot_reduction.cu:112");
}
