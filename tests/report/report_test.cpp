// Tests for report/: which figures place a kernel on the roofline, which run a report
// shows, where the roof comes from, and the Markdown assembled from report data (pure
// functions, no journal).
#include <catch2/catch.hpp>

#include "report/report_data.hpp"
#include "report/roofline_points.hpp"

using namespace workbook;

namespace {

MetricRow metric_row(const std::string& name, const std::string& unit, double v) {
  MetricRow m;
  m.name = name;
  m.unit = unit;
  m.value = v;
  m.status = "no range";
  return m;
}

RunRow run(long long id, const std::string& verdict, const std::string& variant = "starter") {
  RunRow r;
  r.id = id;
  r.verdict = verdict;
  r.variant = variant;
  return r;
}

}  // namespace

TEST_CASE("metric_stem strips the unit's suffix", "[report]") {
  CHECK(metric_stem("tiled_gflops", "GFLOP/s") == "tiled");
  CHECK(metric_stem("wmma_tflops", "TFLOP/s") == "wmma");
  CHECK(metric_stem("tiled_gbps", "GB/s") == "tiled");
  CHECK(metric_stem("kernel_bw", "GB/s") == "kernel");
  CHECK(metric_stem("intensity", "FLOP/byte") == "");
  CHECK(metric_stem("tiled_ms", "ms") == "tiled_ms");
}

TEST_CASE("kernels_of pairs a FLOP rate with the byte rate or intensity of its kernel", "[report]") {
  const RunKernels k = kernels_of({metric_row("tiled_gflops", "GFLOP/s", 800), metric_row("tiled_gbps", "GB/s", 100),
                                   metric_row("naive_gflops", "GFLOP/s", 50), metric_row("wmma_tflops", "TFLOP/s", 2),
                                   metric_row("wmma_intensity", "FLOP/byte", 40), metric_row("tiled_ms", "ms", 3)});
  REQUIRE(k.placed.size() == 2);
  CHECK(k.placed[0].stem == "tiled");
  CHECK(k.placed[0].intensity == Approx(8));
  CHECK(k.placed[0].gflops == Approx(800));
  CHECK(k.placed[1].stem == "wmma");
  CHECK(k.placed[1].gflops == Approx(2000));  // TFLOP/s in GFLOP/s
  CHECK(k.placed[1].intensity == Approx(40));
  REQUIRE(k.not_placed.size() == 1);
  CHECK(k.not_placed[0].find("naive_gflops: no bytes reported") != std::string::npos);

  // The run's only intensity figure goes with its only rate (vecadd_roofline's shape).
  const RunKernels v = kernels_of({metric_row("achieved_gflops", "GFLOP/s", 30), metric_row("intensity", "FLOP/byte", 1.0 / 12)});
  REQUIRE(v.placed.size() == 1);
  CHECK(v.placed[0].intensity == Approx(1.0 / 12));
  // Missing or non-positive values place nothing.
  MetricRow missing = metric_row("x_gflops", "GFLOP/s", 0);
  missing.value.reset();
  CHECK(kernels_of({missing, metric_row("y_gflops", "GFLOP/s", 0)}).placed.empty());
}

TEST_CASE("run_to_show: the latest pass, else the latest finished run", "[report]") {
  CHECK(run_to_show({}) == nullptr);
  std::vector<RunRow> runs{run(1, "pass"), run(2, "fail"), run(3, "unfinished")};
  CHECK(run_to_show(runs)->id == 1);
  runs[0].verdict = "out_of_range";
  CHECK(run_to_show(runs)->id == 2);
  std::vector<RunRow> only{run(7, "unfinished")};
  CHECK(run_to_show(only)->id == 7);
  // The reference's pass does not stand in for the learner's own run ...
  std::vector<RunRow> mixed{run(1, "fail"), run(2, "pass", "solution"), run(3, "pass", "variant")};
  CHECK(run_to_show(mixed)->id == 1);
  // ... unless the learner has run nothing of their own.
  std::vector<RunRow> reference_only{run(2, "pass", "solution"), run(4, "fail", "solution")};
  CHECK(run_to_show(reference_only)->id == 2);
}

