// The terminal's view of a run in progress (see console_observer.hpp).
#include "run/console_observer.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "run/device_context.hpp"
#include "run/lab_run.hpp"
#include "run/predictions.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"

namespace workbook {
namespace fs = std::filesystem;

std::string display_path(const std::vector<fs::path>& roots, const fs::path& p) {
  for (const fs::path& base : roots) {
    auto rel = p.lexically_relative(base);
    if (!rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  }
  return p.string();
}

ConsoleObserver::ConsoleObserver(Style style, bool interactive, std::vector<fs::path> root_dirs)
    : style_(style), interactive_(interactive), roots_(std::move(root_dirs)) {}

void ConsoleObserver::starter_copied(const fs::path& copy) {
  fmt::print("{}\n", wrap_text(fmt::format("Your copy of the starter is {}: edit its TODOs, then run this again.",
                                           style_.bold(path_from_here(copy))), text_width()));
}

void ConsoleObserver::started(const RunReport& report, const DeviceContext& dev) {
  const LabSpec& lab = report.lab;
  const std::size_t width = text_width();
  fmt::print("{}\n", wrap_text(style_.bold(lab.id) + " " + style_.dim("· " + lab.title), width, "", "  "));
  fmt::print("{}\n", wrap_text(lab.goal, width));
  for (std::size_t i = 0; i < lab.steps.size(); ++i) {
    const std::string number = fmt::format("  {}. ", i + 1);
    fmt::print("{}\n", wrap_text(lab.steps[i], width, number, std::string(number.size(), ' ')));
  }
  fmt::print("{}\n", wrap_text(style_.dim("Device:") + " " + dev.describe(), width, "", "  "));
  fmt::print("{} {} ({})\n", style_.dim("Source:"), display_path(roots_, report.source), to_string(report.variant));
}

void ConsoleObserver::notice(const std::string& line) {
  // Wrapped to the terminal, continuation lines under the text, not under the mark.
  const std::string text = wrap_text(line, text_width(), "  ", "  ");
  fmt::print("{}{}\n", style_.yellow("!"), text.substr(1));
}

void ConsoleObserver::ask_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers,
                                      const RecordPrediction& record) {
  if (interactive_) ask_missing_predictions(lab, answers, style_, record);
}

void ConsoleObserver::building(const std::string& what, const std::string& target) {
  fmt::print("{} {} {} ...\n", style_.dim("Building"), what, target);
  std::fflush(stdout);
}

void ConsoleObserver::running(double timeout_s) {
  fmt::print("{}\n", style_.dim(fmt::format("Running (time limit {:g} s) ...", timeout_s)));
  std::fflush(stdout);  // our lines first, then the lab's own output
}

}  // namespace workbook
