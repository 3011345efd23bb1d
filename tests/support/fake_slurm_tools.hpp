// Fake Slurm tools (bash scripts standing in for sbatch, squeue, scontrol and scancel) for
// what a real cluster does rarely or not on demand. Used in-process by
// tests/slurm/slurm_job_test.cpp and through the binary by the e2e tests.
//
// The fake sbatch gives job ids 100, 101, ... and runs the batch script with bash (its
// output to job.out beside it), as FAKE_SBATCH says:
//   sync        before answering (the job has run when sbatch returns), banner lines first
//   background  in the background, banner lines first
//   silent      not at all, and prints nothing        silent-sync: runs it, prints nothing
//   refuse      not at all: exits 1 with an error
// The fake squeue says RUNNING until the script has ended (COMPLETED or FAILED by its
// exit status) or scancel was called (CANCELLED); `squeue -n NAME` lists the jobs of that name.
// With FAKE_SQUEUE_SILENT=N its first N questions about a job fail as a busy controller's do.
#pragma once

#include <filesystem>
#include <fstream>
#include <utility>

namespace wbtest {

inline const char* const kSbatch = R"SH(#!/bin/bash
case $FAKE_SBATCH in
  silent) exit 0 ;;
  refuse) echo "sbatch: error: invalid partition specified: nope" >&2; exit 1 ;;
esac
state=$FAKE_SLURM_STATE
script=${@: -1}
id=$(cat "$state/next" 2>/dev/null || echo 100); echo $((id + 1)) > "$state/next"
sed -n 's/^#SBATCH --job-name=//p' "$script" > "$state/name-$id"
out=$(dirname "$script")/job.out
run() { SLURM_JOB_ID=$id bash "$script" > "$out" 2>&1; echo $? > "$state/exit-$id"; }
case $FAKE_SBATCH in
  sync) run ;;
  silent-sync) run; exit 0 ;;
  background) export -f run; export id script out state
              setsid env -u WORKBOOK_PROCESS_TOKEN bash -c run </dev/null >/dev/null 2>&1 &
              sleep 1 ;;  # until it has left the token behind (run_process kills what carries it)
esac
printf 'Welcome to the fake cluster.\nNOTICE: 2024 GPU hours left this term\n%s;fake\n' "$id"
)SH";

inline const char* const kSqueue = R"SH(#!/bin/bash
state=$FAKE_SLURM_STATE
while [ $# -gt 0 ]; do
  case $1 in -j) job=$2; shift ;; -n) name=$2; shift ;; esac; shift
done
if [ -n "$name" ]; then
  for f in "$state"/name-*; do [ "$(cat "$f")" = "$name" ] && echo "${f##*/name-}"; done; exit 0
fi
asked=$(( $(cat "$state/asked-$job" 2>/dev/null || echo 0) + 1 )); echo $asked > "$state/asked-$job"
if [ "$asked" -le "${FAKE_SQUEUE_SILENT:-0}" ]; then
  echo "slurm_load_jobs error: Socket timed out on send/recv operation" >&2; exit 1
fi
[ -f "$state/name-$job" ] || { echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; }
if [ -f "$state/cancel-$job" ]; then echo "CANCELLED|None|fakenode|0:02"
elif [ -f "$state/exit-$job" ]; then
  [ "$(cat "$state/exit-$job")" = 0 ] && echo "COMPLETED|None|fakenode|0:01" || echo "FAILED|NonZeroExitCode|fakenode|0:01"
else echo "RUNNING|None|fakenode|0:01"; fi
)SH";

inline const char* const kScontrol = R"SH(#!/bin/bash
job=${@: -1}
code=$(cat "$FAKE_SLURM_STATE/exit-$job" 2>/dev/null || echo 0)
echo "JobId=$job JobName=fake ExitCode=$code:0 NodeList=fakenode"
)SH";

inline const char* const kScancel = R"SH(#!/bin/bash
touch "$FAKE_SLURM_STATE/cancel-$1"
)SH";

// Writes the four tools into `bin` (created), executable.
inline void write_fake_slurm_tools(const std::filesystem::path& bin) {
  std::filesystem::create_directories(bin);
  for (auto [name, text] : {std::pair{"sbatch", kSbatch}, {"squeue", kSqueue}, {"scontrol", kScontrol},
                            {"scancel", kScancel}}) {
    std::ofstream(bin / name) << text;
    std::filesystem::permissions(bin / name, std::filesystem::perms::owner_all);
  }
}

}  // namespace wbtest