TEST_CASE("run_to_show: with the lab's defaults, the graded run at them comes first (not a sweep's last point)", "[report]") {
  auto at = [](long long id, const std::string& verdict, const std::string& params) {
    RunRow r = run(id, verdict);
    r.params = params;
    return r;
  };
  const Figures defaults{{"N", 1000}};
  // A sweep N=10,1000,100: the latest pass is N=100, not graded; N=1000 is.
  std::vector<RunRow> sweep{at(1, "pass", R"({"N":10})"), at(2, "pass", R"({"N":1000})"), at(3, "pass", R"({"N":100})")};
  CHECK(run_to_show(sweep)->id == 3);
  CHECK(run_to_show(sweep, defaults)->id == 2);
  // A finished run at the defaults is shown before a pass elsewhere; an unfinished one is not.
  std::vector<RunRow> failed{at(1, "pass", R"({"N":10})"), at(2, "fail", R"({"N":1000})")};
  CHECK(run_to_show(failed, defaults)->id == 2);
  std::vector<RunRow> open{at(1, "pass", R"({"N":10})"), at(2, "unfinished", R"({"N":1000})")};
  CHECK(run_to_show(open, defaults)->id == 1);
  // None at the defaults: as without them.
  std::vector<RunRow> quick{at(1, "pass", R"({"N":10})")};
  CHECK(run_to_show(quick, defaults)->id == 1);
  CHECK(at_default_params(R"({"N":1000,"M":4})", defaults));
  CHECK_FALSE(at_default_params(R"({"N":"1000"})", defaults));
  CHECK_FALSE(at_default_params("not json", defaults));
  CHECK(at_default_params("{}", {}));
}

TEST_CASE("roof_for: the calibration first, then the spec sheet", "[report]") {
  GpuSpec spec;
  spec.id = "h200";
  spec.figures = {{"fp32_tflops", 60}, {"dram_gbps", 4800}};
  CalibrationRow cal;
  cal.measured_at = "2026-11-30T10:00:00Z";
  cal.figures = {{"fp32_tflops", 55}, {"d2d_gbps", 4100}};
  auto r = roof_for("NVIDIA H200", cal, &spec);
  REQUIRE(r);
  CHECK(r->peak_gflops == Approx(55000));
  CHECK(r->peak_gbps == Approx(4100));
  CHECK(r->source == "calibrated 2026-11-30");
  cal.figures.erase("d2d_gbps");  // an incomplete calibration: the sheet instead
  r = roof_for("NVIDIA H200", cal, &spec);
  REQUIRE(r);
  CHECK(r->peak_gbps == Approx(4800));
  CHECK(r->source.find("spec sheet h200") != std::string::npos);
  CHECK_FALSE(roof_for("Unknown", std::nullopt, nullptr));
}

