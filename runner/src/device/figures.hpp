// The device figures an expected-range expression may name. Each comes from the local
// GPU's spec sheet (data/gpus.yaml) or, once calibrated, from measurement.
#pragma once

#include <string>
#include <vector>

namespace workbook {

// Names of the numeric device figures, in the order they are documented: the spec-sheet
// figures, then the measured-only ones.
const std::vector<std::string>& device_figure_names();

// The figures every spec sheet in data/gpus.yaml must give.
const std::vector<std::string>& spec_figure_names();

// Figures only a calibration measures (`workbook device --calibrate`): host<->device
// rates and launch overhead. Without a calibration they take nominal values (see
// nominal_measured_figures in run/device_context.hpp and docs/authoring.md).
const std::vector<std::string>& measured_only_figure_names();

}  // namespace workbook
