// Slurm's command-line tools as the runner uses them: sbatch submits a batch script,
// squeue follows a job (sacct once squeue has forgotten it, scontrol for the exit code),
// scancel cancels it. Each is run through run_process (an argv, never a shell); what
// they print is parsed by pure functions, so the parsing is tested without a cluster.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace workbook {

// A job as Slurm reports it.
struct SlurmJobStatus {
  std::string state;      // "PENDING", "RUNNING", "COMPLETED", "FAILED", "TIMEOUT", "CANCELLED",
                          // "OUT_OF_MEMORY", "NODE_FAIL", ...; "" when Slurm no longer knows the job
  std::string reason;     // why it waits or why it ended ("Priority", "Resources", "NonZeroExitCode")
  std::string node;       // the node(s) it runs or ran on
  std::string elapsed;    // run time so far, as Slurm prints it ("1:05")
  std::string exit_code;  // "status:signal" ("1:0", "0:15") once it ended, when known
  std::string no_answer;  // non-empty: Slurm did not answer (what squeue said); the state is
                          // then unknown, never "ended"
};

// UsageError unless sbatch, squeue and scancel are all on PATH.
void require_slurm_tools();

// Submits `script` with `sbatch --parsable` from `cwd` and returns the job id. Throws
// Error (Exit::usage) with sbatch's own message when it refuses the job (it exited with
// an error), and SbatchUnclear when the job may have been submitted but its id is not
// known: sbatch exited 0 without printing one, or it timed out or was interrupted.
std::string sbatch_submit(const std::filesystem::path& script, const std::filesystem::path& cwd);

class SbatchUnclear : public Error {
 public:
  SbatchUnclear(std::string message, std::string what_it_printed, bool was_interrupted)
      : Error(Exit::usage, std::move(message)), printed(std::move(what_it_printed)), interrupted(was_interrupted) {}
  std::string printed;       // what sbatch printed (stdout and stderr)
  bool interrupted = false;  // Ctrl-C, SIGTERM or SIGHUP arrived while sbatch ran
};

// The ids of this user's jobs named `name` that Slurm still knows (squeue), newest last;
// empty when there are none or squeue cannot tell.
std::vector<std::string> slurm_jobs_named(const std::string& name);

// The job's status: squeue, then sacct when squeue no longer lists it; the exit code of an
// ended job from scontrol (or sacct). An empty state when none of them knows the job; an
// empty state and `no_answer` when squeue failed for another reason than not knowing the job
// (a busy controller's "Socket timed out") and sacct could not tell either: ask again.
SlurmJobStatus query_slurm_job(const std::string& job_id);

// True when squeue's error says it does not know the job ("slurm_load_jobs error: Invalid
// job id specified": it ended longer ago than the controller's MinJobAge, or never was);
// any other failure is no answer.
bool squeue_forgot_job(const std::string& squeue_error);

// `scancel JOB`; false (and Slurm's message in `error`) when it failed.
bool scancel_job(const std::string& job_id, std::string* error = nullptr);

// False for the states of a job that waits or runs (PENDING, RUNNING, CONFIGURING,
// COMPLETING, SUSPENDED, REQUEUED, ...), true for every state in which it has ended.
bool is_final_slurm_state(const std::string& state);

// ---- parsing (pure) -------------------------------------------------------------------

// `sbatch --parsable` prints "123" or "123;cluster": the job id, nullopt if there is none.
// A site's sbatch may print banner lines around it (a notice, a quota): the last line
// that is only an id is taken, else a "Submitted batch job 123" line.
std::optional<std::string> parse_sbatch_parsable(const std::string& out);
// One line of `squeue -h -o '%T|%r|%N|%M'`.
std::optional<SlurmJobStatus> parse_squeue_line(const std::string& line);
// One line of `sacct -n -P -X -o State,ExitCode,NodeList,Elapsed` ("CANCELLED by 0|0:15|n1|00:01:02").
std::optional<SlurmJobStatus> parse_sacct_line(const std::string& line);
// `scontrol show job -o ID`: one line of Key=Value pairs (a value may hold spaces, as
// Command= and WorkDir= can), as a map.
std::map<std::string, std::string> parse_scontrol_record(const std::string& line);

}  // namespace workbook
