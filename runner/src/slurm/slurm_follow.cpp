// Following a Slurm job (see slurm_follow.hpp).
#include "slurm/slurm_follow.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <thread>

#include "exec/interrupt_watch.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kTick = std::chrono::milliseconds(200);
// How long the login node keeps asking a controller that does not answer (squeue failing
// with "Socket timed out", the controller restarting) before it gives up on the job's end.
constexpr auto kSilenceLimit = std::chrono::minutes(10);

// Copies what the output file gained since `offset` to stdout.
void copy_new_output(const fs::path& file, std::uintmax_t& offset) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return;
  in.seekg(static_cast<std::streamoff>(offset));
  char buf[8192];
  while (in.read(buf, sizeof buf), in.gcount() > 0) {
    std::fwrite(buf, 1, static_cast<std::size_t>(in.gcount()), stdout);
    offset += static_cast<std::uintmax_t>(in.gcount());
  }
  std::fflush(stdout);
}

std::string describe_state(const FollowOptions& o, const SlurmJobStatus& s) {
  // squeue's own message is long; it goes into the verdict's reason if Slurm stays silent.
  if (!s.no_answer.empty()) return fmt::format("Slurm job {}: squeue did not answer; asking again", o.job_id);
  if (s.state == "PENDING") return fmt::format("Slurm job {}: PENDING{}", o.job_id, s.reason.empty() ? "" : " (" + s.reason + ")");
  if (s.state == "RUNNING") return fmt::format("Slurm job {}: RUNNING on {}", o.job_id, s.node);
  return fmt::format("Slurm job {}: {}", o.job_id, s.state.empty() ? "no longer known to Slurm" : s.state);
}

}  // namespace

FollowResult follow_slurm_job(const FollowOptions& o, const Style& style) {
  InterruptWatch watch;
  FollowResult result;
  std::uintmax_t offset = 0;
  std::string shown;
  bool marker_seen = false;
  auto next_poll = Clock::now();
  std::optional<Clock::time_point> silent_since;  // when Slurm last stopped answering
  for (;;) {
    if ((result.interrupt_signal = watch.fired()) != 0) return result;
    if (o.echo) copy_new_output(o.output, offset);
    std::error_code ec;
    const bool marker = !marker_seen && fs::exists(o.done_marker, ec);
    if (marker || Clock::now() >= next_poll) {
      marker_seen = marker_seen || marker;
      result.status = query_slurm_job(o.job_id);
      next_poll = Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.poll_s * 1000));
      const std::string line = describe_state(o, result.status);
      if (o.show_state && line != shown) fmt::print("{}\n", style.dim(line));
      shown = line;
      if (result.status.no_answer.empty()) {
        silent_since.reset();
        if (result.status.state.empty() || is_final_slurm_state(result.status.state)) break;
      } else if (!silent_since) {
        silent_since = Clock::now();
      } else if (Clock::now() - *silent_since >= kSilenceLimit) {
        break;  // the state stays unknown, and no_answer says so
      }
    }
    std::this_thread::sleep_for(kTick);
  }
  if (o.echo) copy_new_output(o.output, offset);
  return result;
}

SlurmJobStatus cancel_slurm_job(const FollowOptions& o, double limit_s, const Style& style) {
  InterruptWatch watch;
  std::string error;
  if (!scancel_job(o.job_id, &error)) {
    fmt::print(stderr, "warning: scancel {} failed: {}\n", o.job_id, error);
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(limit_s * 1000));
  SlurmJobStatus s;
  while (Clock::now() < deadline && watch.fired() == 0) {
    s = query_slurm_job(o.job_id);
    if (s.no_answer.empty() && (s.state.empty() || is_final_slurm_state(s.state))) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  fmt::print(stderr, "{}\n", style.dim(fmt::format("Slurm job {} had not ended yet ({}); not waiting longer", o.job_id,
                                                   s.state.empty() ? "unknown" : s.state)));
  return s;
}

}  // namespace workbook
