// Running a lab under a profiler (see profile_run.hpp).
#include "profile/profile_run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "content/metric_source.hpp"
#include "model/expr.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

const char* to_string(ProfileTool tool) {
  switch (tool) {
    case ProfileTool::none: return "none";
    case ProfileTool::trace: return "trace";
    case ProfileTool::ncu: return "ncu";
    case ProfileTool::sanitize: return "sanitize";
  }
  return "?";
}

namespace {

std::optional<fs::path> first_existing(const std::vector<fs::path>& candidates) {
  for (const auto& c : candidates) {
    std::error_code ec;
    if (!c.empty() && fs::is_regular_file(c, ec)) return c;
  }
  return std::nullopt;
}

// $ENV_NAME, then `name` on PATH, then the toolkit's own folders.
std::optional<fs::path> find_tool(const char* env_name, const char* name, const std::vector<fs::path>& in_toolkit) {
  if (const char* forced = std::getenv(env_name); forced && *forced) {
    auto p = find_in_path(forced);
    if (!p) throw UsageError(fmt::format("{}={} does not name an executable", env_name, forced), "fix it, or unset it");
    return p;
  }
  if (auto p = find_in_path(name)) return p;
  return first_existing(in_toolkit);
}

fs::path own_directory() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// The injection library: $WORKBOOK_TRACE_LIB, else beside the runner (or in ../lib).
std::optional<fs::path> find_trace_library() {
  if (const char* forced = std::getenv("WORKBOOK_TRACE_LIB"); forced && *forced) {
    std::error_code ec;
    if (!fs::is_regular_file(forced, ec)) {
      throw UsageError(fmt::format("WORKBOOK_TRACE_LIB={} is not a file", forced),
                       "point it at libworkbook_trace.so (built beside the workbook binary), or unset it");
    }
    return fs::absolute(forced);
  }
  const fs::path dir = own_directory();
  return first_existing({dir / "libworkbook_trace.so", dir.parent_path() / "lib" / "libworkbook_trace.so"});
}

void plan_trace(const fs::path& cuda_root, ProfilePlan& plan) {
  auto lib = find_trace_library();
  if (!lib) {
    throw UsageError("--trace needs libworkbook_trace.so, the runner's CUPTI library, and it was not built",
                     "CUPTI (part of the CUDA Toolkit) was not found when the runner was built: rebuild it on a "
                     "machine with the toolkit (cmake looks in $CUDA_HOME and /usr/local/cuda), or set "
                     "WORKBOOK_TRACE_LIB to the library");
  }
  plan.tool = *lib;
  for (const char* rel : {"lib64", "extras/CUPTI/lib64"}) {
    std::error_code ec;
    if (!cuda_root.empty() && fs::exists(cuda_root / rel / "libcupti.so", ec)) {
      plan.cupti_dir = cuda_root / rel;
      break;
    }
  }
  plan.timeout_factor = 3;
}

void plan_ncu(const LabSpec& lab, const fs::path& cuda_root, ProfilePlan& plan) {
  auto ncu = find_tool("WORKBOOK_NCU", "ncu", {cuda_root / "bin" / "ncu", "/usr/local/cuda/bin/ncu"});
  if (!ncu) {
    throw UsageError("--ncu needs Nsight Compute (`ncu`), which was not found",
                     "install Nsight Compute (it comes with the CUDA Toolkit; also "
                     "https://developer.nvidia.com/nsight-compute), put it on PATH or set WORKBOOK_NCU");
  }
  plan.tool = *ncu;
  plan.ncu = parse_ncu_selection(plan.request.option);
  std::vector<std::string> metrics = default_ncu_metrics();
  bool all_named = true;
  for (const auto& m : lab.metrics) {
    if (!measured_by(m, "ncu")) continue;
    metrics.push_back(m.source->metric);
    if (m.source->kernel.empty()) all_named = false;
    else if (std::find(plan.ncu_kernels.begin(), plan.ncu_kernels.end(), m.source->kernel) == plan.ncu_kernels.end())
      plan.ncu_kernels.push_back(m.source->kernel);
  }
  if (!all_named || !plan.request.option.empty()) plan.ncu_kernels.clear();  // profile every kernel
  metrics.insert(metrics.end(), plan.ncu.metrics.begin(), plan.ncu.metrics.end());
  plan.ncu.metrics = metrics;
  if (lab.language == LabLanguage::cuda) plan.build_flags = {"-lineinfo"};  // file:line in source views
  plan.timeout_factor = 20;
}

void plan_sanitizer(const LabSpec& lab, const fs::path& cuda_root, ProfilePlan& plan) {
  std::string& tool = plan.request.option;
  if (tool.empty()) tool = "memcheck";
  const auto& tools = sanitizer_tools();
  if (std::find(tools.begin(), tools.end(), tool) == tools.end()) {
    throw UsageError(fmt::format("--sanitize {}: not a compute-sanitizer tool", tool),
                     "use memcheck (the default), racecheck, synccheck or initcheck, e.g. --sanitize=racecheck");
  }
  auto s = find_tool("WORKBOOK_COMPUTE_SANITIZER", "compute-sanitizer",
                     {cuda_root / "bin" / "compute-sanitizer", cuda_root / "compute-sanitizer" / "compute-sanitizer",
                      "/usr/local/cuda/bin/compute-sanitizer"});
  if (!s) {
    throw UsageError("--sanitize needs compute-sanitizer, which was not found",
                     "it comes with the CUDA Toolkit (bin/compute-sanitizer): put the toolkit's bin/ on PATH, or set "
                     "WORKBOOK_COMPUTE_SANITIZER");
  }
  plan.tool = *s;
  if (lab.language == LabLanguage::cuda) plan.build_flags = {"-lineinfo"};  // file:line in its errors
  plan.timeout_factor = 20;
}

}  // namespace

