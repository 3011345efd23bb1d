// End-to-end tests of `workbook run --slurm` against a real Slurm (no mock of sbatch):
// the fixture course's host-only labs are submitted, followed, graded on the "compute
// node" (localhost, sharing the workspace) and recorded with their job ids. CI starts a
// one-node cluster with scripts/ci/slurm_local.sh and sets WORKBOOK_REQUIRE_SLURM=1;
// elsewhere, without a controller to talk to, the Slurm tests print a warning and return.
//
// Speed: a job that outlives its --time needs a minute at least (Slurm's smallest limit)
// and up to 30 s more (slurmctld checks limits every 30 s); that job is submitted first
// and followed in the background while the other scenarios run, so the whole test takes
// about as long as that one job (KillWait=2 and OverTimeLimit=0 in the local cluster).
#include <sys/wait.h>

#include <cstdlib>
#include <future>

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

// The binary started without waiting for it (for Ctrl-C, and for the slow job). If the
// test ends early it gets Ctrl-C, so that it cancels its job, then SIGKILL.
struct Started : e2e::Spawned {
  Started(const FixtureCourse& c, const std::vector<std::string>& args, fs::path out, fs::path err)
      : Spawned(c, args, false, std::move(out), std::move(err)) {
    stop_signal = SIGINT;
  }
};

CommandResult finish(Started& s, double limit_s) {
  CommandResult r;
  e2e::wait_child(s.pid, limit_s, r);
  s.pid = -1;
  r.out = e2e::read_file(s.out_file);
  r.err = e2e::read_file(s.err_file);
  return r;
}

// Waits until `pred` holds (true) or `limit_s` passes (false).
template <typename F>
bool wait_until(F pred, double limit_s) {
  const auto t0 = std::chrono::steady_clock::now();
  while (!pred()) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return true;
}

std::string squeue_state(const std::string& job_id) {
  workbook::ProcessOptions opt;
  opt.argv = {"squeue", "-h", "--states=all", "-j", job_id, "-o", "%T"};
  workbook::ProcessResult r = workbook::run_process(opt);
  return r.exited_ok() ? r.out.substr(0, r.out.find('\n')) : "";
}

// The job id of the newest run of `lab` once it was submitted ("" until then).
std::string job_of_latest(const FixtureCourse& c, const std::string& lab) {
  if (!fs::exists(c.journal())) return "";
  const std::string v = journal_value(c.journal(), "SELECT s.job_id FROM slurm_jobs s JOIN runs r ON r.id = s.run_id "
                                                   "WHERE r.lab = '" + lab + "' ORDER BY s.run_id DESC LIMIT 1");
  return v == "(no row)" ? "" : v;
}

// Waits until the newest hang_lab job runs the lab on the node (its output says so).
std::string wait_for_running_hang(const FixtureCourse& c, const std::string& time_limit) {
  std::string job;
  REQUIRE(wait_until(
      [&] {
        job = journal_value(c.journal(), "SELECT COALESCE(MAX(s.job_id + 0), '') FROM slurm_jobs s JOIN runs r ON "
                                         "r.id = s.run_id WHERE r.lab = 'module01/hang_lab' AND s.time_limit = '" +
                                             time_limit + "' AND s.state IS NULL");
        return !job.empty() && squeue_state(job) == "RUNNING";
      },
      60));
  const fs::path out = fs::path(journal_value(c.journal(), "SELECT script FROM slurm_jobs WHERE job_id = '" + job + "'"))
                           .parent_path() / "job.out";
  REQUIRE(wait_until([&] { return e2e::read_file(out).find("Running (time limit") != std::string::npos; }, 60));
  return job;
}

// How many runs the journal holds ("0" when there is no journal yet).
std::string runs_recorded(const FixtureCourse& c) {
  return fs::exists(c.journal()) ? journal_value(c.journal(), "SELECT COUNT(*) FROM runs") : "0";
}

std::string run_row(const FixtureCourse& c, const std::string& job, const std::string& column) {
  return journal_value(c.journal(), "SELECT " + column + " FROM runs r JOIN slurm_jobs s ON s.run_id = r.id WHERE "
                                    "s.job_id = '" + job + "'");
}

}  // namespace

