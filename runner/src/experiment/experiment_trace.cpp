// Tracing an experiment's runs (see experiment_trace.hpp).
#include "experiment/experiment_trace.hpp"

#include "build/toolchain_config.hpp"
#include "profile/trace_parse.hpp"
#include "profile/trace_summary.hpp"

namespace workbook {
namespace fs = std::filesystem;

TracePlan plan_experiment_trace(const fs::path& workspace_root) {
  const auto nvcc = find_toolchain(workspace_root);
  const fs::path cuda_root = nvcc ? nvcc->nvcc.parent_path().parent_path() : fs::path("/usr/local/cuda");
  LabSpec program;  // the plan asks a lab only for its ncu and sanitizer needs
  program.language = LabLanguage::cuda;
  TracePlan t;
  t.plan = plan_profile({ProfileTool::trace, ""}, program, cuda_root);
  t.timeout_factor = t.plan.timeout_factor;
  return t;
}

void add_trace_environment(const TracePlan& plan, const fs::path& trace_file, ProcessOptions& proc) {
  std::error_code ec;
  fs::create_directories(trace_file.parent_path(), ec);
  fs::remove(trace_file, ec);
  wrap_command(plan.plan, trace_file, proc);
}

nlohmann::json trace_kernels(const fs::path& trace_file) {
  nlohmann::json out = nlohmann::json::array();
  std::error_code ec;
  if (!fs::is_regular_file(trace_file, ec)) return out;
  const TraceSummary s = summarize_trace(read_trace_file(trace_file));
  for (const auto& k : s.kernels) {
    if (out.size() == 40) break;
    out.push_back({{"name", k.name}, {"calls", k.calls}, {"total_us", k.total_us}, {"min_us", k.min_us}, {"max_us", k.max_us}});
  }
  return out;
}

}  // namespace workbook
