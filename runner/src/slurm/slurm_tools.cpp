// Slurm's tools (see slurm_tools.hpp).
#include "slurm/slurm_tools.hpp"

#include <fmt/format.h>

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "exec/interrupt_watch.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook {

namespace {

constexpr double kToolTimeout_s = 60;  // a busy controller can be slow to answer

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string f; std::getline(in, f, sep);) out.push_back(trim(f));
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

// Runs one Slurm tool; nullopt when it is missing or did not exit with 0 (its stderr in `err`).
std::optional<std::string> run_tool(std::vector<std::string> argv, std::string* err = nullptr) {
  ProcessOptions opt;
  opt.argv = std::move(argv);
  opt.timeout_s = kToolTimeout_s;
  try {
    ProcessResult r = run_process(opt);
    // run_process caught a Ctrl-C meant for us while the tool ran, and has restored our
    // handler since: hand the signal on to it.
    if (r.interrupted && InterruptWatch::active()) ::raise(r.interrupt_signal);
    if (err) *err = trim(r.err.empty() ? r.out : r.err);
    if (!r.exited_ok()) return std::nullopt;
    return r.out;
  } catch (const Error& e) {  // the tool is not installed
    if (err) *err = e.what();
    return std::nullopt;
  }
}

// "CANCELLED by 0" -> "CANCELLED"; "COMPLETED" stays.
std::string first_word(const std::string& s) { return s.substr(0, s.find(' ')); }

}  // namespace

void require_slurm_tools() {
  if (find_in_path("sbatch") && find_in_path("squeue") && find_in_path("scancel")) return;
  throw UsageError("--slurm needs Slurm's sbatch, squeue and scancel, and they are not on PATH",
                   "run it on the cluster's login node, or see the batch script with --slurm-dry-run");
}

std::optional<std::string> parse_sbatch_parsable(const std::string& out) {
  static const std::regex id_line(R"(\s*(\d+(_\d+)?)(;\S*)?\s*)");
  static const std::regex submitted(R"(Submitted batch job (\d+))");
  std::vector<std::string> lines = split(out, '\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::smatch m;
    if (std::regex_match(*it, m, id_line)) return m[1].str();
  }
  std::smatch m;
  if (std::regex_search(out, m, submitted)) return m[1].str();
  return std::nullopt;
}

std::string sbatch_submit(const std::filesystem::path& script, const std::filesystem::path& cwd) {
  ProcessOptions opt;
  opt.argv = {"sbatch", "--parsable", script.string()};
  opt.cwd = cwd;
  opt.timeout_s = kToolTimeout_s;
  ProcessResult r = run_process(opt);  // throws UsageError when sbatch is missing
  const std::string printed = trim(r.out + (r.out.empty() || r.err.empty() ? "" : "\n") + r.err);
  if (r.timed_out || r.interrupted) {  // it may have got as far as the controller
    throw SbatchUnclear(r.timed_out ? fmt::format("sbatch did not answer within {:g} s", kToolTimeout_s)
                                    : "sbatch was interrupted",
                        printed, r.interrupted);
  }
  if (!r.exited_ok()) {
    throw Error(Exit::usage, fmt::format("sbatch refused the job: {}", trim(r.err.empty() ? r.out : r.err)),
                "check --partition, --gres, --time and --account (or slurm.yaml in the workspace) against "
                "`sinfo` and what your cluster's documentation asks for");
  }
  std::optional<std::string> id = parse_sbatch_parsable(r.out);
  if (!id) throw SbatchUnclear("sbatch accepted the job but printed no job id", printed, false);
  return *id;
}

std::vector<std::string> slurm_jobs_named(const std::string& name) {
  std::vector<std::string> ids;
  const char* user = std::getenv("USER");
  std::vector<std::string> argv = {"squeue", "-h", "--states=all", "-n", name, "-o", "%i"};
  if (user && *user) argv.insert(argv.end(), {"-u", user});
  if (auto out = run_tool(argv)) {
    for (const auto& line : split(*out, '\n')) {
      if (parse_sbatch_parsable(line)) ids.push_back(line);
    }
  }
  std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return ids;
}

