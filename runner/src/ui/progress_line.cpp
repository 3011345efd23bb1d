// Progress of long work (see progress_line.hpp).
#include "ui/progress_line.hpp"

#include <fmt/format.h>

#include "ui/wrap.hpp"

namespace workbook {

ProgressLine::ProgressLine(bool terminal, std::size_t width, double every_s)
    : terminal_(terminal), width_(width == 0 ? 80 : width), every_s_(every_s) {}

std::string ProgressLine::update(std::size_t done, std::size_t total, const std::string& what, double now_s) {
  const std::size_t digits = fmt::format("{}", total).size();
  std::string text = fmt::format("[{:>{}}/{}] {}", done, digits, total, what);
  if (terminal_) {
    // One line redrawn: never wider than the terminal (a wrapped line could not be redrawn).
    std::string cut;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && text_columns(cut) + 1 >= width_) break;
      cut += text[i];
    }
    showing_ = true;
    return "\r\x1b[K" + cut;
  }
  const bool last = done == total;
  if (!last && last_s_ >= 0 && now_s - last_s_ < every_s_) return "";
  last_s_ = now_s;
  return text + "\n";
}

std::string ProgressLine::finish() {
  if (!terminal_ || !showing_) return "";
  showing_ = false;
  return "\r\x1b[K";
}

}  // namespace workbook
