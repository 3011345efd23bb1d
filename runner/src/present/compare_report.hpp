// Your copy against the reference (run/compare.hpp) shown: both verdicts, the compiler's
// errors of a copy that did not build, the figures side by side with their ratio; one
// JSON object (both reports, the rows, the verdict).
#pragma once

#include <nlohmann/json.hpp>

#include "run/compare.hpp"
#include "ui/style.hpp"

namespace workbook {

void print_compare(const CompareResult& r, const Style& style);
nlohmann::json compare_json(const CompareResult& r);

}  // namespace workbook
