// Text that goes into JSON must be valid UTF-8 (nlohmann::json refuses to print anything
// else). A lab's output, compiler messages and what the learner types are untrusted
// bytes: these helpers make them valid by replacing each invalid sequence with U+FFFD.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace workbook {

// `text` with every byte that does not start a valid UTF-8 sequence (stray continuation
// bytes, truncated or overlong sequences, UTF-16 surrogates, code points beyond U+10FFFF,
// 0xC0/0xC1/0xF5-0xFF) replaced by U+FFFD, one replacement per bad byte. Valid text is
// returned unchanged.
std::string valid_utf8(std::string_view text);

// valid_utf8(text) with every control character a terminal would act on (C0 other than
// tab and line feed, DEL, C1 U+0080-U+009F) replaced by U+FFFD, and "\r\n" made "\n": an
// escape sequence typed or imported (a window title, a clear screen) is shown, never obeyed.
std::string printable_text(std::string_view text);

// True when `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text);

// Makes every string in `j` (values and object keys, recursively) valid UTF-8.
void make_valid_utf8(nlohmann::json& j);

}  // namespace workbook
