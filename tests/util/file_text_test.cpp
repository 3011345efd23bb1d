// Tests for util/file_text (reading a whole file).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "util/file_text.hpp"

using namespace workbook;

TEST_CASE("read_file_text returns every byte, and nothing for a missing file", "[util]") {
  const auto file = std::filesystem::temp_directory_path() / ("wb-file-text-" + std::to_string(::getpid()));
  static const char raw[] = "line one\r\nline two\n\0\xFF end";  // a NUL and a byte that is not UTF-8
  const std::string bytes(raw, sizeof raw - 1);
  std::ofstream(file, std::ios::binary) << bytes;
  const auto text = read_file_text(file);
  REQUIRE(text);
  CHECK(*text == bytes);
  std::filesystem::remove(file);
  CHECK_FALSE(read_file_text(file));
}

TEST_CASE("write_file_text: two writers of one file at once leave one whole text and no temporary", "[util]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("wb-file-text-race-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "state.json";
  // Two texts of different lengths: a torn write would mix or truncate them.
  const std::string a(200000, 'a'), b(150000, 'b');
  std::atomic<int> failures{0};
  auto writer = [&](const std::string& text) {
    for (int i = 0; i < 200; ++i) {
      try {
        write_file_text(file, text);
      } catch (const std::exception&) {
        ++failures;
      }
    }
  };
  std::thread t1(writer, std::cref(a)), t2(writer, std::cref(b));
  t1.join();
  t2.join();
  CHECK(failures == 0);
  const auto text = read_file_text(file);
  REQUIRE(text);
  CHECK((*text == a || *text == b));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);  // no temporary left behind
  // A link where a temporary could be is never written through.
  const fs::path target = dir / "elsewhere";
  write_file_text(target, "keep");
  std::error_code ec;
  fs::create_symlink(target, fs::path(file.string() + ".tmp"), ec);
  write_file_text(file, "new");
  CHECK(read_file_text(target) == std::optional<std::string>("keep"));
  CHECK(read_file_text(file) == std::optional<std::string>("new"));
  fs::remove_all(dir, ec);
}

TEST_CASE("read_regular_file: a FIFO or a link to /dev/zero is refused at once, a file past the bound too", "[util]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("wb-file-bounded-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);  // no writer: a blocking open would never return
  FileText fifo = read_regular_file(dir / "fifo");
  CHECK_FALSE(fifo.text);
  CHECK(fifo.problem == "is a FIFO (named pipe), not a regular file");
  CHECK_FALSE(read_file_text(dir / "fifo"));
  fs::create_symlink("/dev/zero", dir / "zero");  // endless: an unbounded read never ends
  FileText zero = read_regular_file(dir / "zero");
  CHECK_FALSE(zero.text);
  CHECK(zero.problem.find("is a character device") == 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(read_regular_file(dir).problem == "is a folder, not a regular file");

  std::ofstream(dir / "big", std::ios::binary) << std::string(2000, 'x');
  CHECK(read_regular_file(dir / "big", 2000).text->size() == 2000);
  FileText big = read_regular_file(dir / "big", 1999);
  CHECK_FALSE(big.text);
  CHECK(big.problem == "is larger than 1999 bytes (2000 bytes)");
  fs::create_symlink(dir / "big", dir / "link");  // a link to a regular file is read
  CHECK(read_regular_file(dir / "link").text->size() == 2000);
  FileText missing = read_regular_file(dir / "none");
  CHECK(missing.missing);
  CHECK(missing.problem == "does not exist");
  fs::remove_all(dir);
}

TEST_CASE("FileWriter: the file appears whole at commit, and is left as it was without one", "[util]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("wb-file-writer-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "export.json";
  write_file_text(file, "old");
  {
    FileWriter out(file);
    out.write("new, ");
    out.write("in pieces");
    CHECK(read_file_text(file) == std::optional<std::string>("old"));  // nothing shows before the commit
    out.commit();
  }
  CHECK(read_file_text(file) == std::optional<std::string>("new, in pieces"));
  try {
    FileWriter out(file);
    out.write("half of it");
    throw std::runtime_error("the export failed");
  } catch (const std::runtime_error&) {
  }
  CHECK(read_file_text(file) == std::optional<std::string>("new, in pieces"));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);  // the abandoned temporary was removed
  std::error_code ec;
  fs::remove_all(dir, ec);
}
