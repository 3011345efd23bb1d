// Feedback on a learner's explanation of a run's main figure, from the run's own facts:
// what an examiner would say in two to four lines. Rule-based and deterministic (the
// lab's `examiner:` block, content/examiner.hpp, says what to look for):
//   bound   does it name the limiting resource? For a memory/compute lab with an
//           intensity, the roofline position of this run (intensity against the ridge
//           point of the learner's calibration or spec sheet) decides which it is;
//           otherwise the block's bound.
//   figure  does it cite a number with a unit (the answers' number grammar,
//           util/quantity.hpp) that matches a figure of this run, and the ceiling it is
//           compared with (a ceiling's value, a percentage of one, or a share figure)?
//   amdahl  for a speed-up: does it account for the part that did not speed up?
#pragma once

#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "model/expr.hpp"

namespace workbook {

// A figure the run measured.
struct ExplainFigure {
  std::string name, unit;
  double value = 0;
};

// What the checker knows about the run.
struct ExplainFacts {
  std::vector<ExplainFigure> figures;  // the run's measured figures
  Figures scope;                       // device figures, parameters, vars and metric values: what expressions see
  std::string basis = "spec sheet";    // where the device figures come from: "calibrated" or "spec sheet"
};

struct FeedbackPoint {
  std::string rule;  // "bound", "figure" or "amdahl"
  bool ok = false;
  std::string line;  // what the examiner says, one sentence
};

struct Feedback {
  std::vector<FeedbackPoint> points;
  bool all_ok() const;
  const FeedbackPoint* point(const std::string& rule) const;  // nullptr when not checked
};

// Pure: the examiner's points on `text` (empty text: no points).
Feedback explanation_feedback(const ExplainSpec& spec, const std::string& text, const ExplainFacts& facts);

// The points as stored with the explanation and shown: one line each, "✓ ..." or "✗ ...".
std::string feedback_text(const Feedback& feedback);

}  // namespace workbook