TEST_CASE("render_markdown: figures, predictions, explanations, machine line, roofline", "[report]") {
  ReportData d;
  d.scope = "module14";
  d.generated_at = "2026-12-01T10:00:00Z";
  LabEvidence e;
  e.lab = "module14/tiled_gemm";
  e.title = "Tiled GEMM";
  e.run = run(12, "pass");
  e.run.variant = "starter";
  e.run.device = "NVIDIA H200";
  e.run.params = R"({"N":1024})";
  e.run.started_at = "2026-11-30T09:00:00.000Z";
  e.runs_total = 3;
  MetricRow speed = metric_row("speedup", "x", 1.52);
  speed.lo = 1.2;
  speed.hi = 4;
  speed.status = "in range";
  e.metrics = {speed};
  PredictionRow p;
  p.id = "speedup";
  p.answer = "3";
  p.graded = true;
  p.measured = 1.52;
  p.factor = 1.97;
  p.band = "within 2x";
  p.score = 2;
  p.max_score = 3;
  PredictionRow choice;
  choice.id = "reason";
  choice.answer = "compute";
  choice.graded = true;
  choice.correct = false;
  choice.right_answer = "memory";
  p.first = choice.first = true;
  p.recorded_at = choice.recorded_at = "2026-11-29T10:00:00.000Z";
  choice.after_measurement = true;
  PredictionRow later;  // given with a later run for an id the lab had predicted
  later.id = "speedup";
  later.answer = "1.5";
  later.recorded_at = "2026-11-30T08:59:00.000Z";
  later.after_measurement = true;
  e.predictions = {p, choice, later};
  e.explanations = {{"Tiling cuts global loads by T.\nSo the time falls.", "2026-11-30T09:05:00Z", 12, "names T"}};
  RunRow explained;  // an out-of-range run of the lab with its own explanation: named, never shown here
  explained.id = 11;
  explained.verdict = "out_of_range";
  explained.started_at = "2026-11-30T08:00:00.000Z";
  e.explained_elsewhere = {explained};
  d.labs.push_back(e);
  MachineLine m;
  m.gpu = "NVIDIA H200";
  m.arches = {"sm_90"};
  m.missing = {"CUDA version", "power state"};
  d.machines.push_back(m);
  d.roofs.push_back({{"NVIDIA H200", 60000, 4800, "spec sheet h200, not calibrated"}, {{"module14/tiled_gemm: tiled", 8, 3000}}, "roofline-nvidia-h200.svg"});
  d.notes.push_back("module14/tiled_gemm (run #12): naive_gflops: no bytes reported");

  const std::string md = render_markdown(d);
  CHECK(md.find("# Workbook report: module14") != std::string::npos);
  CHECK(md.find("- **NVIDIA H200**, compiled for sm_90.\n  Not recorded in the journal: CUDA version; power state.") != std::string::npos);
  CHECK(md.find("## module14/tiled_gemm · Tiled GEMM") != std::string::npos);
  CHECK(md.find("Run #12 (starter), 2026-11-30 09:00 UTC, on NVIDIA H200: **pass** · N=1024") != std::string::npos);
  CHECK(md.find("| speedup | 1.52 x | 1.2 x to 4 x | in range |") != std::string::npos);
  CHECK(md.find("| speedup | 3 | 2026-11-29, before any measurement | 1.52 | within 2x, off by 1.97x (2/3) |") != std::string::npos);
  CHECK(md.find("| reason | compute | 2026-11-29, after a measurement was seen |  | wrong (it was memory) |") != std::string::npos);
  CHECK(md.find("| speedup | 1.5 | 2026-11-30, after a measurement was seen |  | a later answer: not scored") != std::string::npos);
  CHECK(md.find("Explanation given with run #12 (2026-11-30 09:05 UTC):") != std::string::npos);
  CHECK(md.find("What an examiner would say (checked against run #12's figures above):\n\n- names T") != std::string::npos);
  CHECK(md.find("Other runs of this lab with an explanation, each with its own figures in `workbook history "
                "module14/tiled_gemm`: #11 (out_of_range, 2026-11-30).") != std::string::npos);
  CHECK(md.find("From the sweep.") == std::string::npos);
  CHECK(md.find("> Tiling cuts global loads by T.\n> So the time falls.\n") != std::string::npos);
  CHECK(md.find("![Roofline of NVIDIA H200](roofline-nvidia-h200.svg)") != std::string::npos);
  CHECK(md.find("ridge at 12.5 FLOP/byte") != std::string::npos);
  CHECK(md.find("| module14/tiled_gemm: tiled | 8 | 3000 | 38400 | memory-bound at 8 % of the roof |") != std::string::npos);
  CHECK(md.find("## Notes\n\n- module14/tiled_gemm (run #12): naive_gflops") != std::string::npos);

  const nlohmann::json j = report_data_json(d);
  CHECK(j["labs"][0]["run"]["params"]["N"] == 1024);
  CHECK(j["rooflines"][0]["kernels"][0]["pct_of_roof"].get<double>() == Approx(3000.0 / 38400 * 100));
}

TEST_CASE("the machine line names driver, CUDA versions, clocks and power state, or says not recorded", "[report][machine]") {
  RunMachine m;
  CHECK(machine_text(m) == "not recorded");
  CHECK(machine_facts(m).missing == std::vector<std::string>{"driver, CUDA version, clocks and power state"});
  CHECK(machine_json(m)["driver"].is_null());

  m.recorded = true;
  m.driver = "580.159.04";
  m.cuda_driver = "13.0";
  m.toolkit = "13.0";
  m.clocks = true;
  m.sm_mhz = 1980;
  m.max_sm_mhz = 1980;
  m.mem_mhz = 3201;
  m.power_w = 121.37;
  m.power_limit_w = 700;
  m.pstate = "P0";
  CHECK(machine_text(m) == "driver 580.159.04, CUDA 13.0 (driver), CUDA toolkit 13.0 (nvcc), "
                           "SM 1980 MHz (max 1980), memory 3201 MHz, 121.37 W of a 700 W limit, power state P0");
  m.power_source = "battery";
  m.throttled = true;
  m.reason_names = "sw_power_cap";
  CHECK(machine_text(m).find(", throttled (sw_power_cap), on battery") != std::string::npos);
  // An older driver: no CUDA version field, no power limit.
  m.cuda_driver.clear();
  m.power_limit_w.reset();
  CHECK(machine_text(m).find("121.37 W (limit not recorded)") != std::string::npos);
  CHECK(machine_text(m).find("; not recorded: the driver's CUDA version") != std::string::npos);
  CHECK(machine_json(m)["power_limit_w"].is_null());
  CHECK(machine_json(m)["driver"] == "580.159.04");

  ReportData d;
  MachineLine line;
  line.gpu = "NVIDIA H200";
  line.arches = {"sm_90"};
  line.run_id = 12;
  line.run_at = "2026-11-30T09:00:00.000Z";
  line.machine = m;
  line.recorded = {"driver 580.159.04", "power state P0"};
  d.machines.push_back(line);
  const std::string md = render_markdown(d);
  CHECK(md.find("- **NVIDIA H200**, compiled for sm_90.\n  With run #12 (2026-11-30 09:00 UTC): driver 580.159.04, power state P0.\n") !=
        std::string::npos);
  CHECK(md.find("Not recorded in the journal") == std::string::npos);
  CHECK(report_data_json(d)["machines"][0]["machine"]["driver"] == "580.159.04");
}

