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

// True when `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text);

// Makes every string in `j` (values and object keys, recursively) valid UTF-8.
void make_valid_utf8(nlohmann::json& j);

}  // namespace workbook
