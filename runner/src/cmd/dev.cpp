// `workbook dev check`: the authors' check of all content (see dev/content_check.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "cmd/registry.hpp"
#include "dev/content_check.hpp"
#include "journal/journal.hpp"
#include "present/dev_check_report.hpp"
#include "ui/progress_line.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {

namespace {

struct DevOptions {
  DevCheckOptions check;
  std::string report;
  bool force = false;
  bool json = false;
};

// The first line of every report `--report` writes: a file that does not start with it
// (a report joined or edited by hand, or any other file) is never overwritten without --force.
constexpr const char* kReportMarker =
    "<!-- written by `workbook dev check --report`: rewritten by the next such run; delete this line to keep the "
    "file from being overwritten -->";

// Refuses, before anything is compiled or run, a --report target the runner did not write.
void check_report_target(const std::string& report, bool force) {
  if (force) return;
  const auto text = read_file_text(report);
  if (!text || text->empty() || text->rfind(kReportMarker, 0) == 0) return;
  throw UsageError(fmt::format("{} exists and was not written by `workbook dev check --report` (its first line is not "
                               "the report's marker): it would be overwritten", report),
                   "give a new file name, or pass --force to replace it");
}

void write_report(const DevOptions& o, const DevCheckResult& r) {
  std::string cmdline = "workbook dev check";
  if (o.check.run) cmdline += " --run";
  if (o.check.quick) cmdline += " --quick";
  if (o.check.arch) cmdline += " --arch " + *o.check.arch;
  if (o.check.unoptimized_host) cmdline += " --unoptimized-host";
  for (const auto& lab : o.check.only) cmdline += " --only " + lab;
  cmdline += " --report " + o.report;
  write_file_text(o.report, std::string(kReportMarker) + "\n" + markdown_report(r, cmdline));
}

}  // namespace

void setup_dev(CLI::App& app, CommandContext& ctx) {
  auto* dev = app.add_subcommand("dev", "Tools for content authors");
  dev->require_subcommand(1);
  auto* cmd = dev->add_subcommand("check", "Validate all content; compile every lab and solution; with --run, run them");
  auto o = std::make_shared<DevOptions>();
  cmd->add_flag("--run", o->check.run, "Also run every solution (must pass), starter and known-wrong variant (must fail) and slow variant (must be out of range); needs a GPU");
  cmd->add_flag("--quick", o->check.quick, "Run with each parameter's quick value");
  cmd->add_option("--arch", o->check.arch,
                  "Compile for this architecture, e.g. sm_90, or for several at once, e.g. sm_75,sm_86,sm_90 (one nvcc "
                  "a file, a -gencode each; without --run, variants for the first only, checked by nvcc -cuda and not "
                  "linked: what CI runs); works "
                  "without a GPU");
  cmd->add_option("--lab,--only", o->check.only, "Only this lab, e.g. module14/tiled_gemm (repeatable)");
  cmd->add_option("--jobs,-j", o->check.jobs, "Compile this many labs at once (default: one per core)");
  cmd->add_flag("--unoptimized-host", o->check.unoptimized_host,
                "Compile only: build the labs' host code without their -O3 (device code is optimised the same), "
                "about 45 % less compile time; what CI runs. Not with --run");
  cmd->add_option("--report", o->report,
                  "Write the markdown report here, e.g. docs/validation/H200.md (a file it did not write is refused)");
  cmd->add_flag("--force", o->force, "With --report: replace the file even if this command did not write it");
  add_json_flag(cmd, o->json);
  cmd->footer("Examples:\n  workbook dev check --arch sm_90\n  workbook dev check --run --report docs/validation/H200.md\n  workbook dev check --only module14/tiled_gemm --arch sm_90\n  workbook dev check --arch sm_75,sm_86,sm_90 --unoptimized-host   (CI: compile only)");
  cmd->callback([&ctx, o] {
    Style style = ctx.global.style();
    if (!o->report.empty()) check_report_target(o->report, o->force);
    OpenedCourse opened(ctx.global);
    DevCheckOptions check = o->check;
    const Output out = ctx.global.output(o->json);
    bool header_printed = false;
    // The compiles (minutes): a line redrawn on a terminal, a line now and then in a log; on stderr.
    ProgressLine progress(::isatty(STDERR_FILENO) != 0, stderr_width());
    const auto started = std::chrono::steady_clock::now();
    check.on_compiled = [&](std::size_t done, std::size_t total, const DevLabRow& row) {
      const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const std::string what = fmt::format("{} {} ({})", row.compiled ? "compiled" : "not compiled:", row.lab, row.variant);
      if (const std::string text = progress.update(done, total, what, now); !text.empty()) {
        fmt::print(stderr, "{}", text);
        std::fflush(stderr);
      }
    };
    check.on_row = [&](const DevCheckResult& so_far, const DevLabRow& row) {
      fmt::print(stderr, "{}", progress.finish());
      print_notice(out, [&](const Style& s) {
        if (!header_printed) print_dev_header(so_far, s);
        header_printed = true;
        print_dev_row(row, s);
      });
    };
    DevCheckResult r = dev_check({opened.catalog, opened.workspace, opened.journal, style}, check);
    fmt::print(stderr, "{}", progress.finish());
    if (!o->report.empty()) write_report(*o, r);
    print_result(out, r, dev_check_json, [&](const DevCheckResult& x, const Style& s) {
      if (!header_printed) print_dev_header(x, s);
      print_dev_summary(x, s);
      if (!o->report.empty()) fmt::print("Report written to {}\n", o->report);
    });
    ctx.exit_code = r.interrupted ? static_cast<int>(Exit::interrupted) : r.ok() ? 0 : 1;
  });
}

}  // namespace workbook
