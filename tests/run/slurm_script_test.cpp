// Tests for the Slurm settings, the batch script, the node's GPU name and the verdict a
// job's end gives (slurm/slurm_config, slurm/slurm_node, slurm/slurm_outcome), and a lab's
// command on the node (run/slurm_submit). No cluster needed.
#include <catch2/catch.hpp>

#include <fstream>

#include "run/slurm_submit.hpp"
#include "slurm/slurm_config.hpp"
#include "slurm/slurm_node.hpp"
#include "slurm/slurm_outcome.hpp"
#include "util/error.hpp"

#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
using wbtest::write_file;

TEST_CASE("slurm settings: flags over slurm.yaml over defaults, a CUDA lab asks for a GPU", "[slurm]") {
  wbtest::TempDir tmp;
  Workspace ws(tmp.path);
  SlurmSettings none = resolve_slurm_settings(ws, {}, false);
  CHECK(none.partition.empty());
  CHECK(none.gres.empty());
  CHECK(resolve_slurm_settings(ws, {}, true).gres == "gpu:1");

  write_file(tmp.path / "slurm.yaml",
             "partition: gpu\ngres: gpu:1g.10gb:1\ntime: 30\naccount: course\nsetup: [\"module load cuda/12.4\"]\n"
             "sbatch: [\"--mem=16G\"]\npoll_s: 2\n");
  SlurmSettings file = resolve_slurm_settings(ws, {}, true);
  CHECK(file.partition == "gpu");
  CHECK(file.gres == "gpu:1g.10gb:1");
  CHECK(file.time == "30");
  CHECK(file.account == "course");
  CHECK(file.setup == std::vector<std::string>{"module load cuda/12.4"});
  CHECK(file.sbatch == std::vector<std::string>{"--mem=16G"});
  CHECK(file.poll_s == 2);

  SlurmFlags flags;
  flags.partition = "debug";
  flags.gres = "none";
  flags.time = "1:30:00";
  SlurmSettings over = resolve_slurm_settings(ws, flags, true);
  CHECK(over.partition == "debug");
  CHECK(over.gres.empty());  // "none": no GPU asked for
  CHECK(over.time == "1:30:00");
  CHECK(over.account == "course");
}

TEST_CASE("slurm settings: values that would break the script or that sbatch refuses are errors", "[slurm]") {
  wbtest::TempDir tmp;
  Workspace ws(tmp.path);
  SlurmFlags bad_time;
  bad_time.time = "30 minutes";
  CHECK_THROWS_AS(resolve_slurm_settings(ws, bad_time, false), UsageError);
  SlurmFlags injected;
  injected.partition = "gpu\n#SBATCH --exclusive";
  CHECK_THROWS_AS(resolve_slurm_settings(ws, injected, false), UsageError);
  for (const char* ok : {"5", "5:30", "1:00:00", "2-0", "1-12:00", "1-12:00:00", "UNLIMITED"}) {
    SlurmFlags f;
    f.time = ok;
    CHECK_NOTHROW(resolve_slurm_settings(ws, f, false));
  }
  write_file(tmp.path / "slurm.yaml", "partiton: gpu\n");  // a typo is named, not ignored
  CHECK_THROWS_AS(resolve_slurm_settings(ws, {}, false), ContentError);
  write_file(tmp.path / "slurm.yaml", "sbatch: [\"mem=16G\"]\n");
  CHECK_THROWS_AS(resolve_slurm_settings(ws, {}, false), UsageError);
}

TEST_CASE("slurm script: #SBATCH lines, setup lines, and the runner with --slurm-continue", "[slurm]") {
  RunRequest req;
  req.lab = "module14/tiled_gemm";
  req.variant = LabVariant::solution;
  req.params = {"N=512"};
  req.quick = true;
  req.timeout_s = 30;
  req.seed = 42;
  BatchScript b;
  b.settings.partition = "gpu";
  b.settings.gres = "gpu:1g.10gb:1";
  b.settings.time = "20";
  b.settings.setup = {"module load cuda/12.4"};
  b.settings.sbatch = {"--mem=16G"};
  b.job_name = "wb-tiled_gemm";
  b.run_label = "run #7 of module14/tiled_gemm (solution)";
  b.output = "/home/me/workbook/.workbook/slurm/run-7/job.out";
  b.workdir = "/home/me/workbook";
  b.command = compute_node_command("/opt/wb/workbook", "/opt/wb/share", "/home/me/my workbook", req, "7");
  const std::string script = render_batch_script(b);
  CHECK(script.rfind("#!/bin/bash -l\n", 0) == 0);  // a login shell, for `module`
  for (const char* line : {"#SBATCH --job-name=wb-tiled_gemm\n", "#SBATCH --output=/home/me/workbook/.workbook/slurm/run-7/job.out\n",
                           "#SBATCH --partition=gpu\n", "#SBATCH --gres=gpu:1g.10gb:1\n", "#SBATCH --time=20\n",
                           "#SBATCH --mem=16G\n", "module load cuda/12.4\n"}) {
    CHECK(script.find(line) != std::string::npos);
  }
  CHECK(script.find("--account") == std::string::npos);  // not given: the cluster's default
  CHECK(script.find("exec /opt/wb/workbook --content /opt/wb/share --workspace '/home/me/my workbook' run "
                    "module14/tiled_gemm --solution -p N=512 --quick --timeout 30 --seed 42 --slurm-continue 7\n") !=
        std::string::npos);
  // Every #SBATCH line comes before the first command, or sbatch ignores it.
  CHECK(script.rfind("#SBATCH") < script.find("set -eu"));
}

