// A lab's Slurm run in-process (run/slurm_submit.hpp): submit_slurm_run on the login node
// and continue_slurm_run on the "compute node", with Slurm's tools, the compiler and the lab
// all played by tests/support/fake_processes.hpp. sbatch runs the job at once, as a job that
// starts before sbatch answers does; squeue and scontrol then say how it ended. Nothing is
// started, so each verdict comes from the facts a test chooses: what the node recorded, and
// what Slurm said of the job.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "journal/journal.hpp"
#include "run/slurm_journal.hpp"
#include "run/slurm_submit.hpp"

#include "../support/fake_processes.hpp"
#include "../support/fixture_course.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
using nlohmann::json;
using wbtest::FakeProcesses;
namespace fs = std::filesystem;

namespace {

// The fixture course, a workspace whose slurm.yaml polls often, and Slurm's tools on PATH
// (require_slurm_tools looks for them there; the fake runner answers them).
struct Cluster {
  wbtest::TempDir tmp;
  fs::path content = tmp.path / "content", bin = tmp.path / "bin";
  wbtest::ScopedEnv gpu{"WORKBOOK_GPU_NAME", std::string("Tesla T4")};
  wbtest::ScopedEnv cache{"WORKBOOK_CACHE_DIR", (tmp.path / "cache").string()};
  wbtest::ScopedEnv cxx{"CXX", std::nullopt};
  wbtest::ScopedEnv node{"SLURMD_NODENAME", std::string("gpu-node-7")};
  std::optional<wbtest::ScopedEnv> path;
  Catalog catalog{content};
  Workspace workspace{tmp.path / "workspace"};
  FakeProcesses procs;
  // How the job goes: whether sbatch starts the node's half, and Slurm's last word on it.
  bool node_runs = true;
  std::string state = "COMPLETED", exit_code = "0:0";
  std::vector<std::string> script_lines;  // job.sh as sbatch found it

  Cluster() {
    wbtest::copy_fixture_course(content);
    fs::create_directories(bin);
    for (const char* tool : {"sbatch", "squeue", "scancel", "scontrol", "sacct"}) {
      std::ofstream(bin / tool) << "#!/bin/false\n";
      fs::permissions(bin / tool, fs::perms::owner_all);
    }
    const char* old = std::getenv("PATH");
    path.emplace("PATH", bin.string() + ":" + (old ? old : "/usr/bin:/bin"));
    fs::create_directories(workspace.root());
    std::ofstream(workspace.root() / "slurm.yaml") << "poll_s: 0.05\n";
    procs.tool = [this](const ProcessOptions& o) { return play(o); };
  }

  // The node's half, as the batch script's command asks for it: the same lab, the run's id.
  void run_node(const fs::path& script) {
    std::ifstream in(script);
    for (std::string line; std::getline(in, line);) script_lines.push_back(line);
    const std::string dir = script.parent_path().filename().string();  // run-<id>
    RunRequest req = wbtest::pass_lab_request();
    req.continue_run_id = std::stoll(dir.substr(4));
    Journal journal(workspace.journal_path());
    const Style style(false);
    continue_slurm_run({catalog, workspace, journal, style}, req);
  }

  std::optional<ProcessResult> play(const ProcessOptions& o) {
    const std::string& tool = o.argv.front();
    ProcessResult r;
    r.exit_code = 0;
    if (tool == "sbatch") {
      if (node_runs) run_node(o.argv.back());
      r.out = "100\n";
    } else if (tool == "squeue") {
      r.out = state + "|None|gpu-node-7|0:03\n";
    } else if (tool == "scontrol") {
      r.out = "JobId=100 JobState=" + state + " ExitCode=" + exit_code + " NodeList=gpu-node-7\n";
    } else {
      return std::nullopt;
    }
    return r;
  }

