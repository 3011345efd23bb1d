// A Slurm job's life on the login node (see slurm_job.hpp).
#include "slurm/slurm_job.hpp"

#include <fmt/format.h>

#include "slurm/slurm_follow.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// How long the login node waits, after scancel, for the job to end.
constexpr double kCancelWait_s = 120;

// sbatch ran, but whether the job was submitted is not known: it is looked for by its name.
std::string recover_job(const SlurmJob& job, const SbatchUnclear& e, SlurmJobOwner& owner, SlurmObserver& observer) {
  const std::string& name = job.script.job_name;
  const std::vector<std::string> ids = slurm_jobs_named(name);
  std::string listed;
  for (const auto& id : ids) listed += (listed.empty() ? "" : ", ") + id;
  const std::string user_name = "-u \"$USER\" -n " + name;
  if (e.interrupted) {
    for (const auto& id : ids) scancel_job(id);
    const std::string why = fmt::format("interrupted while sbatch submitted it{}", ids.empty() ? "" : "; job " + ids.back() + " cancelled");
    if (!ids.empty()) owner.job_id_known(ids.back());
    owner.interrupted_submitting(why);
    throw Error(Exit::interrupted, fmt::format("{} {}", job.run_label, why),
                fmt::format("check that no job is left with `squeue {}`", user_name));
  }
  if (ids.size() == 1) {
    owner.job_id_known(ids.front());
    observer.found_by_name(e.what(), name, ids.front());
    return ids.front();
  }
  throw Error(Exit::usage,
              fmt::format("{}, so the job may have been submitted without this runner knowing its id ({}){}", e.what(),
                          e.printed.empty() ? "sbatch printed nothing" : "sbatch printed: " + e.printed,
                          ids.empty() ? "" : "; jobs named " + name + ": " + listed),
              fmt::format("{} is recorded with your predictions and stays open: if the job runs, its node records "
                          "the result. Find the job with `squeue {}`, cancel it with `scancel {}`",
                          job.run_label, user_name, user_name));
}

std::string submit(const SlurmJob& job, SlurmJobOwner& owner, SlurmObserver& observer) {
  const fs::path script = job.dir / "job.sh";
  write_file_text(script, render_batch_script(job.script));
  owner.submitting();
  try {
    const std::string id = sbatch_submit(script, job.script.workdir);
    owner.job_id_known(id);
    return id;
  } catch (const SbatchUnclear& e) {
    return recover_job(job, e, owner, observer);
  } catch (const Error& e) {
    owner.not_submitted(e.what());
    throw;
  }
}

}  // namespace

SlurmJobEnd run_slurm_job(const SlurmJob& job, SlurmJobOwner& owner, SlurmObserver& observer, const Style& style) {
  SlurmJobEnd end;
  end.job_id = submit(job, owner, observer);
  observer.submitted(end.job_id, job.run_label, job.script.settings);
  const FollowOptions follow{end.job_id,           job.script.output, job.done_marker,
                             job.script.settings.poll_s, job.echo,    job.echo && interactive_terminal()};
  const FollowResult followed = follow_slurm_job(follow, style);
  end.status = followed.status;
  if (followed.interrupt_signal != 0) {
    observer.cancelling(end.job_id);
    end.status = cancel_slurm_job(follow, kCancelWait_s, style);
    end.cancelled_here = true;
  }
  return end;
}

fs::path current_folder() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec || !fs::is_directory(cwd, ec)) {
    throw UsageError("the current folder no longer exists (it was deleted or moved); a Slurm job starts in the "
                     "folder it is submitted from",
                     "cd to a folder that exists (your workspace, say) and run the command again");
  }
  return cwd;
}

fs::path this_binary() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(Exit::internal, "cannot tell where the workbook binary is (/proc/self/exe)");
  return exe;
}

}  // namespace workbook
