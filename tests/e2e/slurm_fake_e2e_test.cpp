// End-to-end tests of `workbook run --slurm` against fake Slurm tools on PATH (bash
// scripts standing in for sbatch, squeue, scontrol and scancel), for what a real
// cluster does rarely or not on demand: a job that starts before sbatch has answered,
// sbatch printing banner lines or no job id at all, the login node ending a run while
// its node still runs it, a deleted current folder. tests/e2e/slurm_e2e_test.cpp drives
// a real Slurm.
//
// The fake tools and their modes: tests/support/fake_slurm_tools.hpp.
#include <cstdlib>

#include "e2e_support.hpp"
#include "exec/process.hpp"

#include "../support/fake_slurm_tools.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_value;
using e2e::with_args;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A course whose PATH finds the fake tools first.
struct FakeSlurm {
  FixtureCourse c;
  fs::path bin, state;
  FakeSlurm() : bin(c.tmp.path / "fake-bin"), state(c.tmp.path / "fake-state") {
    wbtest::write_fake_slurm_tools(bin);
    fs::create_directories(state);
    e2e::write_file(c.workspace / "slurm.yaml", "poll_s: 0.2\n");
  }
  std::map<std::string, std::string> env(const std::string& mode) const {
    const char* path = std::getenv("PATH");
    return {{"PATH", bin.string() + ":" + (path ? path : "/usr/bin:/bin")},
            {"FAKE_SLURM_STATE", state.string()},
            {"FAKE_SBATCH", mode}};
  }
  CommandResult run(const std::vector<std::string>& args, const std::string& mode, double limit_s = 60) const {
    return c.run(args, env(mode), limit_s);
  }
  std::string sql(const std::string& query) const { return journal_value(c.journal(), query); }
};

const std::vector<std::string> kPredicted = {"run", "module01/pass_lab", "--slurm", "--predict", "count_guess=900",
                                             "--predict", "kind=1", "--predict", "big=yes"};

}  // namespace

TEST_CASE("e2e fake slurm: a job that runs before sbatch answers, behind banner lines, is followed and graded",
          "[e2e][slurm]") {
  FakeSlurm f;
  CommandResult r = f.run(with_args(kPredicted, {"--json"}), "sync");
  SHOW(r);
  CHECK(r.exit_code == 0);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["verdict"] == "pass");
  CHECK(j["slurm"]["job_id"] == "100");
  CHECK(j["slurm"]["state"] == "COMPLETED");
  CHECK(f.sql("SELECT job_id FROM slurm_jobs") == "100");
  CHECK(f.sql("SELECT verdict FROM runs") == "pass");
  CHECK(f.sql("SELECT COUNT(*) FROM prediction_grades") == "3");
  CHECK(e2e::read_file(f.state / "name-100") == "wb-pass_lab-1\n");  // one job name per run
}

TEST_CASE("e2e fake slurm: squeue failing for a while is asked again, not taken for the job's end",
          "[e2e][slurm]") {
  FakeSlurm f;
  auto env = f.env("background");
  env["FAKE_SQUEUE_SILENT"] = "4";
  CommandResult r = f.c.run(with_args(kPredicted, {"--json"}), env, 60);
  SHOW(r);
  CHECK(r.exit_code == 0);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["verdict"] == "pass");
  CHECK(j["slurm"]["state"] == "COMPLETED");
  CHECK(std::stoi(e2e::read_file(f.state / "asked-100")) > 4);
  CHECK(f.sql("SELECT verdict FROM runs") == "pass");
}

TEST_CASE("e2e fake slurm: sbatch printing no job id loses no job", "[e2e][slurm]") {
  FakeSlurm f;
  {  // The job ran, and Slurm knows it by its name: followed as usual.
    CommandResult r = f.run(with_args(kPredicted, {"--json"}), "silent-sync");
    SHOW(r);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("printed no job id; Slurm knows it by its name wb-pass_lab-1 as job 100") != std::string::npos);
    CHECK(f.sql("SELECT job_id FROM slurm_jobs WHERE run_id = 1") == "100");
    CHECK(f.sql("SELECT verdict FROM runs WHERE id = 1") == "pass");
  }
  {  // Nothing found: said so, with_args how to find and cancel it; the run stays open for its node.
    CommandResult r = f.run(kPredicted, "silent");
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("sbatch accepted the job but printed no job id") != std::string::npos);
    CHECK(r.err.find("sbatch printed nothing") != std::string::npos);
    CHECK(r.err.find("run #2 is recorded with your predictions and stays open") != std::string::npos);
    CHECK(r.err.find("squeue -u \"$USER\" -n wb-pass_lab-2") != std::string::npos);
    CHECK(r.err.find("scancel -u \"$USER\" -n wb-pass_lab-2") != std::string::npos);
    CHECK(f.sql("SELECT COALESCE(verdict, 'open') FROM runs WHERE id = 2") == "open");
    CHECK(f.sql("SELECT COUNT(*) FROM predictions WHERE run_id = 2") == "3");
    CHECK(f.sql("SELECT job_id = '' FROM slurm_jobs WHERE run_id = 2") == "1");
    CHECK(fs::is_regular_file(f.sql("SELECT script FROM slurm_jobs WHERE run_id = 2")));
  }
  {  // A refused job: not run, predictions kept, no job recorded.
    CommandResult r = f.run({"run", "module01/pass_lab", "--slurm", "--no-predict"}, "refuse");
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("sbatch refused the job: sbatch: error: invalid partition") != std::string::npos);
    CHECK(f.sql("SELECT verdict FROM runs WHERE id = 3") == "not_run");
    CHECK(f.sql("SELECT COUNT(*) FROM slurm_jobs WHERE run_id = 3") == "0");
  }
}

