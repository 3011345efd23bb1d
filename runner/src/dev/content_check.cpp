// Content check (see content_check.hpp).
#include "dev/content_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "build/lab_build.hpp"
#include "build/toolchain.hpp"
#include "build/toolchain_config.hpp"
#include "content/catalog.hpp"
#include "content/exercises.hpp"
#include "content/lab_id.hpp"
#include "content/manifest_load.hpp"
#include "content/variant.hpp"
#include "dev/build_lines.hpp"
#include "dev/exercised.hpp"
#include "dev/starter_leaks.hpp"
#include "dev/starter_scope.hpp"
#include "dev/stray_files.hpp"
#include "device/probe_run.hpp"
#include "exec/process.hpp"
#include "specs/gpu_specs.hpp"
#include "specs/measured_refs.hpp"
#include "ui/units.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

bool DevCheckResult::ok() const {
  return problems.empty() && std::all_of(rows.begin(), rows.end(), [](const DevLabRow& r) { return r.ok; });
}

namespace {

// A starter's comments must not quote the solution's code (dev/starter_leaks.hpp) ...
void starter_leaks(const Catalog& catalog, const LabSpec& lab, std::vector<std::string>& problems) {
  const fs::path starter = catalog.starter_path(lab), solution = catalog.solution_path(lab);
  const auto starter_text = read_file_text(starter), solution_text = read_file_text(solution);
  if (!starter_text || !solution_text) return;  // a missing file is the manifest check's problem
  const std::string starter_rel = fs::relative(starter, catalog.root()).generic_string();
  const std::string solution_rel = fs::relative(solution, catalog.root()).generic_string();
  auto found = starter_leak_problems(starter_rel, *starter_text, solution_rel, *solution_text,
                                     lab.language == LabLanguage::python);
  problems.insert(problems.end(), found.begin(), found.end());
  if (lab.language == LabLanguage::python) return;
  // ... and differs from the solution only in the functions the learner writes (dev/starter_scope.hpp).
  std::vector<std::string> declared;
  for (const auto& [function, checks] : lab.exercised) declared.push_back(function);
  found = starter_scope_problems(starter_rel, *starter_text, solution_rel, *solution_text, declared);
  problems.insert(problems.end(), found.begin(), found.end());
}

// Every function a starter's TODO sits in is run by a declared check (dev/exercised.hpp).
void unexercised_todos(const Catalog& catalog, const Module& module, const LabSpec& lab,
                       std::vector<std::string>& problems) {
  const fs::path starter = catalog.starter_path(lab);
  const auto text = read_file_text(starter);
  if (!text) return;  // a missing file is the manifest check's problem
  const std::string where = fmt::format("{} (lab {})", fs::relative(module.file, catalog.root()).generic_string(), lab.name);
  auto found = unexercised_todo_problems(fs::relative(starter, catalog.root()).generic_string(), *text,
                                         lab.language == LabLanguage::python, where, lab.exercised);
  const auto solution = read_file_text(catalog.solution_path(lab)).value_or("");
  auto unknown = unknown_exercised_checks(where, lab.exercised, lab.checks, lab.memcheck, solution);
  problems.insert(problems.end(), found.begin(), found.end());
  problems.insert(problems.end(), unknown.begin(), unknown.end());
}

// Every module, loaded (its manifest's own fields checked) and then checked against the
// files it names and the T4 sheet (content/manifest_load.hpp); none when one has a problem.
std::vector<Module> checked_modules(const Catalog& catalog, const std::vector<GpuSpec>& specs,
                                    std::vector<std::string>& problems) {
  std::vector<Module> modules;
  Problems p;
  for (int n : catalog.module_numbers()) {
    try {
      modules.push_back(catalog.load_module(n));
      check_module_beyond_manifest(modules.back(), catalog.root(), find_gpu(specs, "t4"), p);
    } catch (const ContentError& e) {
      for (const auto& line : e.problems()) p.add_line(line);
    }
  }
  problems.insert(problems.end(), p.list().begin(), p.list().end());
  if (!p.empty()) modules.clear();
  return modules;
}

// data/measured/*.yaml: a known GPU, known labs, and only graded min/max figures.
void check_measured_refs(const Catalog& catalog, const std::vector<GpuSpec>& specs, const std::vector<Module>& modules,
                         std::vector<std::string>& problems) {
  try {
    for (const auto& refs : load_measured_refs(catalog.root() / "data")) {
      const std::string where = "data/measured (gpu " + refs.gpu + ")";
      if (!std::any_of(specs.begin(), specs.end(), [&](const GpuSpec& s) { return s.id == refs.gpu; }))
        problems.push_back(fmt::format("{}: gpu: '{}' is not a spec sheet id in data/gpus.yaml", where, refs.gpu));
      for (const auto& [id, lab] : refs.labs) {
        const LabSpec* spec = nullptr;
        for (const auto& m : modules)
          for (const auto& l : m.labs)
            if (l.id == id) spec = &l;
        if (!spec) {
          problems.push_back(fmt::format("{}: labs.{}: no such lab", where, id));
          continue;
        }
        for (const auto& [name, fig] : lab.figures) {
          const MetricSpec* ms = nullptr;
          for (const auto* list : {&spec->metrics, &spec->derived})
            for (const auto& x : *list)
              if (x.name == name) ms = &x;
          if (!ms || !ms->expected || !ms->expected->equals_expr.empty())
            problems.push_back(fmt::format("{}: labs.{}.figures.{}: not a metric of the lab with a min/max expected range",
                                           where, id, name));
          if (!(fig.value > 0)) problems.push_back(fmt::format("{}: labs.{}.figures.{}: must be positive", where, id, name));
        }
      }
    }
  } catch (const ContentError& e) {
    problems.insert(problems.end(), e.problems().begin(), e.problems().end());
  }
}

void validate_content(const Catalog& catalog, std::vector<Module>& modules, std::vector<std::string>& problems) {
  std::vector<GpuSpec> specs;
  std::vector<std::string> sheet_problems;
  try {
    specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  } catch (const ContentError& e) {
    sheet_problems = e.problems();
  }
  modules = checked_modules(catalog, specs, problems);
  problems.insert(problems.end(), sheet_problems.begin(), sheet_problems.end());
  check_measured_refs(catalog, specs, modules, problems);
  Problems p;
  for (int n = 1; n <= kModuleCount; ++n) {
    fs::path file = catalog.root() / "exercises" / (module_id(n) + ".yaml");
    if (fs::exists(file)) read_exercises(file, n, "exercises/" + module_id(n) + ".yaml", p);
  }
  problems.insert(problems.end(), p.list().begin(), p.list().end());
  std::map<std::string, std::set<std::string>> sources;
  for (const auto& m : modules)
    for (const auto& lab : m.labs) sources[lab.id.substr(0, lab.id.find('/'))].insert(lab.source);
  for (auto& stray : stray_file_problems(catalog.root(), sources)) problems.push_back(std::move(stray));
  // Every starter's and solution's header gives a build line for itself.
  for (const auto& m : modules) {
    for (const auto& lab : m.labs) {
      for (const fs::path& file : {catalog.starter_path(lab), catalog.solution_path(lab)}) {
        const auto text = read_file_text(file);
        if (!text) continue;  // a missing file is the manifest check's problem
        const std::string rel = fs::relative(file, catalog.root()).generic_string();
        for (auto& problem : build_line_problems(lab, rel, *text)) problems.push_back(std::move(problem));
      }
      starter_leaks(catalog, lab, problems);
      if (!lab.examiner && !(lab.metrics.empty() && lab.derived.empty()))
        problems.push_back(fmt::format("{}:{}: labs.{}.examiner: is missing: every lab says what a good explanation of "
                                       "its main figure names (bound, figures; docs/authoring.md, \"Feedback on an "
                                       "explanation\")",
                                       fs::relative(m.file, catalog.root()).generic_string(), lab.line, lab.name));
      unexercised_todos(catalog, m, lab, problems);
    }
  }
}

// What one row builds and expects: the solution, the starter, or a manifest variant.
struct RowPlan {
  std::string name;      // DevLabRow::variant
  std::string expected;  // "pass", "fail" or "out_of_range"
  std::string what;
  fs::path source;
  const VariantSpec* variant = nullptr;
};

// The solution row grades on the workspace's figures; where those are calibrated, a
// second row grades the same solution on the spec sheet's (kSheetRow), so one `dev check
// --run` proves both bases a learner can grade on.
constexpr const char* kSheetRow = "solution:spec_sheet";

std::vector<RowPlan> plan_rows(const RunContext& ctx, const LabSpec& lab, bool calibrated) {
  std::vector<RowPlan> plans;
  plans.push_back({"solution", "pass", "", ctx.catalog.solution_path(lab), nullptr});
  if (calibrated) {
    plans.push_back({kSheetRow, "pass", "the solution graded on the spec sheet's figures, as in an uncalibrated workspace",
                     ctx.catalog.solution_path(lab), nullptr});
  }
  plans.push_back({"starter", "fail", "", ctx.catalog.starter_path(lab), nullptr});
  for (const auto& v : lab.variants) {
    const bool wrong = v.kind == VariantKind::wrong;
    plans.push_back({fmt::format("{}:{}", to_string(v.kind), v.id), wrong ? "fail" : "out_of_range", v.what, {}, &v});
  }
  return plans;
}

// How a row is compiled. Compiling only, for several GPUs (CI: sm_75,sm_86,sm_90): every
// starter and solution, what a learner builds, for each of them and linked; a variant (the
// solution with one edit, run only by dev check --run, which builds it for its own GPU) for
// the first listed, the oldest in CI's list, where an arch-gated feature fails first, and
// checked only (build_lab's check_only: nvcc -cuda, its device code compiled and its host
// code checked, nothing generated for the host or linked). A variant for all three GPUs made
// CI's compile 3x that of one (1,535 s of a 1,885 s CI run, 2026-12-05); a variant linked
// took 3.6 s of CPU, checked 2.5 s (module14/tiled_gemm, sm_75, 2 cores, 2026-12-05).
struct CompileAs {
  std::string arch;
  bool unoptimized_host = false;
  bool check_only = false;
};

CompileAs compile_as(const RowPlan& plan, const std::string& arches, const DevCheckOptions& o) {
  const bool variant_checked = plan.variant && !o.run;
  return {variant_checked ? arches.substr(0, arches.find(',')) : arches, o.unoptimized_host, variant_checked};
}

DevLabRow compile_one(const RunContext& ctx, const LabSpec& lab, RowPlan& plan, const CompileAs& as,
                      const std::optional<Toolchain>& nvcc) {
  DevLabRow row;
  row.lab = lab.id;
  row.variant = plan.name;
  row.expected = plan.expected;
  row.what = plan.what;
  if (lab.language == LabLanguage::cuda && !nvcc) {
    row.problem = "nvcc not found";
    return row;
  }
  if (plan.variant) {
    try {
      plan.source = write_variant_source(lab, *plan.variant, ctx.catalog.solution_path(lab),
                                         ctx.workspace.state_dir() / "variants" / lab.id);
    } catch (const Error& e) {
      row.problem = e.what();
      return row;
    }
  }
  BuildRequest b = lab_build_request(ctx, lab, plan.source, as.arch);
  if (as.unoptimized_host) drop_host_optimisation(b);
  b.check_only = as.check_only;
  BuildResult r;
  try {
    r = build_lab(b, nvcc ? &*nvcc : nullptr);
  } catch (const UsageError& e) {  // no python3 for a Python lab, say: this row only
    row.problem = e.what();
    return row;
  }
  row.compiled = r.ok;
  row.diagnostics = r.diagnostics;
  row.ok = r.ok;
  if (!r.ok) row.problem = r.interrupted ? "interrupted while compiling" : "does not compile";
  return row;
}

// The figures outside their range, as "name is below range (value); ...".
std::string out_of_range_figures(const RunReport& report) {
  std::string s;
  for (const auto& m : report.grade.metrics) {
    if (m.status == RangeStatus::below || m.status == RangeStatus::above || m.status == RangeStatus::missing) {
      s += fmt::format("{}{} is {} ({})", s.empty() ? "" : "; ", m.name, to_string(m.status),
                       m.value ? format_figure(*m.value, m.unit) : "-");
    }
  }
  return s;
}

// Why a passing solution of a `memcheck: quick` lab is not proven memcheck-clean ("" when
// it is): its memcheck_quick check is missing, or was skipped (no compute-sanitizer).
std::string memcheck_unproven(const LabSpec& lab, const RunReport& report, bool asked) {
  if (!lab.memcheck || !asked) return "";
  auto c = std::find_if(report.grade.checks.begin(), report.grade.checks.end(),
                        [](const CheckGrade& g) { return g.name == kMemcheckCheck; });
  if (c == report.grade.checks.end()) return "the lab asks for a memcheck pass (memcheck: quick) and none ran";
  if (c->skipped) return "not proven memcheck-clean: " + c->detail;
  return "";
}

void run_one(const RunContext& ctx, const LabSpec& lab, const RowPlan& plan, DevLabRow& row, const DevCheckOptions& o) {
  RunRequest req;
  req.lab = lab.id;
  if (plan.name == "solution" || plan.name == kSheetRow) {
    req.variant = LabVariant::solution;
    req.ignore_calibration = plan.name == kSheetRow;
    req.memcheck = plan.name != kSheetRow;  // the same binary at the same quick size: once
  } else if (plan.variant) {
    req.variant = LabVariant::variant;
    req.variant_id = plan.variant->id;
  } else {
    req.variant = LabVariant::file;
    req.file = plan.source;
  }
  req.no_predict = true;
  req.quick = o.quick;
  req.arch = o.arch;
  req.verbose = false;
  RunReport report = run_lab(ctx, req);
  row.ran = report.ran;
  row.verdict = to_string(report.grade.verdict);
  const Verdict v = report.grade.verdict;
  if (plan.expected == "pass") {
    row.ok = report.ran && v == Verdict::pass;
    if (!row.ok) {
      const std::string figures = out_of_range_figures(report);
      row.problem = fmt::format("the solution did not pass: {}", report.grade.verdict_reason);
      if (!figures.empty()) row.problem += " (" + figures + ")";
    } else if (const std::string why = memcheck_unproven(lab, report, req.memcheck); !why.empty()) {
      row.ok = false;  // a PASS without its memcheck pass proves nothing about reads
      row.problem = why;
    }
  } else if (plan.expected == "out_of_range") {
    // Under --quick the sizes are too small for the ranges to mean anything: a slow
    // variant must then still be correct (no failed check), nothing more.
    row.ok = report.ran && (v == Verdict::out_of_range || (o.quick && v == Verdict::pass));
    if (!row.ok) {
      row.problem = v == Verdict::pass
                        ? "the slow variant graded PASS: no expected range tells it from the solution"
                        : fmt::format("the slow variant should be correct but slow, and gave '{}': {}", row.verdict,
                                      report.grade.verdict_reason);
    } else {
      row.problem = out_of_range_figures(report);
    }
  } else {
    row.ok = report.ran && v == Verdict::fail;
    if (!row.ok) {
      row.problem = plan.variant ? fmt::format("the known-wrong variant should fail a check, but gave '{}'{}", row.verdict,
                                               v == Verdict::out_of_range || v == Verdict::pass
                                                   ? ": no check catches this mistake"
                                                   : ": " + report.grade.verdict_reason)
                                 : fmt::format("the untouched starter should fail its checks, but it gave '{}'", row.verdict);
    } else if (plan.variant) {
      row.problem = report.grade.verdict_reason;
    }
  }
  row.report = std::move(report);
}

// Calls compile(i) for i in [0, count) on up to `jobs` threads (<= 0: one per core). A
// call returning true (interrupted) stops the calls not yet started; an exception in any
// call is rethrown here once all threads have stopped.
void compile_all(std::size_t count, int jobs, const std::function<bool(std::size_t)>& compile) {
  std::size_t threads = jobs > 0 ? static_cast<std::size_t>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto worker = [&] {
    for (std::size_t i; !stop && (i = next++) < count;) {
      try {
        if (compile(i)) stop = true;
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

// Every --only names a lab that exists: a typo must not pass as "0 passed, 0 failed".
// Checked against the modules validate_content loaded (none when the content has
// problems: those are the report's answer); a module that is not there at all gets
// load_module's message.
void require_only_labs(const Catalog& catalog, const std::vector<Module>& modules,
                       const std::vector<std::string>& only) {
  if (modules.empty()) return;
  for (const auto& id : only) {
    LabRef ref = parse_lab_ref_or_throw(id);
    if (ref.name.empty()) {
      throw UsageError(fmt::format("dev check --only {} names a module, not a lab", id),
                       fmt::format("give each lab: `workbook show {}` lists them", ref.module_id()));
    }
    auto m = std::find_if(modules.begin(), modules.end(), [&](const Module& x) { return x.number == ref.module; });
    if (m == modules.end()) {
      (void)catalog.load_module(ref.module);  // throws: no such module
    } else {
      (void)lab_in(*m, ref.name);  // throws: no such lab
    }
  }
}

// What the solutions are graded on, said in the report ("" when nothing runs).
std::string basis_text(bool run, const DeviceContext& dev) {
  if (!run) return "";
  // Where this GPU's own lab references exist (device --calibrate --labs), a lab with one
  // at its default parameters is graded against it first (run/lab_calibration.hpp).
  const std::string own = fmt::format("this GPU's own lab references ({} of them, device --calibrate --labs) where a "
                                      "lab has one, else ",
                                      dev.own_references.size());
  const std::string first = dev.own_references.empty() ? "" : own;
  if (dev.calibration) {
    return fmt::format("solutions graded twice: on {}this workspace's calibration ({}) and on {}the spec sheet's "
                       "figures",
                       first, dev.calibration->measured_at.substr(0, 10), first);
  }
  if (!dev.own_references.empty()) return "solutions graded on " + own + "the spec sheet's figures";
  return "solutions graded on the spec sheet's figures only: run `workbook device --calibrate` in this workspace "
         "first to prove the calibrated basis too";
}

// One row of dev check: its lab, what it builds and expects, and what came of it.
struct DevJob {
  const LabSpec* lab;
  RowPlan plan;
  DevLabRow row;
  bool compiled_or_tried = false;
};

// Runs the compiled rows one at a time, in order (timings must not share the GPU), each
// added to `result` as it ends; stops at the first one interrupted.
void run_rows(const RunContext& ctx, std::vector<DevJob>& jobs, const DevCheckOptions& o, DevCheckResult& result) {
  for (DevJob& job : jobs) {
    DevLabRow& row = job.row;
    if (!job.compiled_or_tried) {  // not started: a compile before it was interrupted
      row.lab = job.lab->id;
      row.variant = job.plan.name;
      row.expected = job.plan.expected;
      row.problem = "interrupted while compiling";
    }
    if (row.compiled && o.run) run_one(ctx, *job.lab, job.plan, row, o);
    const bool stopped = row.problem == "interrupted while compiling" ||
                         (row.report && row.report->grade.verdict == Verdict::interrupted);
    result.rows.push_back(std::move(row));
    if (o.on_row) o.on_row(result, result.rows.back());
    if (stopped) {  // the author (or the system) asked to stop: check nothing more
      result.interrupted = true;
      result.problems.push_back("interrupted: the rows after the last one shown were not checked");
      return;
    }
  }
}

// The device probes (labs/common/probes/*.cu): not labs, but built on the learner's
// machine by `workbook device` from the same harness, so they compile here too, for the
// same architectures. Each one that does not is a problem of the check.
void compile_probes(const RunContext& ctx, const std::string& arch, const std::optional<Toolchain>& nvcc,
                    DevCheckResult& result) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(ctx.catalog.common_dir() / "probes", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".cu") names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const BuildRequest b = probe_build_request(ctx.catalog, ctx.workspace, name, arch);
    if (!nvcc) {
      result.problems.push_back(fmt::format("{}: not compiled: nvcc not found", b.display_name));
      continue;
    }
    const BuildResult r = build_lab(b, &*nvcc);
    if (!r.ok) result.problems.push_back(fmt::format("{} does not compile:\n{}", b.display_name, r.diagnostics));
  }
}

}  // namespace

DevCheckResult dev_check(const RunContext& ctx, const DevCheckOptions& o) {
  if (o.run && o.unoptimized_host) {
    throw UsageError("--unoptimized-host goes with a compile-only check, not with --run",
                     "drop --unoptimized-host: a run builds the labs as a learner does (their -O3)");
  }
  DevCheckResult result;
  result.started_at = utc_now();
  std::vector<Module> modules;
  validate_content(ctx.catalog, modules, result.problems);
  require_only_labs(ctx.catalog, modules, o.only);
  DeviceContext dev = load_device_context(ctx.catalog, std::nullopt, &ctx.journal);
  result.device = dev.describe();
  const bool calibrated = o.run && dev.calibration.has_value();
  result.basis = basis_text(o.run, dev);
  auto selected = [&](const LabSpec& lab) {
    return o.only.empty() || std::find(o.only.begin(), o.only.end(), lab.id) != o.only.end();
  };
  const bool needs_gpu = std::any_of(modules.begin(), modules.end(), [&](const Module& m) {
    return std::any_of(m.labs.begin(), m.labs.end(),
                       [&](const LabSpec& lab) { return selected(lab) && lab.language == LabLanguage::cuda; });
  });
  if (o.run && needs_gpu && !dev.gpu) {
    throw UsageError("dev check --run needs an NVIDIA GPU to run CUDA labs, and none was found",
                     "run it on a GPU machine, or drop --run to validate and compile only");
  }
  result.arch = arch_for_gpu(o.arch, dev.gpu ? dev.gpu->compute_cap : "");
  std::optional<Toolchain> nvcc = find_toolchain(ctx.workspace.root());
  ctx.workspace.ensure();
  std::vector<DevJob> jobs;  // every row to check, in content order
  for (const auto& m : modules) {
    for (const auto& lab : m.labs) {
      if (!selected(lab)) continue;
      for (RowPlan& plan : plan_rows(ctx, lab, calibrated)) jobs.push_back({&lab, std::move(plan), {}, false});
    }
  }

  // Compile them all, several at once (each compiler is a child process; build_lab is
  // safe to call from several threads, and a Ctrl-C reaches every running compile).
  std::mutex progress_mutex;
  std::size_t compiled = 0;
  compile_all(jobs.size(), o.jobs, [&](std::size_t i) {
    jobs[i].row = compile_one(ctx, *jobs[i].lab, jobs[i].plan, compile_as(jobs[i].plan, result.arch, o), nvcc);
    jobs[i].compiled_or_tried = true;
    if (o.on_compiled) {
      std::lock_guard lock(progress_mutex);
      o.on_compiled(++compiled, jobs.size(), jobs[i].row);
    }
    return jobs[i].row.problem == "interrupted while compiling";
  });

  if (o.only.empty() && termination_signal() == 0) compile_probes(ctx, result.arch, nvcc, result);
  run_rows(ctx, jobs, o, result);
  return result;
}

std::string markdown_report(const DevCheckResult& r, const std::string& command_line) {
  std::string md;
  md += "# Validation report\n\n";
  md += fmt::format("Written by `workbook dev check` on {}.\n\n", r.started_at);
  const bool ran = std::any_of(r.rows.begin(), r.rows.end(), [](const DevLabRow& row) { return row.ran; });
  if (!r.basis.empty()) md += fmt::format("- Basis: {}\n", r.basis);
  md += fmt::format("- Device: {}\n- Architecture: {}\n- Command: `{}`\n- Result: **{}**{}\n\n", r.device, r.arch,
                    command_line, r.ok() ? "every check met" : "problems found",
                    ran ? "" : " (compiled only: nothing was run)");
  if (!r.problems.empty()) {
    md += "## Content problems\n\n";
    for (const auto& p : r.problems) md += "- " + p + "\n";
    md += "\n";
  }
  md += "## Labs\n\nEvery solution must pass, every starter and known-wrong variant (`wrong:`) must fail a check, and "
        "every correct-but-slow variant (`slow:`) must grade `out_of_range`.\n\n";
  md += "| lab | variant | compiled | verdict | expected | ok | note |\n|---|---|---|---|---|---|---|\n";
  auto cell = [](std::string text) {  // one markdown table cell
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return out;
  };
  for (const auto& row : r.rows) {
    std::string note = row.what.empty() ? row.problem : row.what + (row.problem.empty() ? "" : " → " + row.problem);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.lab, row.variant, row.compiled ? "yes" : "no",
                      row.ran ? row.verdict : "(not run)", row.expected, row.ok ? "yes" : "**no**", cell(note));
  }
  md += "\n## Figures of every solution and slow variant\n\n";
  for (const auto& row : r.rows) {
    if (!row.report || !row.report->ran) continue;
    if (row.variant != "solution" && row.variant != kSheetRow && row.expected != "out_of_range") continue;
    const RunReport& rep = *row.report;
    md += fmt::format("### {} ({})\n\n", row.lab, row.variant);
    md += fmt::format("Seed {}, parameters:", rep.seed);
    for (const auto& [k, v] : rep.params) md += fmt::format(" {}={:g}", k, v);
    md += fmt::format("; {} in {:.2f} s.\n\n", rep.process_summary, rep.wall_s);
    md += "| check | result | detail |\n|---|---|---|\n";
    for (const auto& c : rep.grade.checks) {
      md += fmt::format("| {} | {} | {} |\n", c.name, c.pass ? "pass" : "FAIL", cell(c.reported ? c.detail : "not reported"));
    }
    md += "\n| metric | measured | samples / spread | expected here | basis | status | workbook reference |\n|---|---|---|---|---|---|---|\n";
    for (const auto& m : rep.grade.metrics) {
      std::string range = m.lo || m.hi ? format_range(m.lo, m.hi, m.unit) : "-";
      std::string stats = m.stats && m.stats->samples && m.stats->spread
                              ? fmt::format("{} / {:.2f}%", *m.stats->samples, *m.stats->spread * 100) : "";
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", m.name, m.value ? format_figure(*m.value, m.unit) : "-",
                        stats, range, m.status == RangeStatus::no_range ? "" : to_string(m.basis), to_string(m.status), m.reference);
    }
    md += "\n";
  }
  return md;
}

}  // namespace workbook
