// End-to-end tests of `workbook run --ncu / --sanitize / --trace` through the real binary
// and the fixture course, with stand-in tools (shell scripts that write a recorded
// output where the real tool would, then run the lab): figures graded, a sanitizer error
// failing the run, missing tools and missing counter access giving exit 2.
#include <sys/stat.h>

#include "../e2e/e2e_support.hpp"
#include "profile_fixture.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A stand-in for ncu or compute-sanitizer: copies `recorded` to the --log-file path and
// runs the program (the first argument that is not one of the tool's options).
fs::path fake_tool(const fs::path& dir, const std::string& name, const fs::path& recorded) {
  const fs::path p = dir / name;
  e2e::write_file(p, "#!/bin/sh\nlog=\n"
                     "while [ $# -gt 0 ]; do case \"$1\" in\n"
                     "  --log-file) log=$2; shift 2;;\n"
                     "  --csv) shift;;\n"
                     "  --*|-k) shift 2;;\n"
                     "  *) break;;\n"
                     "esac; done\n"
                     "cp '" + recorded.string() + "' \"$log\"\nexec \"$@\"\n");
  ::chmod(p.c_str(), 0755);
  return p;
}

// The fixture's pass_lab with one ncu figure (graded 3.5-4.5 sectors per request).
void add_ncu_metric(const FixtureCourse& c) {
  const fs::path manifest = c.content / "modules/module01/module.yaml";
  std::string text = e2e::read_file(manifest);
  const std::string anchor = "      - name: sum_ms\n";
  const auto at = text.find(anchor);
  REQUIRE(at != std::string::npos);
  text.insert(at, "      - name: row_sectors\n        unit: sectors\n        source: {tool: ncu, kernel: copy_row_wise, "
                  "metric: l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio}\n"
                  "        expected: {min: 3.5, max: 4.5}\n");
  e2e::write_file(manifest, text);
}

}  // namespace

TEST_CASE("e2e: --ncu grades the manifest's ncu figure and shows the kernels", "[profile][e2e]") {
  FixtureCourse c;
  add_ncu_metric(c);
  const fs::path ncu = fake_tool(c.tmp.path, "ncu", wbtest::profile_fixture_path("ncu_raw_coalescing.csv"));
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict", "--json", "--ncu"}, {{"WORKBOOK_NCU", ncu.string()}});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  const json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["verdict"] == "pass");
  const json m = e2e::find_by(j["metrics"], "name", "row_sectors");
  CHECK(m["value"] == 4);
  CHECK(m["status"] == "in range");
  CHECK(j["profile"]["tool"] == "ncu");
  CHECK(j["profile"]["ncu"]["launches"].size() == 50);  // recorded on the H200: module12/coalescing
  // The lab's own timing is shown but not graded under ncu.
  CHECK(e2e::find_by(j["metrics"], "name", "sum_ms")["status"] == "no range");
  CHECK(e2e::find_by(j["metrics"], "name", "count")["status"] == "in range");  // exact figures stay graded

  // A plain run has no ncu figure at all.
  const json plain = c.run_json({"run", "module01/pass_lab", "--no-predict", "--json"});
  for (const auto& x : plain["metrics"]) CHECK(x["name"] != "row_sectors");

  // The terminal report names the kernels.
  CommandResult t = c.run({"run", "module01/pass_lab", "--no-predict", "--ncu"}, {{"WORKBOOK_NCU", ncu.string()}});
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("copy_col_wise (8,32,1) x8") != std::string::npos);
}

TEST_CASE("e2e: no counter access, or no ncu, is exit 2 with what to do", "[profile][e2e]") {
  FixtureCourse c;
  const fs::path ncu = fake_tool(c.tmp.path, "ncu", wbtest::profile_fixture_path("ncu_permission.txt"));
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict", "--ncu"}, {{"WORKBOOK_NCU", ncu.string()}});
  CHECK(r.exit_code == 2);
  CHECK((r.out + r.err).find("ERR_NVGPUCTRPERM") != std::string::npos);
  CommandResult missing = c.run({"run", "module01/pass_lab", "--no-predict", "--ncu"}, {{"WORKBOOK_NCU", "/nonexistent/ncu"}});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("WORKBOOK_NCU") != std::string::npos);
  CommandResult lib = c.run({"run", "module01/pass_lab", "--trace"}, {{"WORKBOOK_TRACE_LIB", "/nonexistent/lib.so"}});
  CHECK(lib.exit_code == 2);
  CommandResult wrong = c.run({"run", "module01/pass_lab", "--sanitize=leakcheck"});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("racecheck") != std::string::npos);
}

TEST_CASE("e2e: --sanitize turns the sanitizer's errors into a failed check (exit 1)", "[profile][e2e]") {
  FixtureCourse c;
  const fs::path bad = fake_tool(c.tmp.path, "cs-bad", wbtest::profile_fixture_path("sanitizer_memcheck_atomic.txt"));
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict", "--json", "--sanitize"},
                          {{"WORKBOOK_COMPUTE_SANITIZER", bad.string()}});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  const json check = e2e::find_by(j["checks"], "name", "sanitizer_memcheck");
  CHECK(check["pass"] == false);
  CHECK(j["profile"]["sanitizer"]["error_count"] == 15);  // recorded on the H200
  CHECK(j["profile"]["sanitizer"]["errors"][0]["where"] == "dot_reduction.cu:112");

  const fs::path good = fake_tool(c.tmp.path, "cs-good", wbtest::profile_fixture_path("sanitizer_memcheck_clean.txt"));
  CommandResult ok = c.run({"run", "module01/pass_lab", "--no-predict", "--sanitize=memcheck"},
                           {{"WORKBOOK_COMPUTE_SANITIZER", good.string()}});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("memcheck: no errors") != std::string::npos);
}
