// The one decider (grade/decide.hpp): a table of a run's facts to its verdict and reason,
// and every precedence pair: with the facts of two rows together, the higher row decides.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "grade/decide.hpp"

using namespace workbook;

namespace {

// Facts with the checks and figures they point at (RunFacts holds spans).
struct Case {
  RunFacts facts;
  std::vector<CheckGrade> checks;
  std::vector<MetricGrade> metrics;
  Decision decided() {
    facts.checks = checks;
    facts.metrics = metrics;
    return decide(facts);
  }
};

MetricGrade figure(const std::string& name, double value, RangeStatus status) {
  MetricGrade m;
  m.name = name;
  m.unit = "ms";
  m.value = value;
  m.lo = 0.5;
  m.hi = 2;
  m.status = status;
  return m;
}

// A lab that ran, passed its one check, and measured its one figure in range.
Case passing_run() {
  Case c;
  c.facts.lab_id = "module14/tiled_gemm";
  ProcessFacts p;
  p.outcome.exit_code = 0;
  p.lab_timeout_s = 60;
  p.ended = true;
  p.end_pass = true;
  c.facts.process = p;
  c.checks = {{"result_ok", true, true, true, std::nullopt, std::nullopt, "", false}};
  c.metrics = {figure("kernel_ms", 1, RangeStatus::in_range)};
  return c;
}

ProcessFacts& process(Case& c) { return *c.facts.process; }

struct Row {
  const char* name;
  std::function<void(Case&)> apply;
  Verdict verdict;
  std::string reason;
};

// Highest first: the order decide.hpp states.
const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      {"slurm cancelled here", [](Case& c) { c.facts.slurm = SlurmFacts{"9", "CANCELLED", "", "", "", "job.out", true, std::string("pass"), true, "", "", ""}; },
       Verdict::interrupted, "cancelled on the login node (Slurm job 9, scancel)"},
      {"interrupted", [](Case& c) { c.facts.interrupted = "interrupted (Ctrl-C) after 2.0 s"; }, Verdict::interrupted,
       "interrupted (Ctrl-C) after 2.0 s"},
      {"compile error", [](Case& c) { c.facts.build_failed = BuildFailure{"labs/module14/tiled_gemm.cu", "x.cu:3: error", "", ""}; },
       Verdict::compile_error, "the compiler rejected the lab"},
      {"not started", [](Case& c) { c.facts.not_started = "sbatch: error: invalid partition"; }, Verdict::not_run,
       "sbatch: error: invalid partition"},
      {"no GPU", [](Case& c) { c.facts.no_gpu = true; }, Verdict::not_run,
       "no NVIDIA GPU was found (nvidia-smi lists none), so the lab was compiled but not run"},
      {"profiler could not measure", [](Case& c) { c.facts.profiler.not_run = "ncu may not read the counters"; },
       Verdict::not_run, "ncu may not read the counters"},
      {"timeout", [](Case& c) { process(c).outcome.timed_out = true; process(c).outcome.timeout_s = 10; },
       Verdict::timeout, "the lab did not finish within 10 s"},
      {"exit 3", [](Case& c) { process(c).outcome.exit_code = 3; process(c).outcome.last_line = "needs torch"; },
       Verdict::not_run, "the lab could not run: needs torch"},
      {"killed by a signal", [](Case& c) { process(c).outcome.exit_code = -1; process(c).outcome.signal = 11; },
       Verdict::runtime_error, "the lab was killed by signal 11"},
      {"results over the limit", [](Case& c) { process(c).ended = false; process(c).over_limit = true; }, Verdict::fail,
       "the results file is over the 16 MB limit: the runner read the first 16 MB, and the `end` record is not among "
       "them (the lab writes too many records)"},
      {"no end record", [](Case& c) { process(c).ended = false; }, Verdict::runtime_error,
       "the lab stopped before writing its results (no `end` record)"},
      {"failed check", [](Case& c) { c.checks[0].pass = false; }, Verdict::fail, "check 'result_ok' failed"},
      {"figure not reported",
       [](Case& c) {
         c.checks.push_back({kFiguresReported, true, false, true, std::nullopt, std::nullopt,
                             "the lab did not report kernel_ms as a finite number", false});
       },
       Verdict::fail, "the lab did not report kernel_ms as a finite number"},
      {"lab exited 1", [](Case& c) { process(c).outcome.exit_code = 1; }, Verdict::fail, "the lab reported a failure"},
      {"out of range", [](Case& c) { c.metrics[0] = figure("kernel_ms", 3, RangeStatus::above); }, Verdict::out_of_range,
       "correct, but kernel_ms = 3 ms is above the 2 ms this GPU should give"},
      {"warning", [](Case& c) { c.metrics.push_back(figure("copy_ms", 0.1, RangeStatus::below_warning)); }, Verdict::pass,
       "right; copy_ms is below range (warning) (1 figure with a warning: the band or the timing may be off, the "
       "result stands)"},
      {"pass", [](Case&) {}, Verdict::pass, ""},
  };
  return table;
}

