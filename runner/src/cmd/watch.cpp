// `workbook watch [LAB]`: run the lab again each time the learner saves their copy.
#include <unistd.h>

#include "cmd/registry.hpp"
#include "ui/style.hpp"
#include "watch/watch_session.hpp"

namespace workbook {

namespace {

const char* const kWatchExamples = R"(Examples:
  workbook watch                              the lab `workbook next` points to, then the next
  workbook watch module14/tiled_gemm          save labs/module14/tiled_gemm.cu to run it again
  workbook watch module14/tiled_gemm --once   stop at its first pass
  workbook watch --manual-run                 Enter runs it again, q then Enter stops
  WORKBOOK_WATCH_POLL=1 workbook watch        poll the file (network mounts) instead of inotify
  workbook watch module14/tiled_gemm --json   one JSON object per run, one per line
Each run is `workbook run LAB`: built, run, graded (expected ranges too) and recorded; on
a terminal a lab's first run asks the predictions it has none of yet. A pass moves on to the lab `workbook next` points to. Ctrl-C stops (exit 130);
q in --manual-run ends with the last run's exit code.)";

}  // namespace

void setup_watch(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("watch", "Run a lab again each time you save your copy; move on when it passes");
  auto req = std::make_shared<WatchRequest>();
  cmd->add_option("lab", req->lab, "The lab, e.g. module14/tiled_gemm (default: the one `workbook next` points to)");
  cmd->add_flag("--once", req->once, "Stop after the first pass");
  auto* manual = cmd->add_flag("--manual-run", req->manual,
                               "Do not watch files: run again when you press Enter (q then Enter stops)");
  cmd->add_flag("--poll", req->files.poll, "Poll the file every 0.5 s instead of inotify (also WORKBOOK_WATCH_POLL=1)")
      ->excludes(manual);
  cmd->add_flag("--quick", req->quick, "Use each parameter's quick (small) value");
  add_json_flag(cmd, req->json, "one JSON object per run, one a line (the shape of `run --json`)");
  cmd->footer(kWatchExamples);
  cmd->callback([&ctx, req] {
    OpenedCourse opened(ctx.global);
    Output out = ctx.global.output(req->json);
    out.json_lines = true;
    req->interactive = !req->json && interactive_terminal();
    ctx.exit_code = watch_labs({opened.catalog, opened.workspace, opened.journal, out, STDIN_FILENO}, *req);
  });
}

}  // namespace workbook
