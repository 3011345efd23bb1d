// End-to-end tests of input that used to be misread or wrongly accepted: run options
// (--timeout, --seed, -p) are checked before anything is recorded or built, and typed
// numbers in `follow` are read by their results, in one grammar, with units converted.
#include <sqlite3.h>
#include <sys/resource.h>

#include "learn_support.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// How many runs the journal holds (0 when there is no journal yet).
int run_count(const fs::path& db_file) {
  if (!fs::exists(db_file)) return 0;
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  int n = -1;
  sqlite3_exec(
      db, "SELECT COUNT(*) FROM runs",
      [](void* p, int, char** v, char**) {
        *static_cast<int*>(p) = v[0] ? std::stoi(v[0]) : 0;
        return 0;
      },
      &n, nullptr);
  sqlite3_close(db);
  return n;
}

}  // namespace

TEST_CASE("input e2e: bad --timeout, --seed and -p values exit 2 before anything is built or recorded",
          "[e2e][input]") {
  FixtureCourse c("course", e2e::BuildCache::cold);  // so that an empty cache shows nothing was built
  struct Case {
    std::vector<std::string> extra;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--timeout", "inf"}, "--timeout"},
      {{"--timeout", "nan"}, "--timeout"},
      {{"--timeout", "1e12"}, "--timeout"},
      {{"--timeout", "0"}, "--timeout"},
      {{"--timeout", "-5"}, "--timeout"},
      {{"--timeout", "86401"}, "--timeout"},
      {{"--seed", "18446744073709551616"}, "--seed"},  // 2^64
      {{"--seed", "2^64"}, "--seed"},
      {{"--seed", "-1"}, "--seed"},
      {{"--seed", "1.5"}, "--seed"},
      {{"-p", "N=1.5"}, "-p N: '1.5' is not a whole number"},
      {{"-p", "N=1e20"}, "-p N: '1e20' is too large"},
      {{"-p", "N=nan"}, "-p N: 'nan' is not a number"},
      {{"-p", "N=1,5"}, "-p N: '1,5'"},
      {{"--predict", "count_guess=1,5"}, "prediction 'count_guess': '1,5' is not a number"},  // never 15
  };
  for (const auto& k : cases) {
    std::vector<std::string> args{"run", "module01/pass_lab", "--no-predict", "--json"};
    args.insert(args.end(), k.extra.begin(), k.extra.end());
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    INFO(cmd);
    CommandResult r = c.run(args);
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(k.message) != std::string::npos);
    CHECK(r.out.empty());
  }
  CHECK(run_count(c.journal()) == 0);
  // Nothing was built either.
  const fs::path cache = c.workspace / ".workbook/build";
  CHECK((!fs::exists(cache) || fs::is_empty(cache)));
}

TEST_CASE("input e2e: good --timeout, --seed and hex -p values are used as given", "[e2e][input]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--no-predict", "--json", "-p", "N=0x10", "--timeout", "86400",
                       "--seed", "18446744073709551615"},
                      &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["params"]["N"] == 16);  // 0x10 as the lab reads it, never 0
  CHECK(j["seed"] == 18446744073709551615ULL);
  CHECK(j["verdict"] == "pass");
}

TEST_CASE("input e2e: follow 14 reads worked answers by their results, in the model answer's notation",
          "[e2e][input][learn]") {
  learn_e2e::LearnCourse c("");
  CommandResult r;
  // Step 1 with the working shown, step 2 in the model answer's x 10^N notation, step 3
  // one number in that notation.
  json j = c.run_json({"follow", "14", "--json"},
                      "2*2048^3 = 1.72e10 reads, 68.7 GB\n"
                      "1.72 x 10^10 / 32 = 5.4 x 10^8 reads, 2.1 GB\n"
                      "1.72 x 10^10\n"
                      "2100 us\n",
                      &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["steps"].size() == 4);
  for (int i = 0; i < 4; ++i) {
    INFO("step " << i + 1 << ": " << j["steps"][i].dump());
    CHECK(j["steps"][i]["numbers_correct"] == j["steps"][i]["numbers"].size());
  }
  CHECK(j["steps"][0]["numbers"][0]["given"].get<double>() == Approx(1.72e10));
  CHECK(j["steps"][3]["numbers"][0]["given"].get<double>() == Approx(2.1));  // 2100 us in ms
}

