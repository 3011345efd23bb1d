// Terminal prompts (see prompt.hpp).
#include "ui/prompt.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <iostream>

#include "ui/wrap.hpp"
#include "util/text.hpp"

namespace workbook {

std::string question_text(std::string_view question, std::size_t width) {
  constexpr std::size_t kAnswerRoom = 12;  // columns left after the question for the answer typed
  if (width == 0 || text_columns(question) + kAnswerRoom <= width) return std::string(question);
  std::string out = wrap_text(question, width - 1, "", "  ");  // a column left for the cursor
  const std::size_t last = out.rfind('\n');
  if (text_columns(std::string_view(out).substr(last == std::string::npos ? 0 : last + 1)) + kAnswerRoom > width)
    out = wrap_text(question, width - kAnswerRoom, "", "  ");  // the answer's line keeps its room
  if (!question.empty() && question.back() == ' ') out += ' ';
  return out;
}

std::string choice_text(std::string_view question, const std::vector<std::string>& choices, std::size_t width) {
  std::string out = wrap_text(question, width, "", "  ") + "\n";
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::string number = fmt::format("  {}) ", i + 1);
    out += wrap_text(choices[i], width, number, std::string(number.size(), ' ')) + "\n";
  }
  return out;
}

std::optional<std::string> ask_line(const std::string& question) {
  fmt::print("{}", question_text(question, text_width()));
  std::fflush(stdout);
  std::string line;
  if (!std::getline(std::cin, line)) {
    fmt::print("\n");
    return std::nullopt;
  }
  return trim(line);
}

std::optional<ChoiceAnswer> ask_choice(const std::string& question, const std::vector<std::string>& choices,
                                      bool allow_skip) {
  fmt::print("{}", choice_text(question, choices, text_width()));
  while (true) {
    auto line = ask_line(allow_skip ? "Your choice (number, Enter to skip): " : "Your choice (number): ");
    if (!line) return std::nullopt;
    if (line->empty() && allow_skip) return std::nullopt;
    if (auto index = choice_index(*line, choices, ChoiceInput::prompt)) return ChoiceAnswer{*index, *line};
    fmt::print("Please answer with a number from 1 to {}.\n", choices.size());
  }
}

bool confirm(const std::string& question) {
  auto line = ask_line(question + " [y/N] ");
  return line && (*line == "y" || *line == "Y" || *line == "yes");
}

namespace {

volatile std::sig_atomic_t g_ctrl_c = 0;

void on_ctrl_c(int) {  // async-signal-safe
  g_ctrl_c = 1;
  const int fd = ::open("/dev/null", O_RDONLY);
  if (fd < 0) {
    ::close(STDIN_FILENO);  // no /dev/null: a closed stdin also ends the read (EBADF)
    return;
  }
  if (fd != STDIN_FILENO) {
    ::dup2(fd, STDIN_FILENO);
    ::close(fd);
  }
}

}  // namespace

CtrlCEndsInput::CtrlCEndsInput() {
  g_ctrl_c = 0;
  struct sigaction sa {};
  sa.sa_handler = on_ctrl_c;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  caught_ = sigaction(SIGINT, &sa, &before_) == 0;
  if (caught_ && before_.sa_handler == SIG_IGN) {
    sigaction(SIGINT, &before_, nullptr);
    caught_ = false;
  }
}

CtrlCEndsInput::~CtrlCEndsInput() {
  if (caught_) sigaction(SIGINT, &before_, nullptr);
}

bool CtrlCEndsInput::fired() const { return g_ctrl_c != 0; }

}  // namespace workbook