TEST_CASE("e2e slurm: --slurm-dry-run prints the batch script and submits nothing", "[e2e][slurm]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--slurm-dry-run", "--partition", "gpu", "--time", "5",
                           "--account", "course", "-p", "N=20"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("#!/bin/bash\n", 0) == 0);  // stdout is the script itself
  CHECK(r.err.find("Dry run") != std::string::npos);
  for (const char* line : {"#SBATCH --partition=gpu\n", "#SBATCH --time=5\n", "#SBATCH --account=course\n",
                           " run module01/pass_lab -p N=20 --slurm-continue RUN_ID\n"}) {
    CHECK(r.out.find(line) != std::string::npos);
  }
  CHECK(r.out.find("--gres") == std::string::npos);  // a host-only lab asks for no GPU
  CHECK(runs_recorded(c) == "0");

  CommandResult stray = c.run({"run", "module01/pass_lab", "--partition", "gpu"});
  SHOW(stray);
  CHECK(stray.exit_code == 2);
  CHECK(stray.err.find("go with --slurm") != std::string::npos);

  // The profiler flags travel to the node, where the tool is looked for (none is needed here).
  for (const auto& [flag, line] : {std::pair<const char*, const char*>{"--trace", " --trace --slurm-continue RUN_ID\n"},
                                   {"--ncu=SpeedOfLight,dram__bytes_read.sum",
                                    " --ncu=SpeedOfLight,dram__bytes_read.sum --slurm-continue RUN_ID\n"},
                                   {"--sanitize=racecheck", " --sanitize=racecheck --slurm-continue RUN_ID\n"},
                                   {"--sanitize", " --quick --sanitize --slurm-continue RUN_ID\n"}}) {
    CommandResult p = c.run({"run", "module01/pass_lab", "--slurm-dry-run", "--quick", flag},
                            {{"WORKBOOK_NCU", "/nonexistent/ncu"}, {"WORKBOOK_COMPUTE_SANITIZER", "/nonexistent/cs"}});
    INFO(flag);
    SHOW(p);
    CHECK(p.exit_code == 0);
    CHECK(p.out.find(line) != std::string::npos);
  }
  CHECK(runs_recorded(c) == "0");

  CommandResult bad = c.run({"run", "module01/pass_lab", "--slurm-dry-run", "--time", "ten minutes"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--time") != std::string::npos);
}

TEST_CASE("e2e slurm: --slurm-dry-run refuses what a local run refuses, with the same message", "[e2e][slurm]") {
  FixtureCourse c;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"module01/no_such_lab"}, {"module01"}, {"module01/pass_lab", "-p", "BAD=1"},
        {"module01/pass_lab", "-p", "N=abc"}, {"module01/pass_lab", "-p", "N=5", "-p", "N=6"},
        {"module01/pass_lab", "--sweep", "N=1,2", "-p", "N=5"}, {"module01/pass_lab", "--predict", "nope=1"},
        {"module01/pass_lab", "--predict", "count_guess=abc"}, {"module01/pass_lab", "--variant", "nope"},
        {"module01/pass_lab", "--file", "/nonexistent/lab.cpp"}, {"module01/pass_lab", "--gpu", "no_such_gpu"},
        {"module01/pass_lab", "--arch", "sm_xx"}, {"module01/pass_lab", "--timeout", "0"}}) {
    std::vector<std::string> local = {"run"};
    local.insert(local.end(), args.begin(), args.end());
    std::vector<std::string> dry = local;
    local.push_back("--no-predict");
    dry.push_back("--slurm-dry-run");
    CommandResult l = c.run(local);
    CommandResult d = c.run(dry);
    INFO(d.out << d.err);
    CHECK(l.exit_code == 2);
    CHECK(d.exit_code == l.exit_code);
    CHECK(d.err == l.err);
    CHECK(d.out.find("#SBATCH") == std::string::npos);
  }
  CHECK(runs_recorded(c) == "0");
}

TEST_CASE("e2e slurm: --slurm without sbatch on PATH says so before recording anything", "[e2e][slurm]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--slurm", "--no-predict"}, {{"PATH", c.tmp.path.string()}});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("sbatch") != std::string::npos);
  CHECK(runs_recorded(c) == "0");
}

