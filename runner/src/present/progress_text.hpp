// The progress screens as text: `workbook progress` (and a bare `workbook`), `next`,
// `handin` and `history`. The data they print is gathered in progress/ (progress_report.hpp,
// next_step.hpp, history.hpp); these only print it.
#pragma once

#include <cstddef>
#include <string>

#include "progress/commands.hpp"
#include "progress/history.hpp"
#include "progress/next_step.hpp"
#include "progress/progress_report.hpp"
#include "ui/style.hpp"

namespace workbook::progress {

// The screen: at most `width` columns (at most 80), its sentences wrapped to that width.
// The first screen (bare `workbook`, `progress`) fits a 30-row terminal: this week (what is
// next, what is behind), the route to an A and a line counting the modules; `modules` adds
// the table of every module (`progress --modules`) and what its columns count.
std::string format_progress(const ProgressReport& report, const Style& style, std::size_t width = 80,
                            bool modules = false);
// The width the progress screens use: the terminal's (text_width), at most 80; 80 when unknown.
std::size_t screen_width();

// `next`: sentences wrapped to `width` columns (0: not wrapped).
std::string format_next(const NextPlan& plan, const Style& style, std::size_t width = 80);

// `handin`: what changed and how to undo it; without items, what is marked.
std::string format_handin(const HandinResult& result);

// `history`: the runs with their figures, then how far the predictions landed.
std::string format_history(const HistoryReport& report, const Style& style);

}  // namespace workbook::progress
