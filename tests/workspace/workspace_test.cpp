// Tests for workspace/workspace: reset never destroys a backup, and runs/ is pruned.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <optional>
#include <string>

#include "util/error.hpp"
#include "workspace/home.hpp"
#include "workspace/workspace.hpp"

#include "../support/files.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using workbook::Catalog;
using workbook::LabSpec;
using workbook::RestoreResult;
using workbook::Workspace;
using wbtest::read_file;
using wbtest::ScopedEnv;
using wbtest::TempDir;
using wbtest::write_file;

namespace {

// A content root with one starter, labs/module01/demo.cpp, and an empty workspace.
struct Setup {
  TempDir tmp;
  Catalog catalog{tmp.path / "content"};
  Workspace ws{tmp.path / "ws"};
  LabSpec lab;
  fs::path copy;
  Setup() {
    lab.id = "module01/demo";
    lab.source = "demo.cpp";
    write_file(catalog.starter_path(lab), "// starter\n");
    copy = ws.lab_copy(lab);
  }
};

}  // namespace

TEST_CASE("restore_starter keeps every edited copy as a new numbered backup and overwrites none", "[workspace]") {
  Setup s;
  // No copy yet: the starter is copied, nothing to back up.
  RestoreResult r0 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r0.kind == RestoreResult::Kind::created);
  CHECK(r0.backup.empty());
  CHECK(read_file(s.copy) == "// starter\n");

  write_file(s.copy, "// attempt 1\n");
  CHECK(s.ws.next_backup(s.lab) == fs::path(s.copy.string() + ".bak"));
  RestoreResult r1 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r1.kind == RestoreResult::Kind::restored);
  CHECK(r1.backup == fs::path(s.copy.string() + ".bak"));
  CHECK(read_file(s.copy) == "// starter\n");
  CHECK(read_file(s.copy.string() + ".bak") == "// attempt 1\n");

  // The copy is the starter: nothing is written, the backup stays.
  RestoreResult r2 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r2.kind == RestoreResult::Kind::unchanged);
  CHECK(r2.backup.empty());
  CHECK(read_file(s.copy.string() + ".bak") == "// attempt 1\n");
  CHECK_FALSE(fs::exists(s.copy.string() + ".bak.1"));

  write_file(s.copy, "// attempt 2\n");
  CHECK(s.ws.next_backup(s.lab) == fs::path(s.copy.string() + ".bak.1"));
  RestoreResult r3 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r3.kind == RestoreResult::Kind::restored);
  CHECK(r3.backup == fs::path(s.copy.string() + ".bak.1"));
  CHECK(read_file(s.copy.string() + ".bak") == "// attempt 1\n");
  CHECK(read_file(s.copy.string() + ".bak.1") == "// attempt 2\n");

  // A copy that equals an existing backup is not written again; that backup is named.
  write_file(s.copy, "// attempt 1\n");
  RestoreResult r4 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r4.kind == RestoreResult::Kind::restored);
  CHECK(r4.already_kept);
  CHECK(r4.backup == fs::path(s.copy.string() + ".bak"));
  CHECK_FALSE(fs::exists(s.copy.string() + ".bak.2"));
  CHECK(read_file(s.copy) == "// starter\n");

  // After a backup the learner deleted, the numbers still go up: the newest is the highest.
  fs::remove(s.copy.string() + ".bak");
  write_file(s.copy, "// attempt 3\n");
  RestoreResult r5 = s.ws.restore_starter(s.catalog, s.lab);
  CHECK(r5.backup == fs::path(s.copy.string() + ".bak.2"));
  CHECK(read_file(s.copy.string() + ".bak.2") == "// attempt 3\n");
  CHECK(read_file(s.copy.string() + ".bak.1") == "// attempt 2\n");
  CHECK_FALSE(fs::exists(s.copy.string() + ".bak"));
}

