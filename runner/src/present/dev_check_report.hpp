// `workbook dev check` shown: the device and content problems once, a row per lab,
// starter and variant as it is checked (flushed at once, so a long check shows its
// progress), the summary; or one JSON object with every row (and its run's report).
#pragma once

#include <nlohmann/json.hpp>

#include "dev/content_check.hpp"
#include "ui/style.hpp"

namespace workbook {

// The device line and the content problems, once, before the first row (or at the end).
void print_dev_header(const DevCheckResult& r, const Style& style);
// One row, flushed at once (also when stdout is a pipe or a file).
void print_dev_row(const DevLabRow& row, const Style& style);
// "N passed, M failed", and what was not done (interrupted, compiled only).
void print_dev_summary(const DevCheckResult& r, const Style& style);
nlohmann::json dev_check_json(const DevCheckResult& r);

}  // namespace workbook
