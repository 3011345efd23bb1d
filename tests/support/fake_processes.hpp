// The children of the run pipeline played in-process (exec/process.hpp's
// ScopedProcessStandIn; ninja's FakeCommandRunner is the model): a host compiler that
// "compiles" by creating its -o file, and the labs it built, whose records a test writes;
// any other program a test plays through `tool` (Slurm's sbatch, squeue, ...). Every other
// one is not found, as run_process says of a missing one. Each argv is kept in `ran`, so a
// test sees what was compiled and run, and in which order.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exec/process.hpp"
#include "run/lab_run.hpp"
#include "util/error.hpp"

namespace wbtest {

class FakeProcesses {
 public:
  // What a built lab does when run: its records (the contract's JSON lines) and its end.
  struct LabRun {
    std::vector<nlohmann::json> records;
    workbook::ProcessResult end;  // exit_code 0 by default
  };
  std::function<LabRun(const workbook::ProcessOptions&)> lab;
  // Asked first of every program: its end, or nullopt to leave it to the compiler, the labs
  // or "not found".
  std::function<std::optional<workbook::ProcessResult>(const workbook::ProcessOptions&)> tool;
  bool compile_fails = false;
  std::vector<std::vector<std::string>> ran;

  FakeProcesses() : scope_([this](const workbook::ProcessOptions& o) { return answer(o); }) {}

  // How many of the argvs run were compiles (an -o output) and lab runs.
  int compiles() const {
    return count([this](const std::vector<std::string>& a) { return has(a, "-o") && !played(a); });
  }
  int lab_runs() const {
    return count([](const std::vector<std::string>& a) { return !a.empty() && is_built(a[0]); });
  }

  // The source a run lab was built from (its compile's last .cpp or .cu).
  static std::string source_of(const workbook::ProcessOptions& o) { return o.argv.empty() ? "" : built_from(o.argv[0]); }

  // A lab's argument NAME=VALUE (seed=, quick=, a parameter), or "" when it was not given.
  static std::string arg(const workbook::ProcessOptions& o, const std::string& name) {
    for (const auto& a : o.argv)
      if (a.rfind(name + "=", 0) == 0) return a.substr(name.size() + 1);
    return "";
  }

 private:
  static constexpr const char* kBuilt = "#!/bin/false\n# built by wbtest::FakeProcesses\n";
  workbook::ScopedProcessStandIn scope_;
  std::vector<std::vector<std::string>> by_tool_;  // the argvs `tool` answered
  bool played(const std::vector<std::string>& argv) const {
    return std::find(by_tool_.begin(), by_tool_.end(), argv) != by_tool_.end();
  }

  // A file the fake compiler wrote (renamed into the build cache since, perhaps).
  static bool is_built(const std::string& program) { return !built_from(program).empty(); }
  static std::string built_from(const std::string& program) {
    std::ifstream in(program);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string head = kBuilt;
    if (text.compare(0, head.size(), head) != 0) return "";
    return text.substr(head.size(), text.size() - head.size() - 1);
  }

  static bool has(const std::vector<std::string>& argv, const std::string& word) {
    return std::find(argv.begin(), argv.end(), word) != argv.end();
  }
  int count(const std::function<bool(const std::vector<std::string>&)>& pred) const {
    return static_cast<int>(std::count_if(ran.begin(), ran.end(), pred));
  }

  workbook::ProcessResult answer(const workbook::ProcessOptions& o) {
    ran.push_back(o.argv);
    if (tool)  // first: a tool's argv may hold -o too (squeue -o FORMAT)
      if (std::optional<workbook::ProcessResult> end = tool(o)) {
        by_tool_.push_back(o.argv);
        return *end;
      }
    workbook::ProcessResult r;
    r.exit_code = 0;
    if (o.argv.size() == 2 && o.argv[1] == "--version") {
      r.out = "c++ (fake) 1.0\n";
      return r;
    }
    if (auto out = std::find(o.argv.begin(), o.argv.end(), "-o"); out != o.argv.end() && out + 1 != o.argv.end()) {
      if (compile_fails) {
        r.exit_code = 1;
        r.err = "lab.cpp:3:1: error: expected ';' before '}' token\n";
        return r;
      }
      std::string source;  // the last source file named: the lab (the harness object comes first)
      for (const auto& a : o.argv)
        if (a.size() > 4 && (a.compare(a.size() - 4, 4, ".cpp") == 0 || a.compare(a.size() - 3, 3, ".cu") == 0)) source = a;
      std::ofstream(*(out + 1)) << kBuilt << source << "\n";
      ::chmod((out + 1)->c_str(), 0755);
      return r;
    }
    if (o.argv.empty() || !is_built(o.argv[0]))
      throw workbook::UsageError("`" + (o.argv.empty() ? std::string() : o.argv[0]) +
                                 "` was not found (the fake process runner plays only a compiler and its labs)");
    LabRun run = lab ? lab(o) : LabRun{};
    std::string results;
    for (const auto& [k, v] : o.env)
      if (k == "WORKBOOK_RESULTS") results = v;
    std::ofstream file(results);
    for (const auto& rec : run.records) file << rec.dump() << "\n";
    run.end.timeout_s = o.timeout_s;
    return run.end;
  }
};

// The fixture course's module01/pass_lab as its harness reports it: N summed (N=, else
// 1000), its time, the sum_ok check passing or not, and the matching exit code.
inline FakeProcesses::LabRun pass_lab_run(const workbook::ProcessOptions& o, bool sum_ok = true) {
  const std::string n = FakeProcesses::arg(o, "N");
  const double count = n.empty() ? 1000 : std::stod(n);
  FakeProcesses::LabRun run;
  run.records = {{{"type", "start"}, {"seed", std::stoull(FakeProcesses::arg(o, "seed"))}},
                 {{"type", "metric"}, {"name", "count"}, {"value", count}, {"unit", "count"}},
                 {{"type", "metric"}, {"name", "sum_ms"}, {"value", 0.001 * count / 1000}, {"unit", "ms"}},
                 {{"type", "check"}, {"name", "sum_ok"}, {"pass", sum_ok}},
                 {{"type", "end"}, {"pass", sum_ok}}};
  run.end.exit_code = sum_ok ? 0 : 1;
  return run;
}

// `workbook run module01/pass_lab --no-predict`, quiet (the in-process lab and Slurm tests).
inline workbook::RunRequest pass_lab_request() {
  workbook::RunRequest r;
  r.lab = "module01/pass_lab";
  r.no_predict = true;
  r.verbose = false;
  r.memcheck = false;
  return r;
}

}  // namespace wbtest