TEST_CASE("prune_runs keeps the newest results files and nothing else is touched", "[workspace]") {
  TempDir tmp;
  Workspace ws(tmp.path / "ws");
  ws.ensure();
  const auto now = fs::file_time_type::clock::now();
  for (int i = 1; i <= 12; ++i) {
    fs::path f = ws.runs_dir() / ("run-" + std::to_string(i) + ".jsonl");
    write_file(f, "{}\n");
    fs::last_write_time(f, now - std::chrono::minutes(100 - i));  // run-12 the newest
  }
  write_file(ws.runs_dir() / "probe-calibrate-77.jsonl", "{}\n");
  fs::last_write_time(ws.runs_dir() / "probe-calibrate-77.jsonl", now - std::chrono::minutes(500));
  write_file(ws.runs_dir() / "keep-me.txt", "mine\n");
  fs::create_directories(ws.runs_dir() / "run-folder-of-mine");
  write_file(ws.journal_path(), "not really a journal\n");

  CHECK(ws.prune_runs(5) == 8);  // 12 runs + 1 probe, 5 kept
  for (int i = 1; i <= 12; ++i) {
    INFO(i);
    CHECK(fs::exists(ws.runs_dir() / ("run-" + std::to_string(i) + ".jsonl")) == (i > 7));
  }
  CHECK_FALSE(fs::exists(ws.runs_dir() / "probe-calibrate-77.jsonl"));
  CHECK(fs::exists(ws.runs_dir() / "keep-me.txt"));
  CHECK(fs::is_directory(ws.runs_dir() / "run-folder-of-mine"));
  CHECK(read_file(ws.journal_path()) == "not really a journal\n");
  CHECK(ws.prune_runs(5) == 0);

  // No runs folder at all: nothing to do, no error.
  Workspace empty(tmp.path / "nowhere");
  CHECK(empty.prune_runs(5) == 0);
}

TEST_CASE("prune_runs removes a pruned run's trace, ncu CSV and sanitizer log with its results", "[workspace]") {
  TempDir tmp;
  Workspace ws(tmp.path / "ws");
  ws.ensure();
  const auto now = fs::file_time_type::clock::now();
  auto put = [&](const std::string& name, int minutes_ago) {
    write_file(ws.runs_dir() / name, "x\n");
    fs::last_write_time(ws.runs_dir() / name, now - std::chrono::minutes(minutes_ago));
  };
  for (int i = 1; i <= 6; ++i) put("run-" + std::to_string(i) + ".jsonl", 100 - i);  // run-6 the newest
  put("run-1.trace.jsonl", 99);
  put("run-2.ncu.csv", 98);
  put("run-3.sanitizer.txt", 97);
  put("run-5.trace.jsonl", 95);
  put("run-6.sanitizer.txt", 94);
  // A run whose lab wrote no results (it crashed under the sanitizer): its log is the run.
  put("run-7.sanitizer.txt", 10);
  // A run's newest file gives its age: run-2's CSV, rewritten late, keeps run-2.
  put("run-2.ncu.csv", 5);
  put("run-notes.txt", 500);   // not a run's file
  put("run-x.ncu.csv", 500);   // not a run number
  put("run-4.jsonl.tmp", 500); // not one of the run's files

  // Runs by age, newest first: 2 (5 min), 7 (10), 6, 5, 4, 3, 1. Keeping 4 removes runs 4
  // (one file), 3 and 1 (two each).
  CHECK(ws.prune_runs(4) == 5);
  for (const char* gone : {"run-1.jsonl", "run-1.trace.jsonl", "run-3.jsonl", "run-3.sanitizer.txt", "run-4.jsonl"}) {
    INFO(gone);
    CHECK_FALSE(fs::exists(ws.runs_dir() / gone));
  }
  for (const char* kept : {"run-2.jsonl", "run-2.ncu.csv", "run-5.jsonl", "run-5.trace.jsonl", "run-6.jsonl",
                           "run-6.sanitizer.txt", "run-7.sanitizer.txt", "run-notes.txt", "run-x.ncu.csv",
                           "run-4.jsonl.tmp"}) {
    INFO(kept);
    CHECK(fs::exists(ws.runs_dir() / kept));
  }
  CHECK(ws.prune_runs(4) == 0);
  CHECK(ws.prune_runs(1) == 5);  // runs 7 (one file), 6 and 5 (two each); run 2 stays
  CHECK(fs::exists(ws.runs_dir() / "run-2.ncu.csv"));
  CHECK_FALSE(fs::exists(ws.runs_dir() / "run-7.sanitizer.txt"));
}

