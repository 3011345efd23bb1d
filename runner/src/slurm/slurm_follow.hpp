// Following a submitted Slurm job from the login node: its state asked of squeue every
// poll_s (at once when the compute node has written its report), a line per state change
// on a terminal (nothing when stdout is not one), and the job's output copied to stdout as
// it grows in the shared workspace. Ctrl-C, SIGTERM and SIGHUP stop the following and are
// reported, so that the caller cancels the job.
#pragma once

#include <filesystem>
#include <string>

#include "slurm/slurm_tools.hpp"
#include "ui/style.hpp"

namespace workbook {

struct FollowOptions {
  std::string job_id;
  std::filesystem::path output;       // the job's output file, copied to stdout when `echo`
  std::filesystem::path done_marker;  // report.json: when it appears, ask Slurm at once
  double poll_s = 5;
  bool echo = true;
  bool show_state = false;
};

struct FollowResult {
  SlurmJobStatus status;  // the last status seen (final unless interrupted)
  int interrupt_signal = 0;
};

FollowResult follow_slurm_job(const FollowOptions& options, const Style& style);

// scancel, then wait (at most `limit_s`, or until a second signal) until the job ends.
SlurmJobStatus cancel_slurm_job(const FollowOptions& options, double limit_s, const Style& style);

}  // namespace workbook
