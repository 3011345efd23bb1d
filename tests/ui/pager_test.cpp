// Tests for ui/pager: when output goes through a pager, and that the pager gets all of it,
// cannot hang us when it quits early, and falls back to printing when it cannot start.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "../support/temp_dir.hpp"
#include "ui/pager.hpp"

using namespace workbook;

namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `show_text(text, pager)` with stdout on the file `out`.
Shown shown_with_stdout(const std::string& text, const std::string& pager, const std::filesystem::path& out) {
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::dup2(fd, STDOUT_FILENO);
  ::close(fd);
  const Shown how = show_text(text, pager);
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  return how;
}

}  // namespace

TEST_CASE("choose_pager: a terminal's output goes through WORKBOOK_PAGER, PAGER or less -FRX", "[pager]") {
  CHECK(choose_pager(false, true, nullptr, nullptr) == "less -FRX");
  CHECK(choose_pager(false, true, nullptr, "most") == "most");
  CHECK(choose_pager(false, true, "less -R", "most") == "less -R");
  CHECK(choose_pager(false, true, "", "most").empty());  // WORKBOOK_PAGER= turns it off
  CHECK(choose_pager(false, true, nullptr, "cat").empty());
  CHECK(choose_pager(false, true, nullptr, "  ").empty());
  CHECK(choose_pager(true, true, nullptr, "most").empty());      // --no-pager
  CHECK(choose_pager(false, false, "less", "most").empty());     // a pipe or a file
  CHECK(shown_in_full(Shown::paged, false));
  CHECK(shown_in_full(Shown::printed, true));
  CHECK_FALSE(shown_in_full(Shown::printed, false));             // `show 19 | less`
}

TEST_CASE("show_text hands all of the text to the pager", "[pager]") {
  wbtest::TempDir tmp;
  const auto copy = tmp.path / "paged.txt", out = tmp.path / "stdout.txt";
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + " of the reading\n";  // > a pipe's buffer
  CHECK(shown_with_stdout(text, "cat > '" + copy.string() + "'", out) == Shown::paged);
  CHECK(read_all(copy) == text);
  CHECK(read_all(out).empty());
}

TEST_CASE("show_text: a pager that quits early neither hangs nor kills us", "[pager]") {
  wbtest::TempDir tmp;
  const auto out = tmp.path / "stdout.txt";
  std::string text(4 << 20, 'x');  // far more than a pipe holds
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(shown_with_stdout(text, "head -c 10 > /dev/null", out) == Shown::paged);  // like q in less
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  CHECK(read_all(out).empty());
}

TEST_CASE("show_text prints the text when the pager cannot start, or there is none", "[pager]") {
  wbtest::TempDir tmp;
  const auto out = tmp.path / "stdout.txt";
  const std::string text = "the whole reading\n";
  CHECK(shown_with_stdout(text, "no-such-pager-for-workbook-tests 2>/dev/null", out) == Shown::printed);
  CHECK(read_all(out) == text);
  CHECK(shown_with_stdout(text, "", out) == Shown::printed);
  CHECK(read_all(out) == text);
}