TEST_CASE("home_folder: a relative HOME is refused, an unset one falls back to the account's home", "[workspace][home]") {
  ScopedEnv no_workspace("WORKBOOK_WORKSPACE", std::nullopt);
  {
    ScopedEnv home("HOME", "relative/home");
    try {
      workbook::home_folder();
      FAIL("a relative HOME was taken");
    } catch (const workbook::UsageError& e) {
      CHECK(std::string(e.what()).find("HOME is 'relative/home', not an absolute path") != std::string::npos);
      CHECK(e.hint().find("--workspace DIR") != std::string::npos);
    }
    TempDir tmp;  // a folder without .workbook above it: resolve falls through to HOME
    const fs::path cwd = fs::current_path();
    fs::current_path(tmp.path);
    CHECK_THROWS_AS(Workspace::resolve(std::nullopt), workbook::UsageError);
    fs::current_path(cwd);
  }
  {
    ScopedEnv home("HOME", "/home/someone/../someone/");
    CHECK(workbook::home_folder() == fs::path("/home/someone/"));
  }
  {
    ScopedEnv home("HOME", std::nullopt);
    const fs::path h = workbook::home_folder();  // the password database's entry for this account
    CHECK(h.is_absolute());
    CHECK(h != fs::path("/"));
  }
  {
    ScopedEnv home("HOME", "");
    CHECK(workbook::home_folder().is_absolute());
  }
}

TEST_CASE("restore_starter refuses a copy that is a FIFO or a link to /dev/zero, at once, changing nothing", "[workspace]") {
  Setup s;
  fs::create_directories(s.copy.parent_path());
  REQUIRE(::mkfifo(s.copy.c_str(), 0600) == 0);  // no writer: reading it would block for ever
  try {
    s.ws.restore_starter(s.catalog, s.lab);
    FAIL("a FIFO copy was restored over");
  } catch (const workbook::Error& e) {
    CHECK(std::string(e.what()).find("is a FIFO (named pipe), not a regular file; nothing was changed") !=
          std::string::npos);
    CHECK(e.hint().find("move it out of the way (mv ") == 0);
  }
  CHECK(fs::is_fifo(s.copy));
  fs::remove(s.copy);
  fs::create_symlink("/dev/zero", s.copy);  // endless
  CHECK_THROWS_WITH(s.ws.restore_starter(s.catalog, s.lab), Catch::Contains("is a character device"));
  CHECK(fs::is_symlink(s.copy));
}

TEST_CASE("ensure_common on a full disk: exit 74, and no workbook.cuh.tmp left behind", "[workspace][io]") {
  Setup s;
  write_file(s.catalog.common_dir() / "workbook.cuh", std::string(4096, 'h'));
  fs::create_directories(s.ws.root() / "labs" / "common");
  // A file may not grow past 100 bytes: the write fails as on a full disk (EFBIG, not SIGXFSZ).
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  ::getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = 100;
  ::setrlimit(RLIMIT_FSIZE, &small);
  std::optional<workbook::Error> failed;
  try {
    s.ws.ensure_common(s.catalog);
  } catch (const workbook::Error& e) {
    failed = e;
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  REQUIRE(failed);
  CHECK(failed->code() == workbook::Exit::io_error);
  CHECK(std::string(failed->what()).find("cannot copy the harness headers") == 0);
  for (const auto& entry : fs::directory_iterator(s.ws.root() / "labs" / "common"))
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
  s.ws.ensure_common(s.catalog);  // space again: the header is copied
  CHECK(read_file(s.ws.root() / "labs" / "common" / "workbook.cuh") == std::string(4096, 'h'));
}