std::optional<SlurmJobStatus> parse_squeue_line(const std::string& line) {
  std::vector<std::string> f = split(trim(line), '|');
  if (f.size() < 4 || f[0].empty()) return std::nullopt;
  SlurmJobStatus s;
  s.state = first_word(f[0]);
  s.reason = f[1] == "None" ? "" : f[1];
  s.node = f[2];
  s.elapsed = f[3];
  return s;
}

std::optional<SlurmJobStatus> parse_sacct_line(const std::string& line) {
  std::vector<std::string> f = split(trim(line), '|');
  if (f.size() < 4 || f[0].empty()) return std::nullopt;
  SlurmJobStatus s;
  s.state = first_word(f[0]);
  s.exit_code = f[1];
  s.node = f[2] == "None assigned" ? "" : f[2];
  s.elapsed = f[3];
  return s;
}

std::map<std::string, std::string> parse_scontrol_record(const std::string& line) {
  // A key starts a word and runs to '=': letters, digits and the ':', '/', '_' Slurm uses.
  auto key_at = [&](std::size_t i) -> std::size_t {  // length of a key at i, 0 if none
    std::size_t j = i;
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == ':' ||
                               line[j] == '/' || line[j] == '_'))
      ++j;
    return j > i && j < line.size() && line[j] == '=' && std::isalpha(static_cast<unsigned char>(line[i])) ? j - i : 0;
  };
  std::map<std::string, std::string> out;
  std::size_t i = line.find_first_not_of(' ');
  while (i != std::string::npos && i < line.size()) {
    const std::size_t klen = key_at(i);
    if (klen == 0) break;
    const std::size_t vstart = i + klen + 1;
    std::size_t next = vstart;  // the value ends before the next " Key="
    for (; next < line.size(); ++next) {
      if (line[next] == ' ' && next + 1 < line.size() && key_at(next + 1) > 0) break;
    }
    out[line.substr(i, klen)] = trim(line.substr(vstart, next - vstart));
    i = next < line.size() ? next + 1 : std::string::npos;
  }
  return out;
}

bool is_final_slurm_state(const std::string& state) {
  static const std::set<std::string> live = {"PENDING",   "RUNNING",  "CONFIGURING", "COMPLETING", "SUSPENDED",
                                             "REQUEUED",  "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING",
                                             "STAGE_OUT", "STOPPED"};
  return !state.empty() && live.count(state) == 0;
}

SlurmJobStatus query_slurm_job(const std::string& job_id) {
  SlurmJobStatus s;
  std::string squeue_error;
  if (auto out = run_tool({"squeue", "-h", "--states=all", "-j", job_id, "-o", "%T|%r|%N|%M"}, &squeue_error)) {
    if (auto parsed = parse_squeue_line(first_nonblank_line(*out))) s = *parsed;
  } else if (!squeue_forgot_job(squeue_error)) {
    s.no_answer = squeue_error.empty() ? "squeue failed and printed nothing" : squeue_error;
  }
  if (!s.state.empty() && !is_final_slurm_state(s.state)) return s;
  if (!s.state.empty()) {  // ended, and still in the controller's memory: its exit code
    if (auto out = run_tool({"scontrol", "show", "job", "-o", job_id})) {
      auto rec = parse_scontrol_record(first_nonblank_line(*out));
      s.exit_code = rec["ExitCode"];
      if (s.node.empty()) s.node = rec["NodeList"];
    }
    return s;
  }
  // Gone from squeue (MinJobAge passed): the accounting database, if the cluster has one.
  if (auto out = run_tool({"sacct", "-n", "-P", "-X", "-j", job_id, "-o", "State,ExitCode,NodeList,Elapsed"})) {
    if (auto parsed = parse_sacct_line(first_nonblank_line(*out))) return *parsed;
  }
  return s;
}

bool squeue_forgot_job(const std::string& squeue_error) {
  return squeue_error.find("Invalid job id") != std::string::npos;
}

bool scancel_job(const std::string& job_id, std::string* error) {
  std::string err;
  const bool ok = run_tool({"scancel", job_id}, &err).has_value();
  if (error) *error = err;
  return ok;
}

}  // namespace workbook
