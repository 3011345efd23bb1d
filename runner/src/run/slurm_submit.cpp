// The login node's and the compute node's parts of a Slurm run (see slurm_submit.hpp).
#include "run/slurm_submit.hpp"

#include <fmt/format.h>


#include "exec/slurm.hpp"
#include "profile/profile_print.hpp"
#include "run/report_print.hpp"
#include "run/slurm_follow.hpp"
#include "run/slurm_journal.hpp"
#include "run/slurm_node.hpp"
#include "run/slurm_outcome.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// How long the login node waits, after scancel, for the job to end.
constexpr double kCancelWait_s = 120;

fs::path this_binary() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(Exit::internal, "cannot tell where the workbook binary is (/proc/self/exe)");
  return exe;
}

Verdict verdict_named(const std::string& name) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::out_of_range, Verdict::compile_error, Verdict::runtime_error,
                    Verdict::timeout, Verdict::interrupted, Verdict::not_run}) {
    if (name == to_string(v)) return v;
  }
  return Verdict::runtime_error;
}

BatchScript batch_script(const Catalog& catalog, const Workspace& workspace, const RunRequest& req, const LabSpec& lab,
                         const SlurmSettings& s, const fs::path& dir, const std::string& run_id) {
  BatchScript b;
  b.settings = s;
  b.job_name = "wb-" + lab.name;
  b.run_label = fmt::format("run #{} of {} ({})", run_id, lab.id, to_string(req.variant));
  b.output = dir / "job.out";
  b.workdir = fs::current_path();
  b.command = compute_node_command(this_binary(), catalog.root(), workspace.root(), req, run_id);
  return b;
}

// Writes the batch script of the opened run, submits it and records the job. A refused
// submission finishes the run as not run (the predictions stay) and is thrown.
SlurmJobRecord submit_job(const RunContext& ctx, const RunRequest& req, const RunReport& report,
                          const SlurmSettings& s) {
  const fs::path dir = slurm_run_dir(ctx.workspace, report.run_id);
  fs::remove(dir / "report.json");
  const fs::path script = dir / "job.sh";
  write_file_text(script, render_batch_script(
                         batch_script(ctx.catalog, ctx.workspace, req, report.lab, s, dir, std::to_string(report.run_id))));
  SlurmJobRecord job{report.run_id, "", s.partition, s.gres, s.time, s.account, script.string(), "", "", "", "", "", "", ""};
  try {
    job.job_id = sbatch_submit(script, fs::current_path());
  } catch (const Error& e) {
    ctx.journal.finish_run(report.run_id, Verdict::not_run, -1, e.what());
    throw;
  }
  record_slurm_submission(ctx.journal, job);
  return job;
}

nlohmann::json slurm_json(const SlurmJobRecord& job, const SlurmJobStatus& status) {
  return {{"job_id", job.job_id}, {"state", status.state},      {"exit_code", status.exit_code},
          {"node", job.node},     {"gpu", job.gpu},             {"cluster", job.cluster},
          {"partition", job.partition}, {"gres", job.gres},     {"time", job.time_limit},
          {"account", job.account}, {"script", job.script}};
}

// The login node's end: the verdict settled, recorded and printed.
void finish(const RunContext& ctx, const SlurmRunOptions& o, const SlurmJobStatus& status, const SlurmOutcome& outcome,
            RunReport& report) {
  record_slurm_end(ctx.journal, report.run_id, status.state, status.exit_code);
  if (outcome.from_slurm) ctx.journal.finish_run(report.run_id, outcome.verdict, -1, outcome.reason);
  const SlurmJobRecord job = slurm_job_of(ctx.journal, report.run_id).value_or(SlurmJobRecord{});
  const fs::path dir = slurm_run_dir(ctx.workspace, report.run_id);
  const std::optional<std::string> node_report = read_file_text(dir / "report.json");
  nlohmann::json j = node_report ? nlohmann::json::parse(*node_report, nullptr, false) : report_json(report);
  if (j.is_discarded()) j = report_json(report);
  const RunEnd end = run_end_of(ctx.journal, report.run_id).value_or(RunEnd{});
  report.grade.verdict = verdict_named(end.verdict.value_or("runtime_error"));
  report.grade.verdict_reason = outcome.from_slurm ? outcome.reason : node_report ? j.value("reason", end.detail) : end.detail;
  report.next_step = outcome.from_slurm ? outcome.next_step : j.value("next_step", std::string());
  report.ran = j.contains("process") && j["process"].value("ran", false);
  if (report.next_step.empty() && !node_report) report.next_step = fmt::format("read the job's output in {}", (dir / "job.out").string());
  j["verdict"] = to_string(report.grade.verdict);
  j["reason"] = report.grade.verdict_reason;
  j["next_step"] = report.next_step;
  j["slurm"] = slurm_json(job, status);
  if (o.json) {
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  // The node printed its report into the job's output, shown above; print one here when
  // it could not, or when Slurm's state overrides what it recorded.
  if (outcome.from_slurm && node_report) {
    fmt::print("\n{}\n", ctx.style.bold(fmt::format("Slurm ended job {} ({}); the run's verdict is Slurm's:", job.job_id,
                                                    status.state.empty() ? "state unknown" : status.state)));
  }
  if (outcome.from_slurm) report.ran = false;  // the node's report above has the figures; only the verdict here
  if (outcome.from_slurm || !node_report) print_report(report, ctx.style);
  fmt::print("{}\n", ctx.style.dim(fmt::format("Slurm job {} {}{}{} · run #{} · script and output in {}", job.job_id,
                                               status.state.empty() ? "ended" : status.state,
                                               job.node.empty() ? "" : " on " + job.node,
                                               job.gpu.empty() ? "" : " (" + job.gpu + ")", report.run_id,
                                               dir.string())));
}

}  // namespace

