// Tests for ui/prompt: end_stdin_reads, which a Ctrl-C handler calls so that a read of
// stdin that had not begun when the signal came ends instead of waiting for a line.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include "ui/prompt.hpp"

using namespace workbook;

namespace {

// Puts an empty pipe on stdin for the test's lifetime (its write end stays open, so a
// read would block) and restores the real stdin afterwards.
struct EmptyPipeOnStdin {
  int saved = ::dup(STDIN_FILENO);
  int fds[2] = {-1, -1};
  EmptyPipeOnStdin() {
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
  }
  ~EmptyPipeOnStdin() {
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    ::close(fds[0]);
    ::close(fds[1]);
  }
};

}  // namespace

TEST_CASE("prompt: end_stdin_reads makes the next read of stdin see end of input", "[ui][prompt]") {
  EmptyPipeOnStdin pipe;
  // Before: nothing to read and the writer alive, so the pipe is not readable.
  CHECK(::fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK) == 0);
  char c = 0;
  CHECK(::read(STDIN_FILENO, &c, 1) == -1);  // EAGAIN: a blocking read would wait here
  end_stdin_reads();
  CHECK(::read(STDIN_FILENO, &c, 1) == 0);  // end of input at once
  // stdin is still an open descriptor: a new file does not take fd 0.
  const int fd = ::open("/dev/null", O_RDONLY);
  CHECK(fd > STDIN_FILENO);
  ::close(fd);
}