TEST_CASE("e2e fake slurm: the node does not overwrite a run the login node has ended", "[e2e][slurm]") {
  FakeSlurm f;
  e2e::Spawned login(f.c, {"run", "module01/hang_lab", "--slurm", "--no-predict", "--timeout", "3", "--json"}, false, {},
                     {}, f.env("background"));
  login.stop_signal = SIGINT;
  const fs::path out = f.c.workspace / ".workbook/slurm/run-1/job.out";
  for (int i = 0; i < 200 && e2e::read_file(out).find("Running (time limit") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  INFO(e2e::read_file(login.out_file) << e2e::read_file(login.err_file) << e2e::read_file(out));
  REQUIRE(e2e::read_file(out).find("Running (time limit") != std::string::npos);
  e2e::write_file(f.state / "cancel-100", "");  // Slurm says CANCELLED while the node still runs the lab
  CommandResult r;
  e2e::wait_child(login.pid, 60, r);
  login.pid = -1;
  CHECK(r.exit_code == 130);
  CHECK(f.sql("SELECT verdict FROM runs WHERE id = 1") == "interrupted");
  // The node's lab times out (--timeout 3) after that: it must leave the record alone.
  for (int i = 0; i < 200 && !fs::exists(f.state / "exit-100"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(fs::exists(f.state / "exit-100"));
  const std::string job_out = e2e::read_file(out);
  INFO(job_out);
  CHECK(job_out.find("run #1 has already ended (interrupted") != std::string::npos);
  CHECK(f.sql("SELECT verdict FROM runs WHERE id = 1") == "interrupted");
  CHECK(f.sql("SELECT detail FROM runs WHERE id = 1").find("cancelled") != std::string::npos);
  CHECK(f.sql("SELECT COUNT(*) FROM checks WHERE run_id = 1") == "0");
}

TEST_CASE("e2e fake slurm: a deleted current folder is refused before anything is recorded", "[e2e][slurm]") {
  FakeSlurm f;
  const fs::path gone = f.c.tmp.path / "gone";
  for (const char* flag : {"--slurm", "--slurm-dry-run"}) {
    fs::create_directories(gone);
    workbook::ProcessOptions opt;
    opt.argv = {"bash", "-c", "cd \"$1\" && rmdir \"$1\" && shift && exec \"$@\"", "bash", gone.string(),
                WORKBOOK_BINARY, "run", "module01/pass_lab", flag, "--predict", "count_guess=900"};
    for (const auto& kv : f.c.env(f.env("sync"))) opt.env.push_back(kv);
    opt.timeout_s = 60;
    const workbook::ProcessResult r = workbook::run_process(opt);
    INFO(flag << "\n" << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("the current folder no longer exists") != std::string::npos);
    CHECK(r.err.find("cd to a folder that exists") != std::string::npos);
    CHECK((!fs::exists(f.c.journal()) || f.sql("SELECT COUNT(*) FROM runs") == "0"));
  }
  CHECK_FALSE(fs::exists(f.state / "next"));  // nothing was submitted
}

TEST_CASE("e2e fake slurm: an experiment's job has the lab's job life", "[e2e][slurm][experiment]") {
  FakeSlurm f;
  e2e::write_file(f.c.workspace / "experiments/cmp.yaml", R"(format_version: 1
title: two echoes
repeats: 1
timeout_s: 30
variants:
  - {name: a, command: [/bin/echo, 'loss 3.0']}
  - {name: b, command: [/bin/echo, 'loss 1.5']}
metrics:
  - {name: loss, pattern: 'loss ([0-9.]+)', summary: last}
predictions:
  - {name: ratio, unit: x, question: "How much lower is b's loss?", measured: a.loss / b.loss}
)");
  const std::vector<std::string> run = {"experiment", "run", "cmp", "--slurm", "-p", "ratio=2"};
  {  // The job runs before sbatch answers: its node finds the run (it failed as "not submitted" before).
    CommandResult r = f.run(with_args(run, {"--json"}), "sync");
    SHOW(r);
    CHECK(r.exit_code == 0);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["status"] == "done");
    CHECK(j["slurm_job"] == "100");
    CHECK(e2e::read_file(f.state / "name-100") == "wb-exp-cmp-1\n");  // one job name per run
  }
  {  // sbatch prints no id: the job is found by its name (the run was ended as not_run before).
    CommandResult r = f.run(run, "silent-sync");
    SHOW(r);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("Slurm knows it by its name wb-exp-cmp-2 as job 101") != std::string::npos);
    CHECK(r.out.find("Submitted Slurm job 101 for experiment run #2") != std::string::npos);
    CHECK(f.sql("SELECT status || ' ' || slurm_job FROM experiment_runs WHERE id = 2") == "done 101");
  }
  {  // A refused job: not run, its prediction kept.
    CommandResult r = f.run(run, "refuse");
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(f.sql("SELECT status FROM experiment_runs WHERE id = 3") == "not_run");
    CHECK(f.sql("SELECT detail FROM experiment_runs WHERE id = 3").find("invalid partition") != std::string::npos);
    CHECK(f.sql("SELECT COUNT(*) FROM experiment_predictions WHERE experiment_run_id = 3") == "1");
  }
  for (const char* flag : {"--slurm", "--slurm-dry-run"}) {  // a bad -p value is refused before anything
    CommandResult r = f.run({"experiment", "run", "cmp", flag, "-p", "ratio=abc"}, "sync");
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("ratio") != std::string::npos);
    CHECK(f.sql("SELECT COUNT(*) FROM experiment_runs") == "3");
  }
}
