// A module's reading (Markdown) rendered for the terminal: headings stand out (bold and
// underlined in colour; under NO_COLOR plain, with a rule of '=' or '-' under them),
// paragraphs and list items are rewrapped to the terminal's width (list items and block
// quotes with hanging indents), while code blocks are indented and never wrapped (but
// ```text, a program's output: its lines wider than the terminal fold at spaces), inline
// `code` is kept whole on one line, and pipe tables are laid out as the terminal's tables
// (ui/table.hpp: cells wrapped in their columns, rows stacked when even that is too wide).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ui/style.hpp"

namespace workbook {

// `width` 0: paragraphs are joined onto one line each (for a pipe). The result ends in '\n'.
std::string render_markdown(std::string_view markdown, std::size_t width, const Style& style);

}  // namespace workbook