  SlurmRunEnd submit() {
    const RunRequest req = wbtest::pass_lab_request();
    SlurmRunOptions o;
    o.json = true;  // the job's output is not shown as it grows
    SlurmObserver quiet;
    return submit_slurm_run(catalog, workspace, Style(false), req, o, quiet);
  }

  int index_of(const std::string& program) const {
    for (std::size_t i = 0; i < procs.ran.size(); ++i)
      if (!procs.ran[i].empty() && procs.ran[i][0] == program) return static_cast<int>(i);
    return -1;
  }
};

std::string recorded_verdict(const Workspace& workspace, long long run_id) {
  Journal journal(workspace.journal_path());
  const auto end = run_end_of(journal, run_id);
  return end && end->verdict ? *end->verdict : "open";
}

}  // namespace

TEST_CASE("submit_slurm_run: the node builds, runs and records; the login node reads its verdict",
          "[slurm_submit_test]") {
  Cluster c;
  c.procs.lab = [](const ProcessOptions& o) { return wbtest::pass_lab_run(o, true); };
  const SlurmRunEnd end = c.submit();
  CHECK(end.report.run_id == 1);
  CHECK(end.report.grade.verdict == Verdict::pass);
  CHECK(end.node_report);
  CHECK_FALSE(end.from_slurm);
  CHECK(recorded_verdict(c.workspace, 1) == "pass");
  // sbatch came first; the build and the lab's run were the node's, after it.
  REQUIRE(c.index_of("sbatch") >= 0);
  CHECK(c.procs.compiles() == 2);  // the harness object and the lab
  CHECK(c.procs.lab_runs() == 1);
  for (int i = 0; i < c.index_of("sbatch"); ++i) {  // the login node built nothing
    for (const auto& arg : c.procs.ran[static_cast<std::size_t>(i)]) CHECK(arg.find("pass_lab.cpp") == std::string::npos);
  }
  // The script names the run and continues it on the node.
  const auto has = [&](const std::string& text) {
    return std::any_of(c.script_lines.begin(), c.script_lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  CHECK(has("#SBATCH --job-name=wb-pass_lab-1"));
  CHECK(has("--slurm-continue 1"));
  // The journal keeps the job: its id, the node, Slurm's end.
  Journal journal(c.workspace.journal_path());
  const auto job = slurm_job_of(journal, 1);
  REQUIRE(job);
  CHECK(job->job_id == "100");
  CHECK(job->node == "gpu-node-7");
  CHECK(end.json["verdict"] == "pass");
  CHECK(end.json["slurm"]["job_id"] == "100");
  CHECK(end.json["slurm"]["state"] == "COMPLETED");
}

TEST_CASE("submit_slurm_run: a failed check on the node is the run's verdict", "[slurm_submit_test]") {
  Cluster c;
  c.procs.lab = [](const ProcessOptions& o) { return wbtest::pass_lab_run(o, false); };
  c.state = "FAILED";
  c.exit_code = "1:0";
  const SlurmRunEnd end = c.submit();
  CHECK(end.report.grade.verdict == Verdict::fail);
  CHECK_FALSE(end.from_slurm);
  CHECK(recorded_verdict(c.workspace, 1) == "fail");
}

TEST_CASE("submit_slurm_run: a job that ended before the node began is decided by Slurm's state",
          "[slurm_submit_test]") {
  Cluster c;
  c.node_runs = false;
  c.state = "TIMEOUT";
  c.exit_code = "0:15";
  const SlurmRunEnd end = c.submit();
  CHECK(end.from_slurm);
  CHECK_FALSE(end.node_report);
  CHECK(end.report.grade.verdict == Verdict::timeout);
  CHECK(end.report.grade.verdict_reason.find("time") != std::string::npos);
  CHECK(recorded_verdict(c.workspace, 1) == "timeout");  // settled in the journal on the login node
  CHECK(c.procs.compiles() == 0);
  CHECK(c.procs.lab_runs() == 0);
}