ProfilePlan plan_profile(const ProfileRequest& request, const LabSpec& lab, const fs::path& cuda_root) {
  ProfilePlan plan;
  plan.request = request;
  switch (request.tool) {
    case ProfileTool::none: break;
    case ProfileTool::trace: plan_trace(cuda_root, plan); break;
    case ProfileTool::ncu: plan_ncu(lab, cuda_root, plan); break;
    case ProfileTool::sanitize: plan_sanitizer(lab, cuda_root, plan); break;
  }
  return plan;
}

void wrap_command(const ProfilePlan& plan, const fs::path& output, ProcessOptions& proc) {
  if (plan.request.tool == ProfileTool::none) return;
  // The harness's CUPTI kernel clock would fight the tool for CUPTI: CUDA events instead.
  proc.env.push_back({"WB_TIMING", "events"});
  std::vector<std::string> prefix;
  if (plan.request.tool == ProfileTool::trace) {
    proc.env.push_back({"CUDA_INJECTION64_PATH", plan.tool.string()});
    proc.env.push_back({"WORKBOOK_TRACE", output.string()});
    if (!plan.cupti_dir.empty()) {
      const char* old = std::getenv("LD_LIBRARY_PATH");
      proc.env.push_back({"LD_LIBRARY_PATH", plan.cupti_dir.string() + (old && *old ? std::string(":") + old : "")});
    }
    return;
  }
  // The harness takes one timing sample under these tools (labs/common/workbook.cuh,
  // under_profiler): their timings are not graded and every launch is slow.
  proc.env.push_back({"WB_PROFILER", to_string(plan.request.tool)});
  if (plan.request.tool == ProfileTool::ncu) prefix = ncu_command(plan.tool.string(), plan.ncu, plan.ncu_kernels, output.string());
  else prefix = sanitizer_command(plan.tool.string(), plan.request.option, output.string());
  proc.argv.insert(proc.argv.begin(), prefix.begin(), prefix.end());
}

