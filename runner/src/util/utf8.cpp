// UTF-8 repair (see utf8.hpp).
#include "util/utf8.hpp"

#include <cstdint>
#include <utility>

namespace workbook {

namespace {

// Length of the valid UTF-8 sequence that starts at text[i], or 0 if none does.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > text.size()) return 0;
  std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    const auto cont = static_cast<unsigned char>(text[i + k]);
    if ((cont & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cont & 0x3Fu);
  }
  constexpr std::uint32_t kShortest[5] = {0, 0, 0x80, 0x800, 0x10000};  // no overlong forms
  if (cp < kShortest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = sequence_length(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = sequence_length(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

void make_valid_utf8(nlohmann::json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (!is_valid_utf8(s)) s = valid_utf8(s);
  } else if (j.is_array()) {
    for (auto& e : j) make_valid_utf8(e);
  } else if (j.is_object()) {
    bool bad_key = false;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!is_valid_utf8(it.key())) bad_key = true;
      make_valid_utf8(it.value());
    }
    if (bad_key) {  // keys cannot be changed in place: rebuild the object
      nlohmann::json fixed = nlohmann::json::object();
      for (auto it = j.begin(); it != j.end(); ++it) fixed[valid_utf8(it.key())] = std::move(it.value());
      j = std::move(fixed);
    }
  }
}

std::string printable_text(std::string_view text) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  const std::string valid = valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    const bool c1 = c == 0xC2 && i + 1 < valid.size() && static_cast<unsigned char>(valid[i + 1]) <= 0x9F;
    if (c == '\r' && i + 1 < valid.size() && valid[i + 1] == '\n') continue;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c1) {
      out += kReplacement;
      if (c1) ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace workbook
