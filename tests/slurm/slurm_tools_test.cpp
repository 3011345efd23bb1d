// Tests for slurm/slurm_tools: what sbatch, squeue, sacct and scontrol print, parsed (no cluster
// needed; tests/e2e/slurm_e2e_test.cpp drives a real one).
#include <catch2/catch.hpp>

#include "slurm/slurm_tools.hpp"

using namespace workbook;

TEST_CASE("slurm: sbatch --parsable gives the job id, with or without a cluster", "[slurm]") {
  CHECK(parse_sbatch_parsable("123\n") == std::optional<std::string>("123"));
  CHECK(parse_sbatch_parsable("4567;gpu-cluster\n") == std::optional<std::string>("4567"));
  CHECK_FALSE(parse_sbatch_parsable(""));
  CHECK_FALSE(parse_sbatch_parsable("sbatch: error: invalid partition\n"));
}

TEST_CASE("slurm: sbatch's job id is found behind a site's banner lines, never in them", "[slurm]") {
  // Banners a site's sbatch wrapper prints first (notices, a quota) hold numbers too.
  CHECK(parse_sbatch_parsable("Welcome to the cluster!\nNOTICE: maintenance on 12/04\n  8841\n") ==
        std::optional<std::string>("8841"));
  CHECK(parse_sbatch_parsable("sbatch: Your quota: 2024 GPU hours left\n8842;cluster-a\n\n") ==
        std::optional<std::string>("8842"));
  CHECK(parse_sbatch_parsable("Submitted batch job 8843\n") == std::optional<std::string>("8843"));
  CHECK(parse_sbatch_parsable("8844_3\n") == std::optional<std::string>("8844_3"));  // an array task
  CHECK_FALSE(parse_sbatch_parsable("NOTICE: 2024 hours left\n"));
  CHECK_FALSE(parse_sbatch_parsable("   \n\n"));
  CHECK_FALSE(parse_sbatch_parsable("12 34\n"));
}

TEST_CASE("slurm: a squeue line gives state, reason, node and run time", "[slurm]") {
  auto pending = parse_squeue_line("PENDING|Priority||0:00\n");
  REQUIRE(pending);
  CHECK(pending->state == "PENDING");
  CHECK(pending->reason == "Priority");
  CHECK(pending->node.empty());
  auto running = parse_squeue_line("RUNNING|None|gpu-node07|1:05");
  REQUIRE(running);
  CHECK(running->reason.empty());  // "None" is no reason
  CHECK(running->node == "gpu-node07");
  CHECK(running->elapsed == "1:05");
  CHECK_FALSE(parse_squeue_line(""));
  CHECK_FALSE(parse_squeue_line("slurm_load_jobs error: Invalid job id specified"));
}

TEST_CASE("slurm: a sacct line keeps the state's first word and the exit code", "[slurm]") {
  auto s = parse_sacct_line("CANCELLED by 1000|0:15|gpu-node07|00:01:02");
  REQUIRE(s);
  CHECK(s->state == "CANCELLED");
  CHECK(s->exit_code == "0:15");
  CHECK(s->node == "gpu-node07");
  auto never_ran = parse_sacct_line("CANCELLED by 0|0:0|None assigned|00:00:00");
  REQUIRE(never_ran);
  CHECK(never_ran->node.empty());
}

TEST_CASE("slurm: scontrol's one-line record splits into keys, values with spaces kept", "[slurm]") {
  auto rec = parse_scontrol_record(
      "JobId=7 JobName=wb-pass_lab UserId=me(1000) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) "
      "ExitCode=4:0 NodeList=localhost AllocNode:Sid=login:4051 CPUs/Task=1 Command=/home/me/my dir/job.sh "
      "WorkDir=/home/me Power=");
  CHECK(rec["JobState"] == "FAILED");
  CHECK(rec["ExitCode"] == "4:0");
  CHECK(rec["NodeList"] == "localhost");
  CHECK(rec["AllocNode:Sid"] == "login:4051");
  CHECK(rec["CPUs/Task"] == "1");
  CHECK(rec["Command"] == "/home/me/my dir/job.sh");
  CHECK(rec["WorkDir"] == "/home/me");
  CHECK(rec["Power"].empty());
  CHECK(parse_scontrol_record("").empty());
}

TEST_CASE("slurm: waiting and running states are not final, every ending is", "[slurm]") {
  for (const char* live : {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED"}) {
    CHECK_FALSE(is_final_slurm_state(live));
  }
  for (const char* done : {"COMPLETED", "FAILED", "TIMEOUT", "CANCELLED", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED",
                           "BOOT_FAIL", "DEADLINE"}) {
    CHECK(is_final_slurm_state(done));
  }
  CHECK_FALSE(is_final_slurm_state(""));
}

TEST_CASE("slurm: only squeue's 'Invalid job id' means it forgot the job; other errors are no answer", "[slurm]") {
  CHECK(squeue_forgot_job("slurm_load_jobs error: Invalid job id specified"));
  CHECK_FALSE(squeue_forgot_job("slurm_load_jobs error: Socket timed out on send/recv operation"));
  CHECK_FALSE(squeue_forgot_job("slurm_load_jobs error: Unable to contact slurm controller (connect failure)"));
  CHECK_FALSE(squeue_forgot_job(""));
}
