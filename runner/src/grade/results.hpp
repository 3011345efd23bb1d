// Reading a lab's results file (JSON lines, docs/lab-contract.md).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace workbook {

struct ReportedMetric {
  std::string name, unit;
  double value = 0;
  std::optional<double> min, max, spread;
  std::optional<int> samples;
};

struct ReportedCheck {
  std::string name;
  bool pass = false;
  std::optional<double> value, limit;
  std::string detail;
};

struct LabResults {
  std::optional<std::string> device_name, device_cc;
  std::map<std::string, double> params;
  std::vector<ReportedMetric> metrics;  // in the order reported; a repeated name keeps the last
  std::vector<ReportedCheck> checks;
  std::vector<std::string> errors;      // "where: message"
  std::vector<std::string> protocol_problems;  // lines that could not be understood
  bool ended = false;                   // the `end` line was written
  bool end_pass = false;

  const ReportedMetric* metric(const std::string& name) const;
  const ReportedCheck* check(const std::string& name) const;
};

// Parses the results text; never throws (bad lines become protocol_problems).
LabResults parse_results(const std::string& text);
LabResults read_results_file(const std::filesystem::path& file);

}  // namespace workbook
