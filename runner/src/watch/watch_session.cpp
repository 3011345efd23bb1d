// `workbook watch` (see watch_session.hpp).
#include "watch/watch_session.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "content/lab_id.hpp"
#include "exec/process.hpp"
#include "exec/interrupt_watch.hpp"
#include "progress/commands.hpp"
#include "run/console_observer.hpp"
#include "run/lab_run.hpp"
#include "run/predictions.hpp"
#include "present/run_report.hpp"
#include "run/report_json.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "watch/after_run.hpp"
#include "watch/line_input.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// The console's view of a run, shorter after the first: a re-run names the lab in one
// line instead of printing its goal and steps again.
class WatchObserver : public ConsoleObserver {
 public:
  WatchObserver(Style style, std::vector<fs::path> roots) : ConsoleObserver(style, false, std::move(roots)), style_(style) {}
  void started(const RunReport& report, const DeviceContext& dev) override {
    if (first_) ConsoleObserver::started(report, dev);
    else fmt::print("{} {}\n", style_.bold(report.lab.id), style_.dim("· " + report.lab.title));
    first_ = false;
  }
  // Notices (no GPU here, the lab's standing predictions) come with a lab's first run only.
  void notice(const std::string& line) override {
    if (first_run_) ConsoleObserver::notice(line);
  }
  void ask_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers,
                       const RecordPrediction& record) override {
    if (ask_) ask_missing_predictions(lab, answers, style_, record);
  }
  bool first_run_ = false;  // this run is the lab's first in this watch
  bool ask_ = false;        // this run may ask (its first, on a terminal)

 private:
  Style style_;
  bool first_ = true;
};

// One watch: its signals are caught (Ctrl-C ends it between runs, cleanly), and what the
// runs so far came to.
struct Watching {
  const WatchContext& ctx;
  const WatchRequest& req;
  InterruptWatch signals;
  LineInput input;
  int last_exit = 0;

  Watching(const WatchContext& c, const WatchRequest& r) : ctx(c), req(r), input(c.input_fd) {}
  bool stop_asked() const { return signals.fired() != 0 || termination_signal() != 0; }
  std::vector<fs::path> roots() const { return {ctx.workspace.root(), ctx.catalog.root()}; }
  // Prints a line of text (not in --json) at once: a pipe shows it before the wait.
  void say(const std::string& line) const {
    if (ctx.out.json) return;  // a JSON Lines stream holds results only
    fmt::print("{}\n", line);
    std::fflush(stdout);
  }
};

std::string next_lab_of(const WatchContext& ctx) {
  return progress::next_open_lab({ctx.catalog, ctx.workspace, ctx.journal, Output{false, ctx.out.style}});
}

LabSpec lab_spec(const Catalog& catalog, const std::string& lab) {
  const LabRef ref = parse_lab_ref_or_throw(lab);
  if (ref.name.empty()) {
    throw UsageError(fmt::format("'{}' names a module; watch one of its labs", lab), "`workbook show " + lab + "` lists them");
  }
  return catalog.find_lab(ref);
}

// Builds, runs, grades and records the lab once (as `run LAB`; the lab's first run in this
// watch asks the missing predictions on a terminal), and prints it.
RunReport run_once(Watching& w, const std::string& lab, WatchObserver& console, bool first) {
  const bool ask = first && w.req.interactive && !w.ctx.out.json;
  console.first_run_ = first;
  RunRequest r;
  r.lab = lab;
  r.no_predict = !ask;
  r.quick = w.req.quick;
  r.interactive = ask;
  console.ask_ = ask;
  r.verbose = !w.ctx.out.json;
  RunObserver quiet;
  RunObserver* observer = w.ctx.out.json ? &quiet : static_cast<RunObserver*>(&console);
  RunReport report = run_lab({w.ctx.catalog, w.ctx.workspace, w.ctx.journal, w.ctx.out.style, observer}, r);
  print_result(w.ctx.out, report, run_report_json, print_report);
  // The review nudge as after any run; no explanation is asked here: the terminal's next
  // line belongs to the watch (Enter, q), and `run LAB` or `report` take one later.
  after_run(w.ctx.journal, w.ctx.catalog, lab_after_run(&report, std::nullopt, false), w.ctx.out);
  std::fflush(stdout);
  w.last_exit = exit_code_for(report);
  return report;
}

