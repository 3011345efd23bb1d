// What a Slurm job asks for and the batch script that asks for it. Settings come from
// `workbook run --slurm`'s flags, then the workspace's slurm.yaml (one file per cluster,
// since each cluster has its own workspace in its shared home), then the defaults:
//
//   # <workspace>/slurm.yaml
//   partition: gpu            # sbatch --partition
//   gres: gpu:1g.10gb:1       # sbatch --gres ("none": ask for no GPU)
//   time: "0:30:00"           # sbatch --time (minutes, or [D-]H:M:S)
//   account: cs-gpu-2026      # sbatch --account
//   setup: ["module load cuda/12.4"]   # shell lines run on the node before the runner
//   sbatch: ["--mem=16G"]     # any other sbatch options, one per entry
//   poll_s: 5                 # how often squeue is asked about the job
//
// A CUDA lab asks for gres gpu:1 unless the flag or the file says otherwise; a host-only
// lab asks for none.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "workspace/workspace.hpp"

namespace workbook {

struct SlurmFlags {
  std::optional<std::string> partition, gres, time, account;
};

struct SlurmSettings {
  std::string partition, gres, time, account;  // "" : Slurm's default
  std::vector<std::string> setup;
  std::vector<std::string> sbatch;
  double poll_s = 5;
};

// The workspace's config file.
std::filesystem::path slurm_config_path(const Workspace& workspace);

// Flags over <workspace>/slurm.yaml over the defaults. Throws ContentError for a bad
// file and UsageError for a value sbatch could not take (or that would break the script).
SlurmSettings resolve_slurm_settings(const Workspace& workspace, const SlurmFlags& flags, bool cuda_lab);

// Where a submitted run keeps its files: <workspace>/.workbook/slurm/<name>/ (run-12 for a
// lab's run, experiment-12 for an experiment's) with job.sh (the batch script), job.out
// (the job's output) and the marker the compute node writes once it has recorded the run.
std::filesystem::path slurm_job_dir(const Workspace& workspace, const std::string& name);

// What the batch script holds.
struct BatchScript {
  SlurmSettings settings;
  std::string job_name;
  std::string run_label;                 // "run #42 of module01/pass_lab (starter)"
  std::filesystem::path output, workdir;
  std::vector<std::string> command;      // the runner on the compute node
  // The header's words: the command that submitted it, and what the node's runner does.
  std::string submitted_with = "workbook run --slurm";
  std::string node_does = "builds, runs, grades and records the run";
};

// Throws UsageError for what an #SBATCH line cannot hold (a line break in the job name,
// the output path or the current folder), which render_batch_script refuses too: called
// before a run is opened, with any id (the run's adds digits only).
void check_batch_script(const BatchScript& script);
std::string render_batch_script(const BatchScript& script);

// `s` quoted for a POSIX shell ('...' with embedded quotes escaped); bare when it is safe.
std::string shell_quote(const std::string& s);

}  // namespace workbook
