// Tests for build/lab_build (issue 10): temporaries left in the build cache by a build
// that was killed (kill -9) are removed the next time the cache is used; a build still
// running (its process alive, its file young) is left alone.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "build/lab_build.hpp"

#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using workbook::BuildRequest;
using workbook::Language;
using wbtest::write_file;

namespace {

// A process id that existed and no longer does: a child that exited and was reaped.
pid_t dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

}  // namespace

TEST_CASE("stale lab.tmp.<pid>.* files of killed builds are removed when the cache is used", "[build]") {
  wbtest::TempDir tmp;
  BuildRequest req;
  req.source = tmp.path / "labs" / "hello.cpp";
  req.display_name = "labs/hello.cpp";
  req.language = Language::host;
  req.cache_dir = tmp.path / "ws" / ".workbook" / "build";
  req.timeout_s = 120;
  write_file(req.source, "int main() { return 0; }\n");

  const fs::path other_key = req.cache_dir / "0123456789abcdef0123456789abcdef";
  const fs::path killed = other_key / ("lab.tmp." + std::to_string(dead_pid()) + ".0");
  const fs::path running = other_key / ("lab.tmp." + std::to_string(::getpid()) + ".99");
  const fs::path old_alive = other_key / ("lab.tmp." + std::to_string(::getppid()) + ".3");
  const fs::path odd_young = other_key / "lab.tmp.x.1";
  const fs::path mine = other_key / "notes.txt";
  for (const auto& p : {killed, running, old_alive, odd_young, mine}) write_file(p, "half a binary");
  fs::last_write_time(old_alive, fs::file_time_type::clock::now() - std::chrono::hours(2));

  SECTION("on a build that compiles") {
    auto r = workbook::build_lab(req, nullptr);
    INFO(r.raw_output);
    REQUIRE(r.ok);
    CHECK_FALSE(r.cached);
  }
  SECTION("on a build that comes from the cache") {
    // Build first, then plant a killed build's temporary beside the cached binary.
    fs::remove_all(req.cache_dir);
    auto first = workbook::build_lab(req, nullptr);
    REQUIRE(first.ok);
    for (const auto& p : {killed, running, old_alive, odd_young, mine}) write_file(p, "half a binary");
    fs::last_write_time(old_alive, fs::file_time_type::clock::now() - std::chrono::hours(2));
    const fs::path beside = first.binary.parent_path() / ("lab.tmp." + std::to_string(dead_pid()) + ".7");
    write_file(beside, "half a binary");
    auto again = workbook::build_lab(req, nullptr);
    REQUIRE(again.ok);
    CHECK(again.cached);
    CHECK_FALSE(fs::exists(beside));
    CHECK(fs::exists(first.binary));
  }
  CHECK_FALSE(fs::exists(killed));     // its process is gone
  CHECK_FALSE(fs::exists(old_alive));  // older than an hour, whatever the pid
  CHECK(fs::exists(running));          // this process, young: a build in progress
  CHECK(fs::exists(odd_young));        // no pid to ask, and young
  CHECK(fs::exists(mine));             // not a temporary
}