namespace {

void add_figure(const MetricSpec& m, std::optional<double> value, ProfileReport& report, LabResults& results) {
  if (!value) return;
  report.figures[m.name] = *value;
  ReportedMetric r;
  r.name = m.name;
  r.unit = m.unit;
  r.value = *value;
  results.metrics.push_back(r);
}

void collect_trace(const fs::path& output, const LabSpec& lab, ProfileReport& report, LabResults& results) {
  const TraceData data = read_trace_file(output);
  report.trace = summarize_trace(data);
  report.timeline = trace_timeline(data);
  for (const auto& n : report.trace->notes) report.warnings.push_back("trace: " + n);
  if (!data.has_meta) {
    report.warnings.push_back("the trace library wrote nothing: the program never initialised CUDA, or the driver "
                              "did not load CUDA_INJECTION64_PATH");
  }
  for (const auto& m : lab.metrics)
    if (measured_by(m, "trace")) add_figure(m, trace_figure(*report.trace, *m.source), report, results);
}

void collect_ncu(const fs::path& output, const LabSpec& lab, const ProcessResult& pr, ProfileReport& report,
                 LabResults& results) {
  NcuTable t = parse_ncu_csv(read_file_text(output).value_or(""));
  if (t.columns.empty()) {  // no log file (an older ncu?): the CSV went to stdout
    NcuTable from_stdout = parse_ncu_csv(pr.out + "\n" + pr.err);
    from_stdout.messages.insert(from_stdout.messages.begin(), t.messages.begin(), t.messages.end());
    from_stdout.errors.insert(from_stdout.errors.begin(), t.errors.begin(), t.errors.end());
    from_stdout.permission_denied = from_stdout.permission_denied || t.permission_denied;
    t = std::move(from_stdout);
  }
  if (t.permission_denied) {
    report.not_run_reason =
        "Nsight Compute may not read this GPU's performance counters (ERR_NVGPUCTRPERM): on Linux an administrator "
        "can allow it with `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d and a reboot "
        "(https://developer.nvidia.com/ERR_NVGPUCTRPERM), or run ncu with root rights";
  } else if (t.rows.empty()) {
    report.warnings.push_back(t.no_kernels ? "ncu profiled no kernels (did the lab launch any? check the -k filter)"
                                           : "ncu wrote no CSV rows; its messages are shown below");
  } else if (!t.errors.empty()) {  // some launches profiled, then ncu failed (seen on the H200)
    report.warnings.push_back("ncu reported an error: " + ncu_error_reason(t));
  }
  for (const auto& m : lab.metrics)
    if (measured_by(m, "ncu")) add_figure(m, ncu_figure(t, *m.source), report, results);
  report.ncu = std::move(t);
}

void collect_sanitizer(const ProfilePlan& plan, const fs::path& output, const ProcessResult& pr, ProfileReport& report,
                       LabResults& results) {
  SanitizerReport s = parse_sanitizer_output(read_file_text(output).value_or(""), plan.request.option);
  if (!s.error_count) s = parse_sanitizer_output(pr.out + "\n" + pr.err, plan.request.option);
  ReportedCheck c;
  c.name = "sanitizer_" + s.tool;
  c.pass = s.error_count && *s.error_count == 0;
  if (s.error_count) c.value = static_cast<double>(*s.error_count);
  c.limit = 0;
  c.detail = describe(s);
  results.checks.push_back(c);
  report.sanitizer = std::move(s);
}

}  // namespace

void collect_profile(const ProfilePlan& plan, const fs::path& output, const LabSpec& lab, const ProcessResult& process,
                     ProfileReport& report, LabResults& results) {
  report.tool = plan.request.tool;
  report.option = plan.request.option;
  report.output = output;
  if (plan.request.tool == ProfileTool::ncu && plan.ncu.sections.empty()) report.ncu_metrics = plan.ncu.metrics;
  for (auto& w : clock_warnings(report.clocks_before, report.clocks_after)) report.warnings.push_back(std::move(w));
  switch (plan.request.tool) {
    case ProfileTool::none: break;
    case ProfileTool::trace: collect_trace(output, lab, report, results); break;
    case ProfileTool::ncu: collect_ncu(output, lab, process, report, results); break;
    case ProfileTool::sanitize: collect_sanitizer(plan, output, process, report, results); break;
  }
}