enum class After { again, quit, stopped };

// Waits for the next reason to run again: a save, or (--manual-run) Enter; q ends.
After wait_for_more(Watching& w, FileWatch* files) {
  auto stop = [&w] { return w.stop_asked(); };
  if (files) return files->wait(std::nullopt, stop) == WatchEvent::saved ? After::again : After::stopped;
  std::string line;
  switch (w.input.next(line, stop)) {
    case LineInput::Status::line: return trim(line) == "q" ? After::quit : After::again;
    case LineInput::Status::end: return After::quit;
    case LineInput::Status::stopped: break;
  }
  return After::stopped;
}

// Runs `lab` until it passes (nullopt), or returns the exit code watch ends with.
std::optional<int> watch_until_pass(Watching& w, const std::string& lab) {
  const Style& s = w.ctx.out.style;
  const LabSpec spec = lab_spec(w.ctx.catalog, lab);
  w.ctx.workspace.ensure();
  w.ctx.workspace.ensure_common(w.ctx.catalog);
  const bool copied = w.ctx.workspace.ensure_lab_copy(w.ctx.catalog, spec);  // before watching: not a save
  const fs::path copy = w.ctx.workspace.lab_copy(spec);
  const std::string shown = display_path(w.roots(), copy);
  std::optional<FileWatch> files;
  if (!w.req.manual) files.emplace(copy, w.req.files);
  if (copied) w.say(fmt::format("Your copy of the starter is {}: edit its TODOs and save.", s.bold(shown)));
  if (w.req.manual) w.say(s.dim(fmt::format("Enter runs {} again; q then Enter stops.", spec.id)));
  else w.say(s.dim(fmt::format("Watching {}: each save runs {} again{}; Ctrl-C stops.", shown, spec.id,
                               files->polling() ? " (polling every 0.5 s)" : "")));
  WatchObserver console(s, w.roots());
  for (bool first = true;; first = false) {
    const RunReport report = run_once(w, spec.id, console, first);
    if (report.grade.verdict == Verdict::interrupted || w.stop_asked()) return static_cast<int>(Exit::interrupted);
    if (report.grade.verdict == Verdict::pass) return std::nullopt;
    w.say(s.dim(w.req.manual ? "Press Enter to run it again (q to stop)."
                             : fmt::format("Waiting for your next save of {} ...", shown)));
    switch (wait_for_more(w, files ? &*files : nullptr)) {
      case After::again: w.say("\n" + s.bold("Running " + spec.id + " again")); continue;
      case After::quit: return w.last_exit;
      case After::stopped: w.say(s.dim("Stopped.")); return static_cast<int>(Exit::interrupted);
    }
  }
}

}  // namespace

int watch_labs(const WatchContext& ctx, const WatchRequest& req) {
  Watching w(ctx, req);
  std::string lab = req.lab.empty() ? next_lab_of(ctx) : lab_spec(ctx.catalog, req.lab).id;
  if (lab.empty()) {
    throw UsageError("no lab is left to watch: every lab has passed",
                     "name one to run again, e.g. `workbook watch module14/tiled_gemm`; `workbook next` says what is next");
  }
  for (;;) {
    std::optional<int> end;
    try {
      end = watch_until_pass(w, lab);
    } catch (const PredictionPromptInterrupted&) {
      throw;  // Ctrl-C at a prediction prompt: nothing was run (main says so)
    } catch (const Error& e) {  // Ctrl-C during a build: recorded as interrupted (run/lab_run.cpp)
      if (e.code() != Exit::interrupted) throw;
      w.say(ctx.out.style.dim("Stopped during the build; that run is recorded as interrupted."));
      return static_cast<int>(Exit::interrupted);
    }
    if (end) return *end;
    w.say(ctx.out.style.green(fmt::format("{} passes.", lab)));
    if (req.once) return 0;
    const std::string next = next_lab_of(ctx);
    if (next.empty() || next == lab) {
      w.say("No lab is left open: `workbook next` says what comes next.");
      return 0;
    }
    w.say("\n" + ctx.out.style.bold(fmt::format("Next: {}", next)) + ctx.out.style.dim(" (the lab `workbook next` points to)"));
    lab = next;
  }
}

}  // namespace workbook