// Facts that set one field (the process's exit status) and so never come together.
bool exclusive(const std::string& a, const std::string& b) {
  const std::vector<std::string> exit_status = {"exit 3", "killed by a signal", "lab exited 1"};
  auto in = [&](const std::string& x) { return std::find(exit_status.begin(), exit_status.end(), x) != exit_status.end(); };
  return in(a) && in(b);
}

Decision decided(std::initializer_list<const Row*> applied) {
  Case c = passing_run();
  for (const Row* r : applied) r->apply(c);
  return c.decided();
}

}  // namespace

TEST_CASE("decide: each fact alone gives its verdict and reason", "[decide]") {
  for (const Row& row : rows()) {
    INFO(row.name);
    const Decision d = decided({&row});
    CHECK(d.verdict == row.verdict);
    CHECK(d.reason == row.reason);
  }
}

TEST_CASE("decide: of two facts together the higher one decides, for every pair", "[decide]") {
  const auto& table = rows();
  int pairs = 0;
  for (std::size_t hi = 0; hi < table.size(); ++hi) {
    for (std::size_t lo = hi + 1; lo < table.size(); ++lo) {
      if (exclusive(table[hi].name, table[lo].name)) continue;
      INFO(table[hi].name << " over " << table[lo].name);
      // The lower one applied first, so the higher cannot win by overwriting a field.
      const Decision d = decided({&table[lo], &table[hi]});
      CHECK(d.verdict == table[hi].verdict);
      CHECK(d.reason == table[hi].reason);
      ++pairs;
    }
  }
  CHECK(pairs == 17 * 16 / 2 - 3);
}

TEST_CASE("decide: what to do next follows the verdict, a compile error keeps the compiler's output for the journal",
          "[decide]") {
  const auto& t = rows();
  auto row = [&](const std::string& name) {
    return &*std::find_if(t.begin(), t.end(), [&](const Row& r) { return r.name == name; });
  };
  const Decision compile = decided({row("compile error")});
  CHECK(compile.next_step == "fix the first error above in labs/module14/tiled_gemm.cu, then run again");
  CHECK(compile.journal_detail() == "x.cu:3: error");
  CHECK(decided({row("failed check")}).journal_detail() == "check 'result_ok' failed");
  CHECK(decided({row("killed by a signal")}).next_step.find("workbook run module14/tiled_gemm --sanitize") != std::string::npos);
  CHECK(decided({row("timeout")}).next_step.find("--timeout S") != std::string::npos);
  CHECK(decided({row("no GPU")}).next_step.find("`workbook run module14/tiled_gemm --slurm`") != std::string::npos);
  CHECK(decided({row("interrupted")}).next_step.find("your predictions are kept") != std::string::npos);
  // Without a GPU the predictions stand where the journal is: on Colab only once it travels.
  CHECK(decided({row("no GPU")}).next_step.find("`workbook journal import` there (docs/colab.md)") != std::string::npos);
  // OUT OF RANGE names the hint command that exists, not a hint it does not show.
  CHECK(decided({row("out of range")}).next_step.find("`workbook hint module14/tiled_gemm` shows the lab's next hint") !=
        std::string::npos);
  CHECK(decided({row("out of range")}).next_step.find("read the hint") == std::string::npos);
  CHECK(decided({row("pass")}).next_step.empty());
  CHECK(decided({row("not started")}).next_step.empty());

  Case toolchain = passing_run();
  toolchain.facts.build_failed = BuildFailure{"x.cu", "gcc 15 unsupported", "nvcc refuses GCC 15", "set ccbin"};
  const Decision t2 = toolchain.decided();
  CHECK(t2.reason == "nvcc refuses GCC 15");
  CHECK(t2.next_step == "set ccbin");
}

TEST_CASE("decide: a profiler's error names a failed or crashed run's cause, never another verdict's", "[decide]") {
  const std::string why = "compute-sanitizer 1 error: Invalid __global__ write of size 4 bytes at x.cu:9";
  auto with_failure = [&](const std::function<void(Case&)>& apply) {
    Case c = passing_run();
    apply(c);
    c.facts.profiler.failure = why;
    return c.decided();
  };
  for (const char* name : {"killed by a signal", "failed check", "no end record"}) {
    const Row& r = *std::find_if(rows().begin(), rows().end(), [&](const Row& x) { return x.name == std::string(name); });
    INFO(name);
    CHECK(with_failure(r.apply).reason == why);
  }
  for (const char* name : {"timeout", "out of range", "pass", "exit 3"}) {
    const Row& r = *std::find_if(rows().begin(), rows().end(), [&](const Row& x) { return x.name == std::string(name); });
    INFO(name);
    CHECK(with_failure(r.apply).reason == r.reason);
  }
}

