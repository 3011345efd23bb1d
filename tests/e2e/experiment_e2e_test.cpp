// End-to-end tests of `workbook experiment new|run|show|list` and the report's
// experiments section, driven by the stand-in training program
// (tests/fixtures/experiment/fake_train.cpp): two variants that train, one that fails,
// one that hangs past the time limit, one that prints nothing, one that prints garbage.
#include <cstdlib>

#include "e2e_support.hpp"
#include "exec/process.hpp"
#include "slurm_ready.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_value;
using e2e::slurm_ready;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// An experiment over the fixture program: `slow` (100 ms steps) against `fast` (50 ms),
// plus a third variant running `third` (a mode of fake_train) when given.
std::string experiment_yaml(const std::string& third = "", int repeats = 2, int timeout_s = 30) {
  const std::string prog = WORKBOOK_EXPERIMENT_FIXTURE;
  std::string y = "format_version: 1\ntitle: fixture\nrepeats: " + std::to_string(repeats) +
                  "\ntimeout_s: " + std::to_string(timeout_s) + "\nvariants:\n" +
                  "  - {name: slow, command: [" + prog + ", train, --ms, '100']}\n" +
                  "  - {name: fast, command: [" + prog + ", train, --ms, '50', --loss, '4.4']}\n";
  if (!third.empty()) y += "  - {name: odd, command: [" + prog + ", " + third + "]}\n";
  y += R"(metrics:
  - {name: train_loss, pattern: 'train loss ([0-9.]+)', summary: last}
  - {name: step_ms, pattern: '\(([0-9.]+) ms', unit: ms, skip: 1}
  - {name: val_loss, pattern: 'val loss ([0-9.]+)', per: once}
predictions:
  - {name: speedup, unit: x, question: "How many times faster is fast?", measured: slow.step_ms / fast.step_ms}
)";
  return y;
}

// How many experiment runs the journal holds ("0" when there is no journal yet).
std::string experiment_runs_recorded(const FixtureCourse& c) {
  return fs::exists(c.journal()) ? journal_value(c.journal(), "SELECT COUNT(*) FROM experiment_runs") : "0";
}

void write_experiment(const FixtureCourse& c, const std::string& name, const std::string& text) {
  e2e::write_file(c.workspace / "experiments" / (name + ".yaml"), text);
}

}  // namespace

