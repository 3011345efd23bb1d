// Content check (see content_check.hpp).
#include "dev/content_check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "build/lab_build.hpp"
#include "build/toolchain.hpp"
#include "content/exercises.hpp"
#include "device/gpu_specs.hpp"
#include "run/report_print.hpp"
#include "util/error.hpp"

namespace workbook {
namespace fs = std::filesystem;

bool DevCheckResult::ok() const {
  return problems.empty() && std::all_of(rows.begin(), rows.end(), [](const DevLabRow& r) { return r.ok; });
}

namespace {

void validate_content(const Catalog& catalog, std::vector<Module>& modules, std::vector<std::string>& problems) {
  try {
    modules = catalog.load_all();
  } catch (const ContentError& e) {
    problems.insert(problems.end(), e.problems().begin(), e.problems().end());
  }
  Problems p;
  for (int n = 1; n <= kModuleCount; ++n) {
    fs::path file = catalog.root() / "exercises" / (module_id(n) + ".yaml");
    if (fs::exists(file)) read_exercises(file, n, "exercises/" + module_id(n) + ".yaml", p);
  }
  try {
    load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  } catch (const ContentError& e) {
    problems.insert(problems.end(), e.problems().begin(), e.problems().end());
  }
  problems.insert(problems.end(), p.list().begin(), p.list().end());
}

DevLabRow compile_one(const RunContext& ctx, const LabSpec& lab, bool solution, const std::string& arch,
                      const std::optional<Toolchain>& nvcc) {
  DevLabRow row;
  row.lab = lab.id;
  row.variant = solution ? "solution" : "starter";
  row.expected = solution ? "pass" : "fail";
  BuildRequest b =
      lab_build_request(ctx, lab, solution ? ctx.catalog.solution_path(lab) : ctx.catalog.starter_path(lab), arch);
  if (lab.language == LabLanguage::cuda && !nvcc) {
    row.problem = "nvcc not found";
    return row;
  }
  BuildResult r = build_lab(b, nvcc ? &*nvcc : nullptr);
  row.compiled = r.ok;
  row.diagnostics = r.diagnostics;
  row.ok = r.ok;
  if (!r.ok) row.problem = "does not compile";
  return row;
}

void run_one(const RunContext& ctx, const LabSpec& lab, DevLabRow& row, const DevCheckOptions& o) {
  RunRequest req;
  req.lab = lab.id;
  req.variant = row.variant == "solution" ? LabVariant::solution : LabVariant::file;
  if (req.variant == LabVariant::file) req.file = ctx.catalog.starter_path(lab);
  req.no_predict = true;
  req.quick = o.quick;
  req.arch = o.arch;
  req.verbose = false;
  RunReport report = run_lab(ctx, req);
  row.ran = report.ran;
  row.verdict = !report.built ? "compile_error" : !report.ran ? "not_run" : to_string(report.grade.verdict);
  if (row.variant == "solution") {
    row.ok = report.ran && report.grade.verdict == Verdict::pass;
    if (!row.ok) {
      row.problem = fmt::format("the solution did not pass: {}", report.grade.verdict_reason);
    } else {
      for (const auto& m : report.grade.metrics) {
        if (m.status == RangeStatus::below || m.status == RangeStatus::above || m.status == RangeStatus::missing) {
          row.ok = false;
          row.problem += fmt::format("{}{} is {} ({}); ", row.problem.empty() ? "" : "", m.name, to_string(m.status),
                                     m.value ? format_figure(*m.value, m.unit) : "-");
        }
      }
    }
  } else {
    row.ok = report.ran && report.grade.verdict == Verdict::fail;
    if (!row.ok) row.problem = fmt::format("the untouched starter should fail its checks, but it gave '{}'", row.verdict);
  }
  row.report = std::move(report);
}

}  // namespace

DevCheckResult dev_check(const RunContext& ctx, const DevCheckOptions& o) {
  DevCheckResult result;
  result.started_at = utc_now();
  std::vector<Module> modules;
  validate_content(ctx.catalog, modules, result.problems);
  DeviceContext dev = load_device_context(ctx.catalog, std::nullopt);
  result.device = dev.describe();
  if (o.run && !dev.gpu) {
    throw UsageError("dev check --run needs an NVIDIA GPU, and none was found",
                     "run it on a GPU machine, or drop --run to validate and compile only");
  }
  result.arch = arch_for_gpu(o.arch, dev.gpu ? dev.gpu->compute_cap : "");
  std::optional<Toolchain> nvcc = find_nvcc();
  ctx.workspace.ensure();
  for (const auto& m : modules) {
    for (const auto& lab : m.labs) {
      if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), lab.id) == o.only.end()) continue;
      for (bool solution : {true, false}) {
        DevLabRow row = compile_one(ctx, lab, solution, result.arch, nvcc);
        if (row.compiled && o.run) run_one(ctx, lab, row, o);
        result.rows.push_back(std::move(row));
      }
    }
  }
  return result;
}

std::string markdown_report(const DevCheckResult& r, const std::string& command_line) {
  std::string md;
  md += "# Validation report\n\n";
  md += fmt::format("Written by `workbook dev check` on {}.\n\n", r.started_at);
  md += fmt::format("- Device: {}\n- Architecture: {}\n- Command: `{}`\n- Result: **{}**\n\n", r.device, r.arch,
                    command_line, r.ok() ? "every check met" : "problems found");
  if (!r.problems.empty()) {
    md += "## Content problems\n\n";
    for (const auto& p : r.problems) md += "- " + p + "\n";
    md += "\n";
  }
  md += "## Labs\n\n| lab | variant | compiled | verdict | expected | ok | note |\n|---|---|---|---|---|---|---|\n";
  for (const auto& row : r.rows) {
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.lab, row.variant, row.compiled ? "yes" : "no",
                      row.ran ? row.verdict : "(not run)", row.expected, row.ok ? "yes" : "**no**", row.problem);
  }
  md += "\n";
  for (const auto& row : r.rows) {
    if (!row.report || !row.report->ran) continue;
    const RunReport& rep = *row.report;
    md += fmt::format("### {} ({})\n\n", row.lab, row.variant);
    md += fmt::format("Seed {}, parameters:", rep.seed);
    for (const auto& [k, v] : rep.params) md += fmt::format(" {}={:g}", k, v);
    md += fmt::format("; {} in {:.2f} s.\n\n", rep.process_summary, rep.wall_s);
    md += "| check | result | detail |\n|---|---|---|\n";
    for (const auto& c : rep.grade.checks) {
      md += fmt::format("| {} | {} | {} |\n", c.name, c.pass ? "pass" : "FAIL", c.reported ? c.detail : "not reported");
    }
    md += "\n| metric | measured | samples / spread | expected here | status | workbook reference |\n|---|---|---|---|---|---|\n";
    for (const auto& m : rep.grade.metrics) {
      std::string range = m.lo && m.hi ? fmt::format("{} - {}", format_figure(*m.lo, ""), format_figure(*m.hi, m.unit))
                          : m.lo     ? ">= " + format_figure(*m.lo, m.unit)
                          : m.hi     ? "<= " + format_figure(*m.hi, m.unit)
                                     : "-";
      std::string stats = m.stats && m.stats->samples && m.stats->spread
                              ? fmt::format("{} / {:.2f}%", *m.stats->samples, *m.stats->spread * 100) : "";
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", m.name, m.value ? format_figure(*m.value, m.unit) : "-",
                        stats, range, to_string(m.status), m.reference);
    }
    md += "\n";
  }
  return md;
}

}  // namespace workbook
