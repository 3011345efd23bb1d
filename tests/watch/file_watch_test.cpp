// Tests for watch/file_watch: a save by writing in place, by renaming a new file over the
// old one (vim, VS Code), several quick writes reported once, another file's save
// ignored, a deletion that is no save, the polling fallback, a timeout, and a stop.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <thread>

#include "../support/files.hpp"
#include "../support/temp_dir.hpp"
#include "watch/file_watch.hpp"

using namespace workbook;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using wbtest::write_file;

namespace {

// Saves `text` as an editor that writes a new file and renames it over the old one.
void save_by_rename(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.parent_path() / (".tmp-" + p.filename().string());
  write_file(tmp, text);
  fs::rename(tmp, p);
}

FileWatchOptions fast(bool poll) {
  FileWatchOptions o;
  o.poll = poll;
  o.debounce = 150ms;
  o.poll_interval = 50ms;
  o.tick = 20ms;
  return o;
}

}  // namespace

TEST_CASE("file_watch: a save by writing in place and a save by rename are each one event", "[watch]") {
  for (bool poll : {false, true}) {
    INFO("polling " << poll);
    wbtest::TempDir dir;
    const fs::path file = dir.write("lab.cpp", "v1\n");
    FileWatch watch(file, fast(poll));
    CHECK(watch.polling() == poll);
    CHECK(watch.wait(300ms) == WatchEvent::timed_out);  // nothing saved yet

    write_file(file, "v2, longer\n");
    CHECK(watch.wait(3s) == WatchEvent::saved);
    CHECK(watch.wait(400ms) == WatchEvent::timed_out);  // that save is reported once

    save_by_rename(file, "v3, by rename\n");
    CHECK(watch.wait(3s) == WatchEvent::saved);
    CHECK(watch.wait(400ms) == WatchEvent::timed_out);
  }
}

TEST_CASE("file_watch: several quick writes while waiting make one event", "[watch]") {
  for (bool poll : {false, true}) {
    INFO("polling " << poll);
    wbtest::TempDir dir;
    const fs::path file = dir.write("lab.cpp", "v1\n");
    FileWatch watch(file, fast(poll));
    std::thread editor([&] {
      for (int i = 0; i < 4; ++i) {
        std::this_thread::sleep_for(40ms);  // closer together than the debounce time
        write_file(file, "v" + std::string(static_cast<std::size_t>(i + 2), '+') + "\n");
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    const WatchEvent first = watch.wait(3s);
    const auto waited = std::chrono::steady_clock::now() - t0;
    editor.join();
    CHECK(first == WatchEvent::saved);
    CHECK(waited >= 150ms + 120ms);  // after the writes, and after the quiet time
    CHECK(watch.wait(500ms) == WatchEvent::timed_out);
  }
}

TEST_CASE("file_watch: other files, a deletion and an unchanged file are not saves", "[watch]") {
  wbtest::TempDir dir;
  const fs::path file = dir.write("lab.cpp", "v1\n");
  FileWatch watch(file, fast(false));
  write_file(dir.path / "other.cpp", "x\n");
  save_by_rename(dir.path / "lab.cpp.orig", "y\n");
  CHECK(watch.wait(400ms) == WatchEvent::timed_out);
  fs::remove(file);
  CHECK(watch.wait(400ms) == WatchEvent::timed_out);
  write_file(file, "back\n");  // written again: a save
  CHECK(watch.wait(3s) == WatchEvent::saved);
}

TEST_CASE("file_watch: WORKBOOK_WATCH_POLL and a missing folder mean polling", "[watch]") {
  wbtest::TempDir dir;
  {
    ::setenv("WORKBOOK_WATCH_POLL", "1", 1);
    FileWatch polled(dir.path / "lab.cpp", fast(false));
    ::unsetenv("WORKBOOK_WATCH_POLL");
    CHECK(polled.polling());
  }
  FileWatch missing(dir.path / "not-yet" / "lab.cpp", fast(false));
  CHECK(missing.polling());
  fs::create_directories(dir.path / "not-yet");
  write_file(dir.path / "not-yet" / "lab.cpp", "made\n");
  CHECK(missing.wait(3s) == WatchEvent::saved);
}

TEST_CASE("file_watch: a stop request ends the wait within a tick", "[watch]") {
  for (bool poll : {false, true}) {
    wbtest::TempDir dir;
    FileWatch watch(dir.write("lab.cpp", "v1\n"), fast(poll));
    int asked = 0;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(watch.wait(std::nullopt, [&] { return ++asked >= 3; }) == WatchEvent::stopped);
    CHECK(std::chrono::steady_clock::now() - t0 < 1s);
    CHECK(asked == 3);
  }
}