// --- labs written to misbehave (issue 26) -------------------------------------------------

namespace {

// The fixture pass_lab with `from` replaced by `to`, as the learner's copy in `c`.
void edit_pass_lab(const FixtureCourse& c, const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text = e2e::read_file(c.starter("pass_lab.cpp"));
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  }
  e2e::write_file(c.lab_copy("pass_lab.cpp"), text);
}

const std::string kSumMs = "wb::metric(\"sum_ms\", wb::stats_of(ms), \"ms\");";

}  // namespace

TEST_CASE("input e2e: a graded figure reported as NaN, or not at all, fails the run", "[e2e][input][hostile]") {
  for (const std::string& replacement : {std::string("wb::metric(\"sum_ms\", std::nan(\"\"), \"ms\");"),
                                        std::string("(void)ms;")}) {
    FixtureCourse c;
    edit_pass_lab(c, {{kSumMs, replacement}});
    CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"});
    SHOW(r);
    INFO(replacement);
    CHECK(r.exit_code == 1);
    CHECK((r.out + r.err).find("the lab did not report sum_ms") != std::string::npos);
    CHECK(e2e::journal_value(c.journal(), "SELECT verdict FROM runs") == "fail");
  }
}

TEST_CASE("input e2e: a lab that replaces its results file with a FIFO does not hold the runner",
          "[e2e][input][hostile]") {
  FixtureCourse c;
  edit_pass_lab(c, {{"#include <chrono>", "#include <sys/stat.h>\n#include <unistd.h>\n#include <chrono>\n#include <cstdlib>"},
                    {"return wb::finish();",
                     "const int rc = wb::finish();\n  const char* results = std::getenv(\"WORKBOOK_RESULTS\");\n"
                     "  if (results) { ::unlink(results); ::mkfifo(results, 0600); }\n  return rc;"}});
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"}, {}, 60);
  SHOW(r);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code != 0);
  CHECK((r.out + r.err).find("named pipe") != std::string::npos);
}

TEST_CASE("input e2e: the harness takes 200,000 distinct result names in linear time", "[e2e][input][hostile]") {
  FixtureCourse c;
  const fs::path src = c.tmp.path / "many.cpp";
  e2e::write_file(src, "#include \"wb_host.hpp\"\n"
                       "int main(int argc, char** argv) {\n"
                       "  wb::init(argc, argv, \"module01/many\");\n"
                       "  wb::params_done();\n"
                       "  for (int i = 0; i < 200000; ++i) wb::metric((\"m\" + std::to_string(i)).c_str(), 1.0, \"count\");\n"
                       "  return wb::finish();\n"
                       "}\n");
  const fs::path bin = c.tmp.path / "many";
  const std::string build = "c++ -std=c++17 -O2 -I '" + (c.content / "labs/common").string() + "' '" + src.string() +
                            "' -o '" + bin.string() + "'";
  REQUIRE(std::system(build.c_str()) == 0);
  // CPU time, not wall time: the test machine may be busy. Linear: well under a second;
  // a scan of every earlier name (about 2e10 string comparisons) takes minutes.
  auto cpu_s = [] {
    rusage u{};
    ::getrusage(RUSAGE_CHILDREN, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  };
  const double before = cpu_s();
  const std::string run = "timeout 120 env WORKBOOK_RESULTS='" + (c.tmp.path / "results.jsonl").string() + "' '" +
                          bin.string() + "' > /dev/null 2>&1";
  CHECK(std::system(run.c_str()) == 0);  // not killed by the time-out
  const double s = cpu_s() - before;
  INFO(s << " s of CPU for 200,000 names");
  CHECK(s < 10);
}