ProfilerFacts profiler_facts(const ProfileReport& report) {
  ProfilerFacts f;
  f.not_run = report.not_run_reason;
  if (report.sanitizer && report.sanitizer->error_count.value_or(0) > 0) {
    // The sanitizer's first error says more than "exited with code 4" (memcheck stops
    // the kernel at a bad access, so the lab then fails on the CUDA error).
    f.failure = "compute-sanitizer " + describe(*report.sanitizer);
  } else if (report.ncu && !report.ncu->errors.empty()) {
    // ncu could not profile a kernel (another profiler held the counters), so the lab
    // failed: say why rather than "exited with code 9".
    f.failure = "Nsight Compute: " + ncu_error_reason(*report.ncu);
  }
  return f;
}

namespace {

bool uses_any(const std::string& expr, const std::set<std::string>& names) {
  if (expr.empty() || names.empty()) return false;
  try {
    for (const auto& v : variables_of(expr))
      if (names.count(v)) return true;
  } catch (const Error&) {
  }
  return false;
}

// Leaves out the metrics of other tools, then whatever is built on them.
std::set<std::string> drop_other_tools(LabSpec& v, ProfileTool tool) {
  std::set<std::string> dropped;
  const std::string mine = to_string(tool);
  auto& ms = v.metrics;
  for (const auto& m : ms)
    if (m.source && m.source->tool != mine) dropped.insert(m.name);
  ms.erase(std::remove_if(ms.begin(), ms.end(), [&](const MetricSpec& m) { return dropped.count(m.name) > 0; }), ms.end());
  std::vector<MetricSpec> derived;
  for (const auto& d : v.derived) {  // in order: a derived metric may use the ones above it
    if (uses_any(d.expr, dropped)) dropped.insert(d.name);
    else derived.push_back(d);
  }
  v.derived = derived;
  auto& ps = v.predictions;
  ps.erase(std::remove_if(ps.begin(), ps.end(), [&](const PredictionSpec& p) {
             return dropped.count(p.metric) > 0 || uses_any(p.answer_expr, dropped);
           }), ps.end());
  return dropped;
}

}  // namespace

LabSpec profile_view(const LabSpec& lab, ProfileTool tool) {
  LabSpec v = lab;
  drop_other_tools(v, tool);
  if (tool == ProfileTool::none) return v;
  // Under a tool the lab's timings are the tool's: show them, grade only the tool's figures.
  // That holds for --trace too: CUPTI's concurrent-kernel records instrument every block
  // and its API callbacks cost every call (on the H200 a traced graph replay read 1.57 us
  // against 1.19 us untraced, a 4-stream pipeline lost its overlap gain).
  std::set<std::string> own;
  for (const auto& m : v.metrics)
    if (m.source) own.insert(m.name);
  // Exact figures (`equals`: a count, a checksum) are not distorted by a tool and stay graded.
  auto ungrade = [](MetricSpec& m) {
    if (m.expected && m.expected->equals_expr.empty()) m.expected.reset();
    if (m.reference) m.reference->graded = false;
  };
  for (auto& m : v.metrics)
    if (!m.source) ungrade(m);
  for (auto& d : v.derived) {
    if (uses_any(d.expr, own)) own.insert(d.name);
    else ungrade(d);
  }
  auto& ps = v.predictions;
  ps.erase(std::remove_if(ps.begin(), ps.end(), [&](const PredictionSpec& p) {
             return tool == ProfileTool::sanitize || !(own.count(p.metric) > 0 || uses_any(p.answer_expr, own));
           }), ps.end());
  return v;
}

}  // namespace workbook
