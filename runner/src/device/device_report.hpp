// What `workbook device` shows: the device query (Module 3) from the device_query probe,
// and the "your GPU vs Colab T4 vs cluster H100" table with machine balance and, per
// row, what the difference changes. Pure functions over figures, so tests need no GPU.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "device/calibration.hpp"
#include "specs/gpu_specs.hpp"
#include "grade/results.hpp"
#include "util/text.hpp"

namespace workbook {

// One field of the device query, in the order the workbook's Module 3 lists them.
struct QueryField {
  const char* metric;  // the probe's metric name
  const char* label;   // "max threads per block"
};
const std::vector<QueryField>& device_query_fields();

// The probe's results as the device query: name, cc and every reported metric.
struct DeviceQuery {
  std::string name;
  std::string cc;
  std::map<std::string, double> fields;

  std::optional<double> field(const std::string& metric) const;
};
DeviceQuery device_query_from_results(const LabResults& results);

// One row of the comparison table.
struct ComparisonRow {
  std::string figure;  // "SMs", "DRAM bandwidth", "machine balance"
  std::string unit;    // "GB/s", "FLOP/byte", "" (counts), "yes/no"
  std::optional<double> yours;
  std::string yours_source;  // "query", "measured", "spec"
  std::optional<double> t4, h100;
  std::string note;    // what the difference changes
};

// Builds the table. `query` (the local device query), `yours` (its spec sheet) and
// `calibration` may each be missing; `t4` and `h100` are the reference sheets.
std::vector<ComparisonRow> compare_gpus(const DeviceQuery* query, const GpuSpec* yours, const Calibration* calibration,
                                        const GpuSpec* t4, const GpuSpec* h100);


}  // namespace workbook
