// Learner input (see input.hpp).
#include "learn/input.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "ui/prompt.hpp"
#include "util/text.hpp"

namespace workbook::learn {

namespace {

// Reads a capped line from stdin; says on stderr when the line was cut.
std::optional<std::string> read_line_noting_cut() {
  auto got = read_capped_line(std::cin);
  if (!got) return std::nullopt;
  if (got->truncated) {
    fmt::print(stderr, "note: that line was {} characters long; only its first {} are kept.\n", got->length,
               got->text.size());
  }
  return std::move(got->text);
}

}  // namespace

std::optional<CappedLine> read_capped_line(std::istream& in, std::size_t cap) {
  CappedLine line;
  bool any = false;
  for (int c = in.get(); c != std::istream::traits_type::eof(); c = in.get()) {
    any = true;
    if (c == '\n') break;
    ++line.length;
    if (line.text.size() < cap) line.text += static_cast<char>(c);
  }
  if (!any) return std::nullopt;
  if (line.length > cap) {
    line.truncated = true;
    // Do not end inside a UTF-8 character: drop continuation bytes and their lead byte.
    std::size_t keep = line.text.size();
    if (keep < line.length && keep > 0) {
      std::size_t start = keep;
      while (start > 0 && (static_cast<unsigned char>(line.text[start - 1]) & 0xC0) == 0x80) --start;
      if (start > 0) {
        const auto lead = static_cast<unsigned char>(line.text[start - 1]);
        const std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
        if (start - 1 + len > keep) keep = start - 1;
      }
    }
    line.text.resize(keep);
  }
  return line;
}

LearnerInput::LearnerInput(bool terminal, bool quiet) : terminal_(terminal), quiet_(quiet) {}

bool LearnerInput::interrupted() const { return ctrl_c_.fired(); }

void LearnerInput::say(const std::string& text) const {
  if (quiet_) return;
  fmt::print("{}", text);
  std::fflush(stdout);
}

std::optional<std::string> LearnerInput::line(const std::string& prompt) {
  if (eof_ || interrupted()) return std::nullopt;
  say(prompt);
  auto text = read_line_noting_cut();
  if (!text || interrupted()) {
    eof_ = true;
    if (!quiet_ && terminal_) fmt::print("\n");
    return std::nullopt;
  }
  if (!terminal_ && !quiet_) fmt::print("{}\n", trim(*text));  // echo piped input, so the transcript reads
  return trim(*text);
}

std::optional<std::string> LearnerInput::line_with_countdown(const std::string& prompt, int seconds,
                                                             double& waited_s) {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  if (!terminal_ || quiet_) {
    auto got = line(prompt);
    waited_s = elapsed();
    return got;
  }
  if (eof_ || interrupted()) return std::nullopt;
  // Redraw the remaining time once a second while waiting for Enter; canonical terminal
  // input arrives a whole line at a time, so poll() + getline() does not split lines.
  for (;;) {
    double e = elapsed();
    long left = static_cast<long>(seconds) - static_cast<long>(e);
    std::string clock_text = left >= 0 ? fmt::format("{}:{:02} left", left / 60, left % 60)
                                       : fmt::format("time! +{}:{:02}", (-left) / 60, (-left) % 60);
    fmt::print("\r\x1b[2K{} [{}] ", prompt, clock_text);
    std::fflush(stdout);
    pollfd p{STDIN_FILENO, POLLIN, 0};
    int ms = static_cast<int>(1000 - (e - static_cast<double>(static_cast<long>(e))) * 1000) + 1;
    int rc = ::poll(&p, 1, ms);
    if (interrupted()) {
      eof_ = true;
      fmt::print("\n");
      return std::nullopt;
    }
    if (rc > 0) break;
  }
  auto text = read_line_noting_cut();
  waited_s = elapsed();
  if (!text || interrupted()) {
    eof_ = true;
    fmt::print("\n");
    return std::nullopt;
  }
  return trim(*text);
}

}  // namespace workbook::learn
