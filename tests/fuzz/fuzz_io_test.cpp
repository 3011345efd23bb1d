// Fuzz targets for what crosses a machine's or a process's edge: a journal export handed
// to `journal import` (seeded with a real export), a lab's results file read back from
// disk (read_results_file: the size caps, the FIFO and partial-line paths, not only the
// parser), and the Slurm batch script (render_batch_script: whatever the runner's
// command line holds, bash must run exactly that command). The harness and how to run
// it longer: tests/support/fuzz.hpp.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "grade/results.hpp"
#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "slurm/slurm_config.hpp"
#include "util/error.hpp"

#include "../support/export_document.hpp"
#include "../support/fuzz.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbfuzz::fuzz;

namespace {

// A journal with a few runs of every kind of row an export carries from runs.
void fill(Journal& j) {
  for (int i = 0; i < 3; ++i) {
    const long long run = j.begin_run({"module01/pass_lab", i == 2 ? "solution" : "starter", "/ws/labs/module01/pass_lab.cpp",
                                       "{\"N\":" + std::to_string(1000 + i) + "}", 7ULL + static_cast<unsigned>(i),
                                       "Tesla T4", "sm_75"});
    j.record_prediction(run, "module01/pass_lab", {"sum", "500500", 500500.0});
    j.record_build(run, "key" + std::to_string(i), i > 0, true);
    Grade g;
    g.checks = {{"sum_ok", true, true, true, 0.0, std::nullopt, "fine"}};
    MetricGrade m;
    m.name = "time";
    m.unit = "ms";
    m.value = 1.5 + i;
    m.status = RangeStatus::in_range;
    g.metrics = {m};
    j.record_grade(run, g);
    j.finish_run(run, Verdict::pass, 0, "exited with code 0");
    j.record_explanation(run, "the loop is memory-bound \xe2\x80\x94 run " + std::to_string(i));
  }
}

// What `bash script` printed on stdout (and how it ended), the script given as a file.
std::pair<int, std::string> run_bash(const fs::path& script) {
  const std::string cmd = "bash " + script.string() + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("fuzz: journal import refuses a broken export or merges it, never crashes", "[fuzz]") {
  wbtest::TempDir tmp;
  Journal source(tmp.path / "source.db");
  fill(source);
  const nlohmann::json doc = wbtest::export_document(source, "fuzz-machine");
  Journal target(tmp.path / "target.db");
  const fs::path file = tmp.path / "export.json";
  fuzz("journal_import", {doc.dump(), doc.dump(1)}, [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    import_journal_files(target, {file});
  });
  // A clean export still merges after all that: nothing half-imported blocks it.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << doc.dump();
  CHECK_NOTHROW(import_journal_files(target, {file}));
}

TEST_CASE("fuzz: the results file reader takes any file", "[fuzz]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "run-1.jsonl";
  const std::string good =
      "{\"type\":\"start\",\"lab\":\"module01/x\",\"seed\":7,\"quick\":false}\n"
      "{\"type\":\"param\",\"name\":\"N\",\"value\":1024}\n"
      "{\"type\":\"metric\",\"name\":\"t_ms\",\"value\":1.5,\"unit\":\"ms\",\"samples\":10,\"min\":1,\"max\":2,\"spread\":0.1}\n"
      "{\"type\":\"check\",\"name\":\"ok\",\"pass\":true,\"value\":0,\"limit\":1e-5,\"detail\":\"fine\"}\n"
      "{\"type\":\"end\",\"pass\":true}\n";
  std::string many;
  for (int i = 0; i < 200; ++i)
    many += "{\"type\":\"metric\",\"name\":\"m" + std::to_string(i) + "\",\"value\":" + std::to_string(i) + ",\"unit\":\"ms\"}\n";
  fuzz("results_file", {good, good + many, "{\"type\":\"start\",\"seed\":7}\n{\"type\":"}, [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    read_results_file(file, 7);
  });
}

TEST_CASE("fuzz: the batch script runs exactly the runner's command line, whatever it holds", "[fuzz][slurm]") {
  wbtest::TempDir tmp;
  const fs::path script = tmp.path / "job.sh";
  // Each input is split on its first bytes into arguments; the command prints each
  // argument and a NUL (a NUL cannot be in an argument: it ends the input's piece).
  // The #SBATCH fields get the input too, less its newlines: a newline cannot be quoted
  // in an #SBATCH line, and refusing one is the Slurm submission's job (run/slurm_submit).
  const std::vector<std::string> corpus = {"module01/pass_lab --seed 7 -p N=1024",
                                           "/home/a b/ws 'quoted' \"double\" $HOME `id` $(id) ; rm -rf x & | > <",
                                           "line\none\ttab \\ back\\slash '\\'' \xff\xfe \xe2\x80\x94 *.cu ~ !! #c"};
  long checked = 0;
  fuzz("batch_script", corpus, [&](const std::string& text) {
    std::vector<std::string> args = {"/usr/bin/printf", "%s\\0"};
    std::string piece;
    for (char c : text) {
      if (c == '\0' || c == ' ') {
        args.push_back(piece);
        piece.clear();
      } else {
        piece += c;
      }
    }
    args.push_back(piece);
    std::string one_line = text;
    for (char& c : one_line) {
      if (c == '\n' || c == '\r' || c == '\0') c = '_';
    }
    BatchScript b;
    b.job_name = "wb-" + one_line;
    b.run_label = "run #1 of " + one_line;
    b.output = tmp.path / (one_line + ".out");
    b.workdir = tmp.path / one_line;
    b.command = args;
    std::ofstream(script, std::ios::binary | std::ios::trunc) << render_batch_script(b);
    const auto [code, out] = run_bash(script);
    std::string expected;
    for (std::size_t i = 2; i < args.size(); ++i) expected += args[i] + std::string(1, '\0');
    INFO("input: " << text);
    REQUIRE(code == 0);
    REQUIRE(out == expected);
    ++checked;
  });
  CHECK(checked > 0);
}
