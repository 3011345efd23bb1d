// `workbook experiment run --trace`: each run of a variant under the CUPTI injection
// library the labs use (libworkbook_trace.so through CUDA_INJECTION64_PATH: no change to
// the program), and its per-kernel table read back (profile/trace_summary.hpp).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "exec/process.hpp"
#include "profile/profile_run.hpp"

namespace workbook {

struct TracePlan {
  ProfilePlan plan;
  double timeout_factor = 1;  // tracing slows a program: its limit is multiplied by this
};

// Finds the library and CUPTI (the toolkit of the workspace's nvcc, else /usr/local/cuda);
// UsageError with what to do when the library was not built.
TracePlan plan_experiment_trace(const std::filesystem::path& workspace_root);

// The environment that loads the library and names the trace file.
void add_trace_environment(const TracePlan& plan, const std::filesystem::path& trace_file, ProcessOptions& proc);

// The trace's kernels, the longest total first (at most 40): [{name, calls, total_us,
// min_us, max_us}]; [] when the file is missing or holds none.
nlohmann::json trace_kernels(const std::filesystem::path& trace_file);

}  // namespace workbook
