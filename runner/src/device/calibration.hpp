// Calibrations: the figures `workbook device --calibrate` measured on one GPU, stored in
// the journal per GPU UUID (tables `calibrations` and `calibration_figures`, created by
// the journal's schema) and reused until the learner calibrates again.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grade/results.hpp"

namespace workbook {

class Journal;

struct CalibrationFigure {
  double value = 0;
  std::string unit;
};

struct Calibration {
  long long id = 0;                 // set by store_calibration / load
  std::string gpu_uuid;             // nvidia-smi's uuid ("GPU-..."), the key
  std::string gpu_name;
  std::string measured_at;          // UTC ISO 8601; utc_now() when stored empty
  std::string driver;               // nvidia-smi driver_version
  std::optional<double> sm_clock_mhz;  // nvidia-smi clocks.sm when it was measured
  std::string arch;                 // what the probe was compiled for ("sm_90")
  unsigned long long seed = 0;      // the probe's seed
  std::string detail;               // warnings (e.g. a cross-check outside 10 %)
  std::map<std::string, CalibrationFigure> figures;  // d2d_gbps, fp32_tflops, ...

  std::optional<double> figure(const std::string& name) const;
};

// The figures a calibration must hold, in the order they are printed:
// d2d_gbps memcpy_d2d_gbps fp32_tflops fp64_tflops h2d_pageable_gbps h2d_pinned_gbps
// d2h_pageable_gbps d2h_pinned_gbps launch_us.
const std::vector<std::string>& calibration_figure_names();

// Stores a calibration (one transaction); returns its id.
long long store_calibration(Journal& journal, const Calibration& c);

// The latest calibration stored for this GPU UUID, if any.
std::optional<Calibration> latest_calibration(Journal& journal, const std::string& gpu_uuid);

// Copies every calibration figure (and its unit) the probe reported. Missing or
// non-finite/non-positive figures are listed in `missing`.
Calibration calibration_from_results(const LabResults& results, std::vector<std::string>& missing);

// The key a GPU is calibrated under: its UUID, or "name:<name>" when nvidia-smi gave none.
std::string calibration_key(const std::string& uuid, const std::string& name);

// nvidia-smi --query-gpu=clocks.sm (MHz) of the first GPU now; nullopt when unavailable.
std::optional<double> query_sm_clock_mhz();

}  // namespace workbook
