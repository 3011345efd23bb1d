// Long texts (model answers, steps, goals) wrapped at word boundaries to the terminal's
// width, so a terminal never breaks them in the middle of a word.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace workbook {

// The width long texts are wrapped to: the terminal's columns when stdout is a terminal
// (else $COLUMNS, else 80); when stdout is not a terminal, $COLUMNS when it is set, else
// 0: no wrapping, so piped output keeps one line per paragraph for scripts.
std::size_t text_width();

// The width errors and hints are wrapped to: the columns of stderr when it is a
// terminal, else 0 (not wrapped: a script reading stderr gets one line per message).
std::size_t stderr_width();

// `text` wrapped to `width` columns (0: not wrapped, only indented). Words are never
// broken: a word longer than a line gets a line of its own. Line breaks in `text` are
// kept, and so is the leading white space of each of its lines (added to the indent of
// that line's continuation lines). The first line starts with `first_indent`, every other
// line with `indent`. Widths count UTF-8 code points. No trailing newline is added.
std::string wrap_text(std::string_view text, std::size_t width, std::string_view first_indent = "",
                      std::string_view indent = "");

// One line in two columns ("  workbook next      the one next thing to do") wrapped to
// `width`: the second column starts after the first run of two or more spaces past the
// line's indent, and its continuation lines hang under it; when there is no second column
// or it starts past half the width, continuation lines of an indented line (an example
// command) are indented four columns more than it, and those of a line at column 0 (prose)
// stay at column 0. A line that fits is returned as it is. No trailing newline.
std::string wrap_columns(std::string_view line, std::size_t width);

// The columns `s` takes on a terminal: UTF-8 code points, not counting the ANSI colour
// sequences (ESC [ ... m) that Style adds. wrap_text counts the same way.
std::size_t text_columns(std::string_view s);

// `s` followed by spaces up to `width` columns (right: spaces first); never cut.
std::string pad_to(std::string_view s, std::size_t width, bool right = false);

}  // namespace workbook
