// `workbook report` shown: the Markdown file written, each lab's run it used, the
// machines, a roofline sketch per roof and the plots' paths; or one JSON object (the
// report's data, the experiments section and the files written).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

#include "report/report_data.hpp"
#include "ui/style.hpp"

namespace workbook {

struct WrittenReport {
  const ReportData& data;
  nlohmann::json experiments;                // the experiments section's JSON (the whole report only)
  std::vector<std::filesystem::path> files;  // the plots, then the Markdown file last
};

void print_report_summary(const WrittenReport& r, const Style& style);
nlohmann::json written_report_json(const WrittenReport& r);

}  // namespace workbook