TEST_CASE("e2e slurm: submitted runs end with a verdict and a journal row with the job id", "[e2e][slurm][slow]") {
  if (!slurm_ready()) return;
  FixtureCourse c;
  e2e::write_file(c.workspace / "slurm.yaml", "poll_s: 1\n");

  // Submitted first: a lab that hangs, with no lab limit to speak of, in a 1-minute job.
  Started slow(c, {"run", "module01/hang_lab", "--slurm", "--no-predict", "--timeout", "600", "--time", "1", "--json"},
               c.tmp.path / "out-timeout", c.tmp.path / "err-timeout");

  {
    CommandResult r = c.run({"run", "module01/pass_lab", "--slurm", "--json", "--predict", "count_guess=900",
                             "--predict", "kind=1", "--predict", "big=yes"}, {}, 120);
    SHOW(r);
    CHECK(r.exit_code == 0);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["verdict"] == "pass");
    CHECK(j["slurm"]["state"] == "COMPLETED");
    CHECK(j["slurm"]["node"] == "localhost");
    CHECK(j["slurm"]["gpu"] == "Tesla T4");
    const std::string job = j["slurm"]["job_id"];
    CHECK(!job.empty());
    CHECK(j["predictions"].size() == 3);
    CHECK(run_row(c, job, "r.verdict") == "pass");
    CHECK(run_row(c, job, "r.device") == "Tesla T4");
    CHECK(run_row(c, job, "s.state") == "COMPLETED");
    CHECK(run_row(c, job, "s.node") == "localhost");
    CHECK(run_row(c, job, "s.finished_at") != "NULL");
    CHECK(run_row(c, job, "(SELECT COUNT(*) FROM predictions p WHERE p.run_id = r.id)") == "3");
    CHECK(run_row(c, job, "(SELECT COUNT(*) FROM prediction_grades g WHERE g.run_id = r.id)") == "3");
    CHECK(run_row(c, job, "(SELECT COUNT(*) FROM checks k WHERE k.run_id = r.id AND k.pass = 1)") == "1");
    CHECK(fs::is_regular_file(run_row(c, job, "s.script")));
  }
  {  // The lab crashes on the node: the node records it, Slurm says FAILED; text output.
    CommandResult r = c.run({"run", "module01/crash_lab", "--slurm", "--no-predict"}, {}, 120);
    SHOW(r);
    CHECK(r.exit_code == 4);
    CHECK(r.out.find("Submitted Slurm job") != std::string::npos);
    CHECK(r.out.find("Verdict: RUNTIME ERROR") != std::string::npos);  // the node's report, shown as it came
    CHECK(r.out.find("FAILED on localhost (Tesla T4)") != std::string::npos);
    const std::string job = job_of_latest(c, "module01/crash_lab");
    CHECK(run_row(c, job, "r.verdict") == "runtime_error");
    CHECK(run_row(c, job, "s.state") == "FAILED");
  }
  {  // The job fails before the runner starts (a setup line fails): Slurm's state decides.
    FixtureCourse other;
    e2e::write_file(other.workspace / "slurm.yaml", "poll_s: 1\nsetup: [\"echo no such module >&2; false\"]\n");
    CommandResult r = other.run({"run", "module01/pass_lab", "--slurm", "--no-predict", "--json"}, {}, 120);
    SHOW(r);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["verdict"] == "runtime_error");
    CHECK(j["slurm"]["state"] == "FAILED");
    CHECK(j["reason"].get<std::string>().find("before the run was recorded") != std::string::npos);
    CHECK(j["next_step"].get<std::string>().find("job.out") != std::string::npos);
    const std::string job = j["slurm"]["job_id"];
    CHECK(run_row(other, job, "r.verdict") == "runtime_error");
    CHECK(run_row(other, job, "s.exit_code") == "1:0");
  }
  {  // A profiler flag reaches the node: there the sanitizer is missing, a clear exit 2.
    CommandResult r = c.run({"run", "module01/pass_lab", "--slurm", "--no-predict", "--json", "--sanitize=racecheck"},
                            {{"WORKBOOK_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer"}}, 120);
    SHOW(r);
    CHECK(r.exit_code == 2);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["verdict"] == "not_run");
    CHECK(j["reason"].get<std::string>().find("WORKBOOK_COMPUTE_SANITIZER") != std::string::npos);
    const std::string job = j["slurm"]["job_id"];
    CHECK(e2e::read_file(run_row(c, job, "s.script")).find(" --sanitize=racecheck --slurm-continue ") != std::string::npos);
    CHECK(run_row(c, job, "r.verdict") == "not_run");
  }
  {  // Cancelled from outside (scancel by the test).
    Started s(c, {"run", "module01/hang_lab", "--slurm", "--no-predict", "--timeout", "600", "--time", "5", "--json"},
              c.tmp.path / "out-scancel", c.tmp.path / "err-scancel");
    const std::string job = wait_for_running_hang(c, "5");
    workbook::ProcessOptions cancel;
    cancel.argv = {"scancel", job};
    CHECK(workbook::run_process(cancel).exited_ok());
    CommandResult r = finish(s, 120);
    SHOW(r);
    CHECK(r.exit_code == 130);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["verdict"] == "interrupted");
    CHECK(j["reason"].get<std::string>().find("cancelled (scancel)") != std::string::npos);
    CHECK(run_row(c, job, "r.verdict") == "interrupted");
    CHECK(run_row(c, job, "s.state") == "CANCELLED");
  }
  {  // Ctrl-C on the login node cancels the job.
    Started s(c, {"run", "module01/hang_lab", "--slurm", "--no-predict", "--timeout", "600", "--time", "6"},
              c.tmp.path / "out-ctrl-c", c.tmp.path / "err-ctrl-c");
    const std::string job = wait_for_running_hang(c, "6");
    ::kill(s.pid, SIGINT);
    CommandResult r = finish(s, 150);
    SHOW(r);
    CHECK(r.exit_code == 130);
    CHECK(r.out.find("Cancelling Slurm job " + job) != std::string::npos);
    CHECK(r.out.find("Verdict: INTERRUPTED") != std::string::npos);
    CHECK(run_row(c, job, "r.verdict") == "interrupted");
    CHECK(run_row(c, job, "r.detail").find("cancelled on the login node") != std::string::npos);
    CHECK(run_row(c, job, "s.state") == "CANCELLED");
  }
  {  // The job outlives its --time: TIMEOUT, recorded as a time-out with what to do.
    CommandResult r = finish(slow, 200);
    SHOW(r);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["verdict"] == "timeout");
    CHECK(j["slurm"]["state"] == "TIMEOUT");
    CHECK(j["reason"].get<std::string>().find("--time 1") != std::string::npos);
    CHECK(j["next_step"].get<std::string>().find("--time") != std::string::npos);
    const std::string job = j["slurm"]["job_id"];
    CHECK(run_row(c, job, "r.verdict") == "timeout");
    CHECK(run_row(c, job, "s.state") == "TIMEOUT");
  }
}

