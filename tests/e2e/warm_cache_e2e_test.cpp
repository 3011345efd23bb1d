// Fills the build cache that the other e2e tests start from (e2e_support.hpp, BuildCache):
// ctest runs this hidden case once, before every other test (the fixture
// e2e_warm_build_cache in tests/CMakeLists.txt). Run by hand:
//   build/dev/tests/workbook_tests "[warm_cache]"
#include <catch2/catch.hpp>

#include <unistd.h>

#include "e2e_support.hpp"

using e2e::BuildCache;
using e2e::CommandResult;
using e2e::FixtureCourse;
namespace fs = std::filesystem;

namespace {

// Replaces the shared cache with `built` in one rename, so no test ever sees half of it.
void publish(const fs::path& built) {
  const fs::path warm = WORKBOOK_WARM_BUILD_CACHE;
  const fs::path staging = warm.string() + ".tmp." + std::to_string(::getpid());
  fs::remove_all(staging);
  fs::copy(built, staging, fs::copy_options::recursive);
  fs::remove_all(warm);
  fs::rename(staging, warm);
}

std::size_t built_labs(const fs::path& cache) {
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(cache))
    if (fs::is_regular_file(entry.path() / "lab")) ++n;
  return n;
}

}  // namespace

TEST_CASE("e2e: warm build cache: every fixture lab compiled once for the other tests", "[.][warm_cache]") {
  FixtureCourse c("course", BuildCache::cold);
  // `dev check` without --run compiles each lab's starter, solution and variants and runs
  // nothing (broken_lab does not compile, on purpose, so the check itself says FAIL).
  CommandResult r = c.run({"dev", "check", "--json"}, {}, 600);
  INFO("exit " << r.exit_code << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
  nlohmann::json check = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(check.is_discarded());
  std::size_t compiled = 0;
  for (const auto& row : check["labs"]) compiled += row["compiled"].get<bool>() ? 1 : 0;
  REQUIRE(compiled >= 12);
  // Starters and solutions with the same text share one entry.
  REQUIRE(built_labs(c.build_cache()) >= 6);

  // The cache serves a course copied anywhere else: a run from a fresh copy with this cache
  // is not compiled again (the key holds no path).
  FixtureCourse probe("course", BuildCache::cold);
  fs::create_directories(probe.build_cache());
  fs::copy(c.build_cache(), probe.build_cache(), fs::copy_options::recursive);
  nlohmann::json run = probe.run_json({"run", "module01/pass_lab", "--json", "--no-predict"});
  REQUIRE(run["build"]["cached"] == true);

  publish(c.build_cache());
  CHECK(built_labs(WORKBOOK_WARM_BUILD_CACHE) == built_labs(c.build_cache()));
}
