// Word wrapping (see wrap.hpp).
#include "ui/wrap.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace workbook {

namespace {

std::size_t columns(std::string_view s) { return text_columns(s); }

std::size_t columns_from_env() {
  const char* env = std::getenv("COLUMNS");
  if (env == nullptr || *env == '\0') return 0;
  char* end = nullptr;
  long v = std::strtol(env, &end, 10);
  if (*end != '\0' || v < 20 || v > 1000) return 0;
  return static_cast<std::size_t>(v);
}

// Units a figure is written with: a figure and its unit stay on one line ("30 ms").
bool is_unit(std::string_view w) {
  while (!w.empty() && std::string_view(",.;:)]").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
  static constexpr std::string_view kUnits[] = {
      "ms",   "us",     "\u00b5s", "ns",     "s",      "x",       "%",      "B",       "KB",     "MB",
      "GB",   "TB",     "KiB",     "MiB",    "GiB",    "GB/s",    "MB/s",   "TB/s",    "FLOP/s", "GFLOP/s",
      "TFLOP/s", "TFLOPS", "GFLOPS", "W",    "MHz",    "GHz",     "tok/s",  "bytes",   "cycles", "days",
      "weeks", "modules", "min",    "h",      "elements", "threads", "blocks"};
  for (std::string_view u : kUnits)
    if (w == u) return true;
  return false;
}

// Ends in a digit: a figure ("30", "1.2", "~4", "(2").
bool is_figure(std::string_view w) { return !w.empty() && w.back() >= '0' && w.back() <= '9'; }

// The words of `line` (split at single spaces), a figure and the unit after it kept as one.
std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t last_start = 0;  // where words.back() begins in `line`
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t start = line.find_first_not_of(' ', i);
    if (start == std::string_view::npos) break;
    std::size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view word = line.substr(start, end - start);
    const bool glued = !words.empty() && is_figure(words.back()) && is_unit(word) &&
                       start == last_start + words.back().size() + 1;
    if (glued) {
      words.back() = line.substr(last_start, end - last_start);
    } else {
      words.push_back(word);
      last_start = start;
    }
    i = end;
  }
  return words;
}

// Appends one line of `text` (no line break in it), wrapped.
void wrap_line(std::string_view line, std::size_t width, std::string_view first_indent, std::string_view indent,
               std::string& out) {
  std::size_t lead = line.find_first_not_of(" \t");
  if (lead == std::string_view::npos) lead = line.size();
  const std::string first = std::string(first_indent) + std::string(line.substr(0, lead));
  const std::string rest = std::string(indent) + std::string(line.substr(0, lead));
  line.remove_prefix(lead);
  if (width == 0 || columns(first) + columns(line) <= width) {
    out += first;
    out += line;
    return;
  }
  const std::vector<std::string_view> words = words_of(line);
  out += first;
  std::size_t used = columns(first);
  bool line_empty = true;
  for (std::string_view w : words) {
    const std::size_t len = columns(w);
    if (!line_empty && used + 1 + len > width) {
      out += '\n';
      out += rest;
      used = columns(rest);
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++used;
    }
    out += w;
    used += len;
    line_empty = false;
  }
}

}  // namespace

// Code points in UTF-8 text (every byte that is not a continuation byte), skipping the
// colour sequences ESC [ digits ; ... m.
std::size_t text_columns(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      std::size_t end = s.find('m', i + 2);
      if (end != std::string_view::npos) {
        i = end;
        continue;
      }
    }
    n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  }
  return n;
}

std::string pad_to(std::string_view s, std::size_t width, bool right) {
  const std::size_t have = text_columns(s);
  const std::string fill(have < width ? width - have : 0, ' ');
  return right ? fill + std::string(s) : std::string(s) + fill;
}

namespace {

// The columns of the terminal on `fd`; 0 when it is not one or reports under 20.
std::size_t terminal_columns(int fd) {
  winsize ws{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 0;
}

}  // namespace

std::size_t text_width() {
  if (const std::size_t cols = terminal_columns(STDOUT_FILENO); cols != 0) return cols;
  const std::size_t env = columns_from_env();
  if (::isatty(STDOUT_FILENO)) return env != 0 ? env : 80;
  return env;
}

std::size_t stderr_width() { return terminal_columns(STDERR_FILENO); }

std::string wrap_text(std::string_view text, std::size_t width, std::string_view first_indent, std::string_view indent) {
  std::string out;
  bool first_line = true;
  for (std::size_t start = 0;;) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!first_line) out += '\n';
    if (!line.empty() || first_line) wrap_line(line, width, first_line ? first_indent : indent, indent, out);
    first_line = false;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::string wrap_columns(std::string_view line, std::size_t width) {
  if (width == 0 || text_columns(line) <= width) return std::string(line);
  const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
  const std::size_t gap = line.find("  ", lead);
  const std::size_t col = gap == std::string_view::npos ? std::string_view::npos : line.find_first_not_of(' ', gap);
  if (col == std::string_view::npos || col > width / 2) {
    // an example ("  workbook run ...") continues 4 columns in; prose at column 0 does not
    return wrap_text(line.substr(lead), width, std::string(lead, ' '), std::string(lead == 0 ? 0 : lead + 4, ' '));
  }
  return wrap_text(line.substr(col), width, line.substr(0, col), std::string(col, ' '));
}

}  // namespace workbook
