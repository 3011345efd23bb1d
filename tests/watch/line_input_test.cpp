// Tests for watch/line_input: lines from a pipe, a last line without '\n', the end of
// the input, and a wait given up on request.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <string>

#include "watch/line_input.hpp"

using namespace workbook;
using namespace std::chrono_literals;

TEST_CASE("line_input: lines, a last line without a newline, then the end", "[watch]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string text = "\nq\nlast";
  REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  LineInput in(fds[0]);
  std::string line = "x";
  CHECK(in.next(line, {}) == LineInput::Status::line);
  CHECK(line.empty());
  CHECK(in.next(line, {}) == LineInput::Status::line);
  CHECK(line == "q");
  CHECK(in.next(line, {}) == LineInput::Status::line);
  CHECK(line == "last");
  CHECK(in.next(line, {}) == LineInput::Status::end);
  ::close(fds[0]);
}

TEST_CASE("line_input: a wait for a line that does not come is given up when asked", "[watch]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  LineInput in(fds[0]);
  std::string line;
  int asked = 0;
  CHECK(in.next(line, [&] { return ++asked > 2; }, 10ms) == LineInput::Status::stopped);
  CHECK(asked == 3);
  const std::string text = "go\n";  // what arrives later is still read
  REQUIRE(::write(fds[1], text.data(), text.size()) == 3);
  CHECK(in.next(line, {}) == LineInput::Status::line);
  CHECK(line == "go");
  ::close(fds[0]);
  ::close(fds[1]);
}
