// Terminal detection: a real terminal prompts and colours; a Colab notebook, whose shell
// commands run on a pseudo-terminal too, does neither (COLAB_RELEASE_TAG is set there).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "ui/style.hpp"

namespace {

// Puts a fresh pseudo-terminal on stdin and stdout for its lifetime, as Colab's `!` does.
class OnPseudoTerminal {
 public:
  OnPseudoTerminal() {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) return;
    const char* name = ptsname(master_);
    int slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    if (slave < 0) return;
    std::fflush(stdout);
    saved_in_ = dup(STDIN_FILENO);
    saved_out_ = dup(STDOUT_FILENO);
    dup2(slave, STDIN_FILENO);
    dup2(slave, STDOUT_FILENO);
    close(slave);
    ok_ = true;
  }
  ~OnPseudoTerminal() {
    if (ok_) {
      std::fflush(stdout);
      dup2(saved_in_, STDIN_FILENO);
      dup2(saved_out_, STDOUT_FILENO);
      close(saved_in_);
      close(saved_out_);
    }
    if (master_ >= 0) close(master_);
  }
  OnPseudoTerminal(const OnPseudoTerminal&) = delete;
  OnPseudoTerminal& operator=(const OnPseudoTerminal&) = delete;
  bool ok() const { return ok_; }

 private:
  int master_ = -1, saved_in_ = -1, saved_out_ = -1;
  bool ok_ = false;
};

// Restores an environment variable as it was.
class SavedEnv {
 public:
  explicit SavedEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) value_ = v;
  }
  ~SavedEnv() {
    if (value_) ::setenv(name_, value_->c_str(), 1);
    else ::unsetenv(name_);
  }
  SavedEnv(const SavedEnv&) = delete;
  SavedEnv& operator=(const SavedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> value_;
};

struct Probe {
  bool interactive, color;
};

Probe probe_on_pty() {
  OnPseudoTerminal pty;
  if (!pty.ok()) return {false, false};
  return {workbook::interactive_terminal(), workbook::Style::for_stdout(false).color()};
}

}  // namespace

TEST_CASE("a terminal prompts and colours, a Colab notebook's pseudo-terminal does neither", "[ui][style]") {
  SavedEnv saved_no_color("NO_COLOR"), saved_tag("COLAB_RELEASE_TAG");
  ::unsetenv("NO_COLOR");
  ::unsetenv("COLAB_RELEASE_TAG");
  {
    OnPseudoTerminal check;
    if (!check.ok()) {
      WARN("no pseudo-terminal can be opened here: the terminal detection is not tested");
      return;
    }
  }
  Probe terminal = probe_on_pty();
  CHECK(terminal.interactive);
  CHECK(terminal.color);

  ::setenv("COLAB_RELEASE_TAG", "release-colab_20261201-060000_RC00", 1);
  Probe colab = probe_on_pty();
  ::unsetenv("COLAB_RELEASE_TAG");
  CHECK_FALSE(colab.interactive);
  CHECK_FALSE(colab.color);

  // An empty tag is no tag.
  ::setenv("COLAB_RELEASE_TAG", "", 1);
  Probe empty = probe_on_pty();
  ::unsetenv("COLAB_RELEASE_TAG");
  CHECK(empty.interactive);
}

TEST_CASE("without a terminal nothing prompts, whatever the environment", "[ui][style]") {
  // ctest runs this with stdout on a pipe or file.
  if (isatty(STDOUT_FILENO)) {
    WARN("stdout is a terminal here: the no-terminal case is not tested");
    return;
  }
  CHECK_FALSE(workbook::interactive_terminal());
  CHECK_FALSE(workbook::Style::for_stdout(false).color());
}