TEST_CASE("e2e slurm: a workspace path with spaces, quotes, $, backticks and % submits and runs", "[e2e][slurm][slow]") {
  if (!slurm_ready()) return;
  FixtureCourse c;
  // The workspace and the folder submitted from hold what a shell or sbatch would read as
  // something else; the node must get them as they are.
  c.workspace = c.tmp.path / "my ws $HOME `touch tick` 'single' \"double\" #hash %j";
  fs::create_directories(c.workspace);
  e2e::copy_warm_cache(c.build_cache());
  e2e::write_file(c.workspace / "slurm.yaml", "poll_s: 1\n");
  const fs::path from = c.workspace / "from here $(touch dollar)";
  fs::create_directories(from);
  workbook::ProcessOptions opt;
  opt.argv = {WORKBOOK_BINARY, "run", "module01/pass_lab", "--slurm", "--no-predict", "--json"};
  opt.cwd = from;
  for (const auto& kv : c.env()) opt.env.push_back(kv);
  opt.timeout_s = 120;
  const workbook::ProcessResult r = workbook::run_process(opt);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["verdict"] == "pass");
  CHECK(j["slurm"]["state"] == "COMPLETED");
  const std::string job = j["slurm"]["job_id"];
  CHECK(run_row(c, job, "r.verdict") == "pass");
  const fs::path out = c.workspace / ".workbook/slurm/run-1/job.out";
  CHECK(e2e::read_file(out).find("Verdict: PASS") != std::string::npos);  // Slurm wrote the output where asked
  for (const fs::path& dir : {c.workspace, from, c.tmp.path}) {
    CHECK_FALSE(fs::exists(dir / "tick"));
    CHECK_FALSE(fs::exists(dir / "dollar"));
  }
}