TEST_CASE("decide: on battery an out-of-range reason says the ranges assume mains power", "[decide]") {
  Case oor = passing_run();
  oor.metrics[0] = figure("kernel_ms", 3, RangeStatus::above);
  oor.metrics.push_back(figure("copy_ms", 9, RangeStatus::above));
  oor.metrics[1].note = "copies are slow";
  oor.facts.on_battery = true;
  CHECK(oor.decided().reason ==
        "correct, but kernel_ms = 3 ms is above the 2 ms this GPU should give (and 1 more figure out of range) "
        "(on battery: ranges assume mains power)");
  Case passed = passing_run();
  passed.facts.on_battery = true;
  CHECK(passed.decided().reason.empty());
}

TEST_CASE("decide: an out-of-range reason names an exact figure, a low one and its hint", "[decide]") {
  Case c = passing_run();
  c.metrics[0] = figure("idle_threads", 3, RangeStatus::above);
  c.metrics[0].unit = "count";
  c.metrics[0].lo = c.metrics[0].hi = 0;
  CHECK(c.decided().reason == "correct, but idle_threads = 3 is not the expected 0");
  c.metrics[0] = figure("gbps", 0.25, RangeStatus::below);
  c.metrics[0].unit = "GB/s";
  c.metrics[0].note = "read rows, not columns";
  CHECK(c.decided().reason == "correct, but gbps = 0.25 GB/s is below the 0.5 GB/s this GPU should give: read rows, not columns");
}

TEST_CASE("decide: the Slurm login node keeps the node's verdict unless Slurm killed the job", "[decide][slurm]") {
  SlurmFacts s{"9", "COMPLETED", "0:0", "gpu07", "10", "/ws/job.out", false, std::string("fail"), true,
               "check 'result_ok' failed", "read the failing check's detail above", ""};
  RunFacts f;
  f.slurm = s;
  Decision node = decide(f);
  CHECK(node.verdict == Verdict::fail);
  CHECK_FALSE(node.from_slurm);
  CHECK(node.reason == "check 'result_ok' failed");
  CHECK(node.next_step == "read the failing check's detail above");
  // No report from the node: where to look instead.
  f.slurm->node_report = false;
  f.slurm->recorded_next_step.clear();
  CHECK(decide(f).next_step == "read the job's output in /ws/job.out");
  // Slurm's TIMEOUT over the node's interrupted (it forwarded Slurm's SIGTERM).
  f.slurm->state = "TIMEOUT";
  f.slurm->recorded = "interrupted";
  Decision killed = decide(f);
  CHECK(killed.from_slurm);
  CHECK(killed.verdict == Verdict::timeout);
  CHECK(killed.reason == "Slurm job 9 reached its time limit (--time 10) and was killed on gpu07");
  // A verdict the node reached first stands; an unknown name is a runtime error.
  f.slurm->recorded = "timeout";
  CHECK_FALSE(decide(f).from_slurm);
  f.slurm->state = "COMPLETED";
  f.slurm->recorded = "garbled";
  CHECK(decide(f).verdict == Verdict::runtime_error);
  // Nothing recorded: Slurm's state, whatever it is.
  f.slurm->recorded.reset();
  f.slurm->state = "FAILED";
  f.slurm->exit_code = "1:0";
  Decision failed = decide(f);
  CHECK(failed.from_slurm);
  CHECK(failed.reason == "Slurm job 9: the job ended FAILED (exit code 1:0) before the run was recorded");
}

TEST_CASE("decide: a sweep is pass when every value passed, else its first other verdict", "[decide][sweep]") {
  CHECK(combined_verdict(std::vector<Verdict>{}) == Verdict::pass);
  CHECK(combined_verdict(std::vector<Verdict>{Verdict::pass, Verdict::pass}) == Verdict::pass);
  CHECK(combined_verdict(std::vector<Verdict>{Verdict::pass, Verdict::out_of_range, Verdict::fail}) == Verdict::out_of_range);
  CHECK(combined_verdict(std::vector<Verdict>{Verdict::fail, Verdict::compile_error}) == Verdict::fail);
}

TEST_CASE("decide: every verdict's name reads back as that verdict", "[decide]") {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::out_of_range, Verdict::compile_error, Verdict::runtime_error,
                    Verdict::timeout, Verdict::interrupted, Verdict::not_run}) {
    CHECK(verdict_named(to_string(v)) == v);
  }
  CHECK_FALSE(verdict_named("PASS").has_value());
}
