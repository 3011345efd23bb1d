// What a run tells the person watching it while it goes, and what it asks them. The
// pipeline (run/lab_run.cpp) decides nothing about presentation: it calls these hooks,
// and the printers (present/run_report.hpp) present the finished RunReport.
//
// The base class says nothing and asks nothing: it is what JSON output, `dev check` and
// scripts use. run/console_observer.hpp prints progress and prompts on a terminal.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "grade/grade.hpp"

namespace workbook {

struct RunReport;
struct DeviceContext;

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  using RecordPrediction = std::function<void(const RecordedPrediction&)>;

  // The learner's copy of the starter was just made from the content.
  virtual void starter_copied(const std::filesystem::path& /*copy*/) {}
  // The lab, its source and the device are known; nothing is recorded yet.
  virtual void started(const RunReport& /*report*/, const DeviceContext& /*dev*/) {}
  // Something to know before predicting: the lab will not run here (no GPU), a prediction
  // of the lab that stands. One line each.
  virtual void notice(const std::string& /*line*/) {}
  // Predictions not in `answers` (given as flags, or standing) may be asked here; each is
  // appended to `answers` (and handed to `record`) as it is given. The run records them
  // once every prompt is answered; Ctrl-C at a prompt throws PredictionPromptInterrupted
  // (run/predictions.hpp) and nothing is recorded.
  virtual void ask_predictions(const LabSpec& /*lab*/, std::vector<RecordedPrediction>& /*answers*/,
                               const RecordPrediction& /*record*/) {}
  // The build starts: `what` is the source's display name, `target` e.g. "for sm_90".
  virtual void building(const std::string& /*what*/, const std::string& /*target*/) {}
  // The lab starts, with this time limit.
  virtual void running(double /*timeout_s*/) {}
  // Whether the lab's own output is shown while it runs.
  virtual bool echoes_output() const { return false; }
};

}  // namespace workbook
