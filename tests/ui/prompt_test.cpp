// Tests for ui/prompt: CtrlCEndsInput, under which Ctrl-C makes a read of stdin that had
// not begun when the signal came end instead of waiting for a line; the prompts' wrapping.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "../support/lines.hpp"
#include "ui/prompt.hpp"
#include "ui/wrap.hpp"

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

// SIGINT as a terminal's Ctrl-C finds it: caught by default (a shell without job control
// starts a background job with it ignored), restored afterwards.
struct DefaultSigint {
  struct sigaction before {};
  DefaultSigint() {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, &before);
  }
  ~DefaultSigint() { sigaction(SIGINT, &before, nullptr); }
};

}  // namespace

TEST_CASE("prompt: Ctrl-C under CtrlCEndsInput is remembered and the next read sees end of input", "[ui][prompt]") {
  EmptyPipeOnStdin pipe;
  DefaultSigint sigint;
  // Before: nothing to read and the writer alive, so the pipe is not readable.
  CHECK(::fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK) == 0);
  char c = 0;
  CHECK(::read(STDIN_FILENO, &c, 1) == -1);  // EAGAIN: a blocking read would wait here
  {
    const CtrlCEndsInput ctrl_c;
    CHECK_FALSE(ctrl_c.fired());
    ::raise(SIGINT);  // the process lives on: the handler caught it
    CHECK(ctrl_c.fired());
  }
  CHECK(::read(STDIN_FILENO, &c, 1) == 0);  // end of input at once
  // stdin is still an open descriptor: a new file does not take fd 0.
  const int fd = ::open("/dev/null", O_RDONLY);
  CHECK(fd > STDIN_FILENO);
  ::close(fd);
}

TEST_CASE("prompt: CtrlCEndsInput inside another restores the outer one's handler, then the first", "[ui][prompt]") {
  DefaultSigint sigint;
  struct sigaction outer_handler {}, after {};
  {
    const CtrlCEndsInput outer;
    sigaction(SIGINT, nullptr, &outer_handler);
    { const CtrlCEndsInput inner; }
    sigaction(SIGINT, nullptr, &after);
    CHECK(after.sa_handler == outer_handler.sa_handler);  // Ctrl-C still ends the outer's input
  }
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == SIG_DFL);
}

TEST_CASE("prompt: a SIGINT the runner ignores (nohup) stays ignored under CtrlCEndsInput", "[ui][prompt]") {
  struct sigaction ignore {}, before {}, during {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &before);
  {
    const CtrlCEndsInput ctrl_c;
    sigaction(SIGINT, nullptr, &during);
    ::raise(SIGINT);
    CHECK_FALSE(ctrl_c.fired());
  }
  CHECK(during.sa_handler == SIG_IGN);
  sigaction(SIGINT, &before, nullptr);
}

TEST_CASE("question_text and choice_text wrap a prompt to the width, words whole", "[prompt]") {
  const std::string q =
      "? With four streams, how many times faster is the pipelined copy-and-compute than the serial one? [x] (Enter to skip): ";
  for (std::size_t width : {60u, 80u, 100u}) {
    INFO("width " << width);
    const std::string shown = workbook::question_text(q, width);
    for (const auto& l : wbtest::lines_of(shown)) CHECK(workbook::text_columns(l) <= width);
    CHECK(shown.back() == ' ');  // the answer is typed after a space
    const auto shown_lines = wbtest::lines_of(shown);
    CHECK(workbook::text_columns(shown_lines.back()) + 12 <= width);  // room on its line for the answer
    std::string rejoined;  // every word whole: the lines joined give the question back
    for (const auto& l : wbtest::lines_of(shown)) rejoined += (rejoined.empty() ? "" : " ") + l.substr(l.rfind("  ", 0) == 0 ? 2 : 0);
    CHECK(rejoined == q.substr(0, q.size() - 1) + " ");
  }
  CHECK(workbook::question_text(q, 0) == q);
  // One that fits with no room left for the answer is wrapped too (Jan 2's walk: "1." then
  // "5" on the next line, the answer itself broken by the terminal).
  const std::string near = "? How many times faster per step will BF16 be than FP32? [x] (Enter to skip): ";
  REQUIRE(near.size() == 78);
  CHECK(wbtest::lines_of(workbook::question_text(near, 80)).size() == 2);
  const std::string c = workbook::choice_text("? Which resource limits the naive kernel at N = 4096?",
                                              {"memory bandwidth (DRAM)", "FP32 compute"}, 30);
  for (const auto& l : wbtest::lines_of(c)) CHECK(workbook::text_columns(l) <= 30);
  CHECK(c.find("  1) memory bandwidth (DRAM)\n") != std::string::npos);
}