TEST_CASE("render_markdown: what the learner typed and what a lab reported is escaped (no HTML, no links)", "[report]") {
  ReportData d;
  LabEvidence e;
  e.lab = "module14/tiled_gemm";
  e.run = run(3, "pass");
  e.run.params = "{}";
  e.metrics = {metric_row("ms<img src=x onerror=alert(1)>", "ms", 1)};
  PredictionRow p;
  p.id = "speedup";
  p.answer = "[click](javascript:alert(1)) | <b>";
  p.recorded_at = "2026-11-29T10:00:00.000Z";
  e.predictions = {p};
  e.explanations = {{"<script>alert(1)</script>\n[x](javascript:alert(2)) & `code` \\ <javascript:alert(3)>",
                     "2026-11-30T09:05:00Z", 3, ""}};
  d.labs.push_back(e);
  d.notes.push_back("<iframe src=x>");
  const std::string md = render_markdown(d);
  INFO(md);
  for (const char* raw : {"<script", "<img", "<b>", "<iframe", "<javascript:", "[click]", "[x]"})
    CHECK(md.find(raw) == std::string::npos);
  // A link needs an unescaped "](": each one left is "\\](", a literal bracket.
  for (std::size_t at = md.find("]("); at != std::string::npos; at = md.find("](", at + 1)) {
    INFO("at " << at);
    CHECK((at > 0 && md[at - 1] == '\\'));
  }
  CHECK(md.find("> &lt;script&gt;alert(1)&lt;/script&gt;\n") != std::string::npos);
  CHECK(md.find("> \\[x\\](javascript:alert(2)) &amp; \\`code\\` \\\\ &lt;javascript:alert(3)&gt;\n") != std::string::npos);
  CHECK(md.find("| speedup | \\[click\\](javascript:alert(1)) \\| &lt;b&gt; |") != std::string::npos);
  CHECK(md.find("| ms&lt;img src=x onerror=alert(1)&gt; |") != std::string::npos);
  CHECK(md.find("- &lt;iframe src=x&gt;") != std::string::npos);
}

TEST_CASE("scope_to_project: the topic modules' measured labs and the given ledger, nothing not run", "[report][project]") {
  ReportData d;
  auto lab = [](const std::string& id, const std::string& verdict, const std::string& gpu, bool measured) {
    LabEvidence e;
    e.lab = id;
    e.run.verdict = verdict;
    e.run.device = gpu;
    if (measured) e.metrics.push_back(MetricRow{});
    return e;
  };
  d.labs = {lab("module14/tiled_gemm", "pass", "Tesla T4", true), lab("module16/streams_pipeline", "pass", "RTX 3050", true),
            lab("module20/wmma_gemm", "not_run", "", false)};
  for (const char* gpu : {"Tesla T4", "RTX 3050"}) {
    MachineLine m;
    m.gpu = gpu;
    d.machines.push_back(m);
  }
  LedgerEntry e;
  e.lab = "experiment llm_bf16";
  e.module = kLedgerProject;
  e.log2_ratio = 0.5;
  scope_to_project(d, {14, 20, 21, 22}, build_ledger({e}));
  CHECK(d.scope == "project");
  REQUIRE(d.labs.size() == 1);  // module 16 is no topic; module 20's run was built, not run
  CHECK(d.labs[0].lab == "module14/tiled_gemm");
  REQUIRE(d.machines.size() == 1);
  CHECK(d.machines[0].gpu == "Tesla T4");
  CHECK(d.ledger_svg == "ledger.svg");
  CHECK(d.ledger.entries.size() == 1);
}