TEST_CASE("slurm script: the profiler flags go to the node's command", "[slurm]") {
  RunRequest req;
  req.lab = "module12/coalescing";
  auto tail = [&](ProfileTool tool, const std::string& option) {
    req.profile = {tool, option};
    const auto argv = compute_node_command("/wb", "/share", "/ws", req, "9");
    std::string s;
    for (const auto& a : argv) s += " " + a;
    return s.substr(s.find(" module12/coalescing") + 20);
  };
  CHECK(tail(ProfileTool::none, "") == " --slurm-continue 9");
  CHECK(tail(ProfileTool::trace, "") == " --trace --slurm-continue 9");
  CHECK(tail(ProfileTool::ncu, "") == " --ncu --slurm-continue 9");
  CHECK(tail(ProfileTool::ncu, "SpeedOfLight,dram__bytes_read.sum") == " --ncu=SpeedOfLight,dram__bytes_read.sum --slurm-continue 9");
  CHECK(tail(ProfileTool::sanitize, "") == " --sanitize --slurm-continue 9");
  CHECK(tail(ProfileTool::sanitize, "racecheck") == " --sanitize=racecheck --slurm-continue 9");
}

TEST_CASE("slurm script: shell quoting", "[slurm]") {
  CHECK(shell_quote("module01/pass_lab") == "module01/pass_lab");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$(rm -rf ~)") == "'$(rm -rf ~)'");
}

TEST_CASE("slurm node: a MIG slice is named by the profile of the slice the job sees", "[slurm]") {
  const std::string list =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5d5ba0d6-1111-2222-3333-444455556666)\n"
      "  MIG 1g.10gb     Device  0: (UUID: MIG-aaaaaaaa-1111-2222-3333-444455556666)\n"
      "  MIG 3g.40gb     Device  1: (UUID: MIG-bbbbbbbb-1111-2222-3333-444455556666)\n";
  CHECK(mig_profile(list, "") == "1g.10gb");
  CHECK(mig_profile(list, "MIG-bbbbbbbb-1111-2222-3333-444455556666") == "3g.40gb");
  CHECK(mig_profile("GPU 0: Tesla T4 (UUID: GPU-0a0a0a0a-1111-2222-3333-444455556666)\n", "0").empty());
}

TEST_CASE("slurm outcome: Slurm's state decides only when the node could not record a verdict", "[slurm]") {
  const std::filesystem::path out = "/ws/.workbook/slurm/run-3/job.out";
  SlurmJobStatus s;
  s.state = "COMPLETED";
  CHECK_FALSE(slurm_outcome("9", s, std::string("pass"), "10", out).from_slurm);
  s.state = "FAILED";  // the lab failed: the node's verdict stands
  CHECK_FALSE(slurm_outcome("9", s, std::string("runtime_error"), "10", out).from_slurm);

  s.state = "TIMEOUT";
  s.node = "gpu07";
  SlurmOutcome t = slurm_outcome("9", s, std::string("interrupted"), "10", out);  // the node got SIGTERM
  CHECK(t.from_slurm);
  CHECK(t.verdict == Verdict::timeout);
  CHECK(t.reason.find("--time 10") != std::string::npos);
  CHECK(t.next_step.find("--time") != std::string::npos);
  CHECK(slurm_outcome("9", s, std::nullopt, "", out).reason.find("default") != std::string::npos);
  // The lab itself died of Slurm's SIGTERM before the runner could forward it.
  CHECK(slurm_outcome("9", s, std::string("runtime_error"), "10", out).verdict == Verdict::timeout);
  // A run that was over before the kill keeps its verdict.
  CHECK_FALSE(slurm_outcome("9", s, std::string("pass"), "10", out).from_slurm);
  CHECK_FALSE(slurm_outcome("9", s, std::string("timeout"), "10", out).from_slurm);  // the lab's own --timeout

  s.state = "CANCELLED";
  CHECK(slurm_outcome("9", s, std::nullopt, "10", out).verdict == Verdict::interrupted);
  s.state = "OUT_OF_MEMORY";
  SlurmOutcome oom = slurm_outcome("9", s, std::string("interrupted"), "10", out);
  CHECK(oom.verdict == Verdict::runtime_error);
  CHECK(oom.next_step.find("--mem") != std::string::npos);
  s.state = "NODE_FAIL";
  CHECK(slurm_outcome("9", s, std::nullopt, "10", out).reason.find("gpu07") != std::string::npos);

  s.state = "FAILED";
  s.exit_code = "127:0";
  SlurmOutcome failed = slurm_outcome("9", s, std::nullopt, "10", out);
  CHECK(failed.verdict == Verdict::runtime_error);
  CHECK(failed.reason.find("127:0") != std::string::npos);
  CHECK(failed.next_step.find(out.string()) != std::string::npos);
}

TEST_CASE("slurm outcome: a controller that stopped answering is not a job that ended", "[slurm]") {
  const std::filesystem::path out = "/ws/.workbook/slurm/run-3/job.out";
  SlurmJobStatus s;
  s.no_answer = "slurm_load_jobs error: Socket timed out on send/recv operation";
  SlurmOutcome o = slurm_outcome("9", s, std::nullopt, "10", out);
  CHECK(o.from_slurm);
  CHECK(o.verdict == Verdict::runtime_error);
  CHECK(o.reason.find("stopped answering about job 9 (slurm_load_jobs error: Socket timed out") != std::string::npos);
  CHECK(o.reason.find("may still run") != std::string::npos);
  CHECK(o.next_step.find("squeue -j 9") != std::string::npos);
  CHECK(o.next_step.find("scancel 9") != std::string::npos);
  CHECK(o.reason.find("no longer knows") == std::string::npos);
  // What the node recorded before Slurm went quiet stands.
  CHECK_FALSE(slurm_outcome("9", s, std::string("pass"), "10", out).from_slurm);
}
