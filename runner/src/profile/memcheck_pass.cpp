// The memcheck pass (see memcheck_pass.hpp).
#include "profile/memcheck_pass.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

std::optional<fs::path> find_compute_sanitizer(const fs::path& cuda_root) {
  if (const char* forced = std::getenv("WORKBOOK_COMPUTE_SANITIZER"); forced && *forced) {
    if (auto p = find_in_path(forced)) return p;
    return std::nullopt;  // a wrong override is --sanitize's error to raise; here: not found
  }
  if (auto p = find_in_path("compute-sanitizer")) return p;
  for (const fs::path& c : {cuda_root.empty() ? fs::path() : cuda_root / "bin" / "compute-sanitizer",
                            cuda_root.empty() ? fs::path() : cuda_root / "compute-sanitizer" / "compute-sanitizer",
                            fs::path("/usr/local/cuda/bin/compute-sanitizer")}) {
    std::error_code ec;
    if (!c.empty() && fs::is_regular_file(c, ec)) return c;
  }
  return std::nullopt;
}

std::vector<std::string> memcheck_argv(const MemcheckPass& pass) {
  std::vector<std::string> argv = sanitizer_command(pass.sanitizer.string(), "memcheck", pass.log_file.string());
  argv.insert(argv.end(), pass.program.begin(), pass.program.end());
  argv.push_back(fmt::format("seed={}", pass.seed));
  argv.push_back("quick=1");  // every parameter at its quick value: the lab's own
  return argv;
}

ReportedCheck memcheck_check(const SanitizerReport& report, const ProcessResult& process) {
  ReportedCheck c;
  c.name = kMemcheckCheck;
  c.limit = 0;
  if (report.error_count) c.value = static_cast<double>(*report.error_count);
  c.pass = report.error_count && *report.error_count == 0;
  if (c.pass) {
    c.detail = "compute-sanitizer memcheck at the quick size: no out-of-bounds or misaligned access, read or write";
  } else if (report.error_count) {
    c.detail = "compute-sanitizer memcheck at the quick size: " + describe(report) +
               " (a read or write outside an allocation: a missing or off-by-one bounds guard)";
  } else {
    std::string why = process.timed_out ? fmt::format("it ran past its {:.0f} s limit", process.timeout_s)
                      : !report.tool_messages.empty() ? report.tool_messages.front()
                                                      : describe(process);
    c.detail = "the memcheck pass at the quick size gave no error summary (" + why +
               "): nothing was checked; run it by hand with `workbook run LAB --quick --sanitize`";
  }
  return c;
}

ReportedCheck memcheck_missing_check() {
  ReportedCheck c;
  c.name = kMemcheckCheck;
  c.pass = true;
  c.skipped = true;
  c.detail = "NOT CHECKED: compute-sanitizer was not found, so no memcheck pass ran and a read past the end of a "
             "buffer would go unseen; it comes with the CUDA Toolkit (bin/compute-sanitizer): put the toolkit's bin/ "
             "on PATH or set WORKBOOK_COMPUTE_SANITIZER";
  return c;
}

bool memcheck_pass_wanted(const LabSpec& lab, bool requested, ProfileTool tool, const ProcessResult& graded) {
  return lab.memcheck && requested && lab.language == LabLanguage::cuda && tool == ProfileTool::none &&
         !graded.timed_out && !graded.interrupted;
}

ReportedCheck run_memcheck_pass(const MemcheckPass& pass) {
  ProcessOptions proc;
  proc.argv = memcheck_argv(pass);
  proc.env = pass.env;
  proc.env.push_back({"WORKBOOK_RESULTS", pass.results_file.string()});
  proc.env.push_back({"WB_TIMING", "events"});      // the tool holds CUPTI: no kernel clock
  proc.env.push_back({"WB_PROFILER", "sanitize"});  // one timing sample; speed checks skipped
  proc.timeout_s = pass.timeout_s;
  std::error_code ec;
  fs::remove(pass.log_file, ec);
  const ProcessResult pr = run_process(proc);
  SanitizerReport s = parse_sanitizer_output(read_file_text(pass.log_file).value_or(""), "memcheck");
  if (!s.error_count) s = parse_sanitizer_output(pr.out + "\n" + pr.err, "memcheck");
  ReportedCheck c = memcheck_check(s, pr);
  c.detail += fmt::format(" [the pass took {:.1f} s]", pr.wall_s);  // what memcheck costs each run
  return c;
}

}  // namespace workbook