std::optional<RunReport> submit_slurm_run(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                          RunRequest req, const SlurmRunOptions& o) {
  const LabRef ref = parse_lab_ref_or_throw(req.lab);
  const bool cuda = ref.name.empty() || catalog.find_lab(ref).language == LabLanguage::cuda;
  const SlurmSettings s = resolve_slurm_settings(workspace, o.flags, cuda);
  if (o.dry_run) {
    if (ref.name.empty()) throw UsageError(fmt::format("'{}' names a module; run one of its labs", req.lab));
    const fs::path dir = slurm_run_dir(workspace, 0).parent_path() / "run-RUN_ID";
    fmt::print(stderr, "Dry run: nothing is submitted; RUN_ID becomes the journal's run id.\n");
    fmt::print("{}", render_batch_script(batch_script(catalog, workspace, req, catalog.find_lab(ref), s, dir, "RUN_ID")));
    return std::nullopt;
  }
  if (!slurm_tools_on_path()) {
    throw UsageError("--slurm needs Slurm's sbatch, squeue and scancel, and they are not on PATH",
                     "run it on the cluster's login node, or see the batch script with --slurm-dry-run");
  }
  workspace.ensure();
  RunReport report;
  SlurmJobRecord job;
  {
    Journal journal(workspace.journal_path());
    const RunContext ctx{catalog, workspace, journal, style};
    req.stop_after_predict = true;
    report = run_lab(ctx, req);  // the run is opened and the predictions recorded
    req.seed = report.seed;
    job = submit_job(ctx, req, report, s);
  }
  const fs::path dir = slurm_run_dir(workspace, report.run_id);
  if (!o.json) {
    fmt::print("Submitted Slurm job {} for run #{}{}{}; Ctrl-C cancels it.\n", job.job_id, report.run_id,
               s.partition.empty() ? "" : " (partition " + s.partition + ")", s.gres.empty() ? "" : ", gres " + s.gres);
    std::fflush(stdout);
  }
  FollowOptions follow{job.job_id, dir / "job.out", dir / "report.json", s.poll_s, !o.json, !o.json && interactive_terminal()};
  FollowResult followed = follow_slurm_job(follow, style);
  if (followed.interrupt_signal != 0) {
    if (!o.json) fmt::print("\nCancelling Slurm job {} (scancel) ...\n", job.job_id);
    followed.status = cancel_slurm_job(follow, kCancelWait_s, style);
  }
  Journal journal(workspace.journal_path());
  const RunContext ctx{catalog, workspace, journal, style};
  SlurmOutcome outcome{true, Verdict::interrupted,
                       fmt::format("cancelled on the login node (Slurm job {}, scancel)", job.job_id),
                       "nothing was graded; your predictions are kept in the journal: submit it again when you are ready"};
  if (followed.interrupt_signal == 0) {
    const RunEnd end = run_end_of(journal, report.run_id).value_or(RunEnd{});
    outcome = slurm_outcome(job.job_id, followed.status, end.verdict, s.time, dir / "job.out");
  }
  finish(ctx, o, followed.status, outcome, report);
  return report;
}

RunReport continue_slurm_run(const RunContext& ctx, const RunRequest& req) {
  const long long id = req.continue_run_id;
  if (!slurm_job_of(ctx.journal, id)) {
    throw UsageError(fmt::format("--slurm-continue {}: run #{} was not submitted with --slurm", id, id),
                     "this option is for the batch script that `workbook run --slurm` writes");
  }
  if (const auto end = run_end_of(ctx.journal, id); end && end->verdict) {
    throw UsageError(fmt::format("--slurm-continue {}: run #{} has already ended ({})", id, id, *end->verdict));
  }
  const ComputeNode node = this_compute_node();
  record_slurm_node(ctx.journal, id, node.cluster, node.node, node.gpu);
  RunReport report;
  try {
    report = run_lab(ctx, req);
  } catch (const Error& e) {  // e.g. no nvcc on the node: recorded, so the login node can say why
    ctx.journal.finish_run(id, Verdict::not_run, -1, e.hint().empty() ? e.what() : std::string(e.what()) + "; " + e.hint());
    throw;
  }
  record_run_arch(ctx.journal, id, report.arch);
  if (!node.gpu.empty()) report.device = node.gpu + " on " + node.node;
  nlohmann::json j = report_json(report);
  j["profile"] = profile_json(report.profile);
  write_file_text(slurm_run_dir(ctx.workspace, id) / "report.json", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (req.verbose) {
    print_report(report, ctx.style);
    for (const auto& line : profile_lines(report.profile, ctx.style)) fmt::print("{}\n", line);
  }
  return report;
}

}  // namespace workbook
