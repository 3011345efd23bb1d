// The terminal's view of a run in progress: the lab's header, "Building ...",
// "Running ...", the lab's own output as it comes, and the prediction prompts when the
// terminal is interactive (run/run_observer.hpp).
#pragma once

#include "run/run_observer.hpp"
#include "ui/style.hpp"

namespace workbook {

class ConsoleObserver : public RunObserver {
 public:
  // `root_dirs`: folders that paths are shown relative to (the workspace, the content).
  ConsoleObserver(Style style, bool interactive, std::vector<std::filesystem::path> root_dirs);

  void starter_copied(const std::filesystem::path& copy) override;
  void started(const RunReport& report, const DeviceContext& dev) override;
  void notice(const std::string& line) override;
  void ask_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers,
                       const RecordPrediction& record) override;
  void building(const std::string& what, const std::string& target) override;
  void running(double timeout_s) override;
  bool echoes_output() const override { return true; }

 private:
  Style style_;
  bool interactive_;
  std::vector<std::filesystem::path> roots_;
};

// `p` relative to the first of `roots` that holds it, else as it is.
std::string display_path(const std::vector<std::filesystem::path>& roots, const std::filesystem::path& p);

}  // namespace workbook
