// The facts of a run the explanation checker (feedback.hpp) reads: its measured figures,
// and the scope its examiner expressions see (device figures, parameters, the lab's vars,
// the figures themselves).
#pragma once

#include <vector>

#include "content/manifest.hpp"
#include "explain/feedback.hpp"

namespace workbook {

// `calibrated`: the device figures hold a calibration's measurements (else the spec sheet's).
// A var that cannot be evaluated (a device figure missing) is left out of the scope.
ExplainFacts explain_facts(const LabSpec& lab, const std::vector<ExplainFigure>& figures, const Figures& device,
                           const Figures& params, bool calibrated);

}  // namespace workbook