TEST_CASE("experiment new writes a commented llm.c example and never overwrites", "[e2e][experiment]") {
  FixtureCourse c;
  CommandResult r = c.run({"experiment", "new", "llm_bf16"});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  const fs::path file = c.workspace / "experiments/llm_bf16.yaml";
  const std::string text = e2e::read_file(file);
  CHECK(text.find("train_gpt2cu") != std::string::npos);
  CHECK(text.find("# ") != std::string::npos);
  e2e::write_file(file, text + "# mine\n");
  r = c.run({"experiment", "new", "llm_bf16"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("exists already") != std::string::npos);
  CHECK(e2e::read_file(file).find("# mine") != std::string::npos);
  CHECK(c.run({"experiment", "new", "../x"}).exit_code == 2);
  r = c.run({"experiment", "list"});
  CHECK(r.out.find("llm_bf16") != std::string::npos);
}

TEST_CASE("experiment run: predictions first, variants measured, show side by side", "[e2e][experiment]") {
  FixtureCourse c;
  write_experiment(c, "cmp", experiment_yaml());
  CommandResult r = c.run({"experiment", "run", "cmp"});  // no terminal, no -p, no --no-predict
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("-p speedup=VALUE") != std::string::npos);
  CHECK(experiment_runs_recorded(c) == "0");
  CHECK(c.run({"experiment", "run", "cmp", "-p", "speedup=fast"}).exit_code == 2);  // not a number

  json j = c.run_json({"experiment", "run", "cmp", "-p", "speedup=1.5", "--json", "--explain", "half the work per step"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(j["status"] == "done");
  json slow = e2e::find_by(j["variants"], "name", "slow");
  json fast = e2e::find_by(j["variants"], "name", "fast");
  CHECK(slow["repeats_ok"] == 2);
  CHECK(slow["figures"]["step_ms"]["median"].get<double>() == Approx(101).margin(1));  // the warm-up step skipped
  CHECK(fast["figures"]["step_ms"]["ratio_to_baseline"].get<double>() == Approx(0.5).epsilon(0.01));
  CHECK(fast["figures"]["val_loss"]["median"].get<double>() == Approx(4.0));
  CHECK(slow["curves"]["train_loss"].size() == 10);
  const json& p = j["predictions"][0];
  CHECK(p["answer"] == "1.5");
  CHECK(p["measured"].get<double>() == Approx(2).epsilon(0.01));
  CHECK(p["band"] == "within 2x");
  CHECK(journal_value(c.journal(), "SELECT COUNT(*) FROM experiment_results") == "4");
  CHECK(journal_value(c.journal(), "SELECT answer FROM experiment_predictions") == "1.5");
  // The predictions were written before the first result.
  CHECK(journal_value(c.journal(), "SELECT p.recorded_at <= MIN(x.recorded_at) FROM experiment_predictions p, "
                                   "experiment_results x") == "1");
  CHECK(journal_value(c.journal(), "SELECT text FROM experiment_explanations") == "half the work per step");

  r = c.run({"experiment", "show", "cmp"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("slow (baseline)") != std::string::npos);
  CHECK(r.out.find("fast / slow") != std::string::npos);
  CHECK(r.out.find("0.5x") != std::string::npos);
  CHECK(r.out.find("predicted 1.5 (made ") != std::string::npos);
  CHECK(r.out.find("with this run, before any measurement), measured 2 x — within 2x") != std::string::npos);
  CHECK(r.out.find("Machine: Tesla T4") != std::string::npos);
  CHECK(r.out.find("half the work per step") != std::string::npos);
  CHECK(c.run_json({"experiment", "show", "cmp", "--json"})["run_id"] == j["run_id"]);
  CHECK(c.run({"experiment", "show", "nope"}).exit_code == 2);

  // A second run: the first prediction stays the scored one (issue 36), shown with its run.
  const json first_run = j["run_id"];
  j = c.run_json({"experiment", "run", "cmp", "--no-predict", "--json"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(j["predictions"][0]["answer"] == "1.5");
  CHECK(j["predictions"][0]["answer_run_id"] == first_run);
  CHECK(j["explanations"].empty());  // the first run's explanation stays with the first run
  // A third with -p for it: not asked, kept as a later answer, never scored.
  r = c.run({"experiment", "run", "cmp", "-p", "speedup=9", "--explain", "measured first"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("speedup=9: kept as a later answer") != std::string::npos);
  CHECK(r.out.find("predicted 1.5 (made ") != std::string::npos);
  CHECK(r.out.find("with experiment run #" + first_run.dump() + ", before any measurement), measured 2 x") != std::string::npos);
  CHECK(r.out.find("later answer with this run: 9 (not scored)") != std::string::npos);
  j = c.run_json({"experiment", "list", "--json"});
  CHECK(j["runs"].size() == 3);
  // An explanation added to the first run after it ended: a new record, the run unchanged.
  const std::string ended = journal_value(c.journal(), "SELECT finished_at FROM experiment_runs WHERE id=" + first_run.dump());
  r = c.run({"experiment", "explain", "cmp", "--run", first_run.dump(), "the steps halve: half the work"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Kept with experiment run #" + first_run.dump()) != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT finished_at FROM experiment_runs WHERE id=" + first_run.dump()) == ended);
  j = c.run_json({"experiment", "show", "cmp", "--run", first_run.dump(), "--json"});
  REQUIRE(j["explanations"].size() == 2);
  CHECK(j["explanations"][1]["text"] == "the steps halve: half the work");
  CHECK(c.run({"experiment", "explain", "cmp", "--run", "999", "x"}).exit_code == 2);
  CHECK(c.run({"experiment", "explain", "cmp"}).exit_code == 2);  // no text and no terminal to ask on
}

TEST_CASE("experiment run: a failing variant, a hang past the limit, nothing, garbage", "[e2e][experiment]") {
  FixtureCourse c;
  write_experiment(c, "fails", experiment_yaml("fail"));
  CommandResult r = c.run({"experiment", "run", "fails", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(r.err.find("odd (repeat 1) exited with code 3") != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT status FROM experiment_runs") == "failed");
  // The failing variant is not repeated; the others still ran twice.
  CHECK(journal_value(c.journal(), "SELECT COUNT(*) FROM experiment_results WHERE variant='odd'") == "1");
  CHECK(journal_value(c.journal(), "SELECT COUNT(*) FROM experiment_results WHERE outcome='ok'") == "4");
  CHECK(r.out.find("odd: repeat 1: odd (repeat 1) exited with code 3") != std::string::npos);

  write_experiment(c, "hangs", experiment_yaml("hang", 1));
  r = c.run({"experiment", "run", "hangs", "--no-predict", "--timeout", "2"}, {}, 60);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(r.wall_s < 30);
  CHECK(r.err.find("timed out after 2 s") != std::string::npos);

  write_experiment(c, "empty", experiment_yaml("nothing", 1));
  r = c.run({"experiment", "run", "empty", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("metric 'train_loss': the pattern 'train loss ([0-9.]+)' matched nothing in the output of odd "
                   "(repeat 1); the output was empty") != std::string::npos);

  write_experiment(c, "junk", experiment_yaml("garbage", 1));
  json j = c.run_json({"experiment", "run", "junk", "--no-predict", "--json"}, &r);
  CHECK(r.exit_code == 2);
  CHECK(j["status"] == "no_metrics");
  CHECK(j["detail"].get<std::string>().find("| %$#@! no training here") != std::string::npos);
  CHECK(e2e::find_by(j["variants"], "name", "fast")["repeats_ok"] == 1);  // the others still measured

  write_experiment(c, "lost", "format_version: 1\nvariants:\n  - {name: a, command: /no/such/program}\n"
                              "  - {name: b, command: /no/such/program}\nmetrics:\n  - {name: m, pattern: '(1)'}\n");
  r = c.run({"experiment", "run", "lost", "--no-predict"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("variant a:") != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT status FROM experiment_runs WHERE experiment='lost'") == "not_run");

  write_experiment(c, "bad", "format_version: 1\nrepeats: 0\nvariants: 3\nmetrics: []\n");
  r = c.run({"experiment", "run", "bad", "--no-predict"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("experiments/bad.yaml:2: repeats: must be from 1 to 100") != std::string::npos);
  CHECK(r.err.find("experiments/bad.yaml:3: variants: must be a list") != std::string::npos);
}

TEST_CASE("experiment: the report shows it with an SVG loss curve per variant", "[e2e][experiment][report]") {
  FixtureCourse c;
  write_experiment(c, "cmp", experiment_yaml("", 1));
  REQUIRE(c.run({"experiment", "run", "cmp", "-p", "speedup=4", "--explain", "fewer bytes"}).exit_code == 0);
  // A re-run after the measurement: the report keeps the first, blind prediction and the
  // first run's explanation with the first run's figures (issue 36).
  REQUIRE(c.run({"experiment", "run", "cmp", "-p", "speedup=2", "--explain", "now I know"}).exit_code == 0);
  const fs::path out = c.tmp.path / "report";
  CommandResult r = c.run({"report", "--out", out.string()});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  const std::string md = e2e::read_file(out / "report.md");
  CHECK(md.find("## Experiments") != std::string::npos);
  CHECK(md.find("### cmp: fixture") != std::string::npos);
  CHECK(md.find("fast / slow") != std::string::npos);
  CHECK(md.find("predicted 4 (made ") != std::string::npos);
  CHECK(md.find("with experiment run #1, before any measurement)") != std::string::npos);
  CHECK(md.find("later answer with this run: 2 (not scored)") != std::string::npos);
  CHECK(md.find("Explanation given with experiment run #2:\n\n> now I know") != std::string::npos);
  CHECK(md.find("#### cmp: experiment run #1") != std::string::npos);
  CHECK(md.find("Explanation given with experiment run #1:\n\n> fewer bytes") != std::string::npos);
  CHECK(md.find("![experiment-cmp-train_loss.svg](experiment-cmp-train_loss.svg)") != std::string::npos);
  const std::string svg = e2e::read_file(out / "experiment-cmp-train_loss.svg");
  CHECK(svg.find("data-series=\"slow\"") != std::string::npos);
  CHECK(svg.find("data-series=\"fast\"") != std::string::npos);
  CHECK(svg.find("class=\"series\"") != std::string::npos);
  CHECK(fs::exists(out / "experiment-cmp-step_ms.svg"));
  CHECK_FALSE(fs::exists(out / "experiment-cmp-val_loss.svg"));  // once: no curve
}

TEST_CASE("experiment run --slurm-dry-run prints the batch script", "[e2e][experiment][slurm]") {
  FixtureCourse c;
  write_experiment(c, "cmp", experiment_yaml());
  CommandResult r = c.run({"experiment", "run", "cmp", "--slurm-dry-run", "--no-predict", "--trace", "--time", "20"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("#SBATCH --time=20") != std::string::npos);
  CHECK(r.out.find("#SBATCH --gres=gpu:1") != std::string::npos);
  CHECK(r.out.find("experiment run cmp --slurm-continue RUN_ID --trace") != std::string::npos);
  // The header names the experiment's command and what the node does, not a lab run's.
  CHECK(r.out.find("submitted with `workbook experiment run --slurm`") != std::string::npos);
  CHECK(r.out.find("runs every variant, reads its metrics") != std::string::npos);
  CHECK(r.out.find("grades") == std::string::npos);
  CHECK(experiment_runs_recorded(c) == "0");
  CHECK(c.run({"experiment", "run", "cmp", "--no-predict", "--partition", "gpu"}).exit_code == 2);
}

TEST_CASE("experiment run --slurm measures on the compute node and shows on the login node", "[e2e][experiment][slurm][slow]") {
  if (!slurm_ready()) return;
  FixtureCourse c;
  e2e::write_file(c.workspace / "slurm.yaml", "poll_s: 1\ngres: none\n");
  write_experiment(c, "cmp", experiment_yaml("", 1));
  CommandResult r = c.run({"experiment", "run", "cmp", "--slurm", "-p", "speedup=2", "--json", "--time", "5"}, {}, 240);
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["status"] == "done");
  CHECK(!j["slurm_job"].get<std::string>().empty());
  CHECK(j["gpu"].get<std::string>().find("Tesla T4") == 0);
  CHECK(e2e::find_by(j["variants"], "name", "fast")["repeats_ok"] == 1);
  CHECK(j["predictions"][0]["answer"] == "2");
  const std::string id = std::to_string(j["run_id"].get<long long>());
  CHECK(fs::exists(c.workspace / ".workbook/slurm" / ("experiment-" + id) / "job.sh"));
  CHECK(journal_value(c.journal(), "SELECT slurm_job FROM experiment_runs WHERE id=" + id) == j["slurm_job"]);

  // A variant that fails on the node: the login node reports it (exit 4).
  write_experiment(c, "fails", experiment_yaml("fail", 1));
  r = c.run({"experiment", "run", "fails", "--slurm", "--no-predict", "--time", "5"}, {}, 240);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(r.err.find("odd (repeat 1) exited with code 3") != std::string::npos);
}

TEST_CASE("experiment run records the clocks read after its repeats, not the idle clock before them",
          "[e2e][experiment]") {
  FixtureCourse c;
  write_experiment(c, "cmp", experiment_yaml("", 1));
  // A fake nvidia-smi: the first reading is an idle GPU's 345 MHz, every later one the
  // 1590 MHz the repeats ran at (the H200 showed 345 MHz before its first repeat).
  const std::string path = e2e::path_with_fake_nvidia_smi(c.tmp.path / "smi-bin",
                                                          "n=$(cat \"$0.count\" 2>/dev/null || echo 0); echo $((n + 1)) > \"$0.count\"\n"
                                                          "clock=1590; [ \"$n\" = 0 ] && clock=345\n",
                                                          "echo \"$clock, 5001, 1590, 5001, 0x0000000000000000, 40, 60.5, P0\"\n");
  CommandResult r = c.run({"experiment", "run", "cmp", "--no-predict", "--json"}, {{"PATH", path}});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["machine"]["sm_mhz"].get<double>() == Approx(1590));
  r = c.run({"experiment", "show", "cmp"}, {{"PATH", path}});
  CHECK(r.out.find("SM 1590 MHz (max 1590)") != std::string::npos);
  CHECK(r.out.find("SM 345 MHz") == std::string::npos);
}

namespace {

// Two variants running one shell line each, and one metric.
std::string shell_experiment(const std::string& line, const std::string& pattern, const std::string& per = "once") {
  return "format_version: 1\nrepeats: 1\ntimeout_s: 60\nvariants:\n  - name: a\n    command: [sh, -c, \"" + line +
         "\"]\n  - name: b\n    command: [sh, -c, \"" + line + "\"]\nmetrics:\n  - {name: m, pattern: '" + pattern +
         "', per: " + per + "}\n";
}

}  // namespace

TEST_CASE("experiment run: patterns in linear time, the whole output read, the last figure wins",
          "[e2e][experiment]") {
  FixtureCourse c;
  // Nested repetition on a line of 36 'a's: std::regex never returned, after the programs ended.
  write_experiment(c, "nested", shell_experiment("printf '%036d\\\\n' 0 | tr 0 a; echo aab7", "(?:a+)+b([0-9])"));
  CommandResult r = c.run({"experiment", "run", "nested", "--no-predict"}, {}, 60);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.wall_s < 20);
  CHECK(journal_value(c.journal(), "SELECT readings FROM experiment_results WHERE variant='a'") == R"({"m":[7.0]})");

  // A figure printed early and again after 5 MB: the last one is read, not the early one.
  write_experiment(c, "late", shell_experiment("echo val loss 9.9; yes xxxxxxxxxxxxxxx | head -c 5000000; echo val loss 1.0",
                                               "val loss ([0-9.]+)"));
  r = c.run({"experiment", "run", "late", "--no-predict"}, {}, 60);
  SHOW(r);
  CHECK(r.exit_code == 0);
  const std::string last = "SELECT readings FROM experiment_results WHERE variant='b' ORDER BY id DESC LIMIT 1";
  CHECK(journal_value(c.journal(), last) == R"({"m":[9.9,1.0]})");
}
