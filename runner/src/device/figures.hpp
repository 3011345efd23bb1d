// The device figures an expected-range expression may name. Each comes from the local
// GPU's spec sheet (data/gpus.yaml) or, once calibrated, from measurement.
#pragma once

#include <string>
#include <vector>

namespace workbook {

// Names of the numeric device figures, in the order they are documented.
const std::vector<std::string>& device_figure_names();

}  // namespace workbook
