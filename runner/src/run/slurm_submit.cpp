// The login node's and the compute node's parts of a Slurm run (see slurm_submit.hpp).
#include "run/slurm_submit.hpp"

#include <fmt/format.h>

#include "exec/slurm.hpp"
#include "run/report_json.hpp"
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

// The folder a job starts in (sbatch's --chdir): the current one, which must exist.
fs::path current_folder() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec || !fs::is_directory(cwd, ec)) {
    throw UsageError("the current folder no longer exists (it was deleted or moved); a Slurm job starts in the "
                     "folder it is submitted from",
                     "cd to a folder that exists (your workspace, say) and run the command again");
  }
  return cwd;
}

// One name per run: a job whose id was lost is found by it.
std::string job_name(const LabSpec& lab, const std::string& run_id) { return fmt::format("wb-{}-{}", lab.name, run_id); }

BatchScript batch_script(const Catalog& catalog, const Workspace& workspace, const RunRequest& req, const LabSpec& lab,
                         const SlurmSettings& s, const fs::path& dir, const std::string& run_id) {
  BatchScript b;
  b.settings = s;
  b.job_name = job_name(lab, run_id);
  b.run_label = fmt::format("run #{} of {} ({})", run_id, lab.id, to_string(req.variant));
  b.output = dir / "job.out";
  b.workdir = current_folder();
  b.command = compute_node_command(this_binary(), catalog.root(), workspace.root(), req, run_id);
  return b;
}

// What a local run refuses (the lab, -p, --predict, --variant, --file, --gpu, --arch, ...),
// refused with the same messages before anything is recorded or submitted, also by a dry
// run: run_lab's own steps up to the predictions, against a journal in memory.
void check_request(const Catalog& catalog, const Workspace& workspace, RunRequest req, const Style& style) {
  Journal scratch(":memory:");
  req.stop_after_predict = true;
  req.builds_elsewhere = true;
  req.no_predict = true;
  req.interactive = false;
  req.verbose = false;
  run_lab({catalog, workspace, scratch, style}, req);
}

// Writes the batch script of the opened run and its slurm_jobs row (no job id yet), so
// that a job that starts before sbatch has returned finds both.
SlurmJobRecord prepare_job(const RunContext& ctx, const RunRequest& req, const RunReport& report,
                           const SlurmSettings& s) {
  const fs::path dir = slurm_run_dir(ctx.workspace, report.run_id);
  fs::remove(dir / "report.json");
  const fs::path script = dir / "job.sh";
  const BatchScript b = batch_script(ctx.catalog, ctx.workspace, req, report.lab, s, dir, std::to_string(report.run_id));
  write_file_text(script, render_batch_script(b));
  SlurmJobRecord job{report.run_id, "", s.partition, s.gres, s.time, s.account, script.string(), "", "", "", "", "", "", ""};
  record_slurm_submission(ctx.journal, job);
  return job;
}

// sbatch ran, but whether the job was submitted is not known (no id printed, no answer in
// time, Ctrl-C): the job is looked for by its name. Found once: its id. Interrupted: what
// was found is cancelled and the run ends as interrupted. Otherwise the run stays open
// (its node, if the job runs, records it) and the learner is told how to find the job.
std::string recover_job(const Workspace& workspace, long long run_id, const std::string& name, const SbatchUnclear& e,
                        SlurmObserver& observer) {
  const std::vector<std::string> ids = slurm_jobs_named(name);
  std::string listed;
  for (const auto& id : ids) listed += (listed.empty() ? "" : ", ") + id;
  Journal journal(workspace.journal_path());
  const std::string user_name = "-u \"$USER\" -n " + name;
  if (e.interrupted) {
    for (const auto& id : ids) scancel_job(id);
    const std::string why = fmt::format("interrupted while sbatch submitted it{}", ids.empty() ? "" : "; job " + ids.back() + " cancelled");
    if (!ids.empty()) record_slurm_job_id(journal, run_id, ids.back());
    if (const auto end = run_end_of(journal, run_id); end && !end->verdict) {
      RunFacts facts;
      facts.interrupted = why;
      journal.end_run(run_id, facts, -1);
    }
    throw Error(Exit::interrupted, fmt::format("run #{} {}", run_id, why),
                fmt::format("check that no job is left with `squeue {}`", user_name));
  }
  if (ids.size() == 1) {
    record_slurm_job_id(journal, run_id, ids.front());
    observer.found_by_name(e.what(), name, ids.front());
    return ids.front();
  }
  throw Error(Exit::usage,
              fmt::format("{}, so the job may have been submitted without this runner knowing its id ({}){}", e.what(),
                          e.printed.empty() ? "sbatch printed nothing" : "sbatch printed: " + e.printed,
                          ids.empty() ? "" : "; jobs named " + name + ": " + listed),
              fmt::format("run #{} is recorded with your predictions and stays open: if the job runs, its node records "
                          "the verdict. Find the job with `squeue {}`, cancel it with `scancel {}`",
                          run_id, user_name, user_name));
}

// Submits the prepared job and records its id. A refused submission finishes the run as
// not run (the predictions stay) and is thrown.
std::string submit_job(const Workspace& workspace, const SlurmJobRecord& job, const std::string& name,
                       SlurmObserver& observer) {
  try {
    const std::string id = sbatch_submit(job.script, current_folder());
    Journal journal(workspace.journal_path());
    record_slurm_job_id(journal, job.run_id, id);
    return id;
  } catch (const SbatchUnclear& e) {
    return recover_job(workspace, job.run_id, name, e, observer);
  } catch (const Error& e) {
    Journal journal(workspace.journal_path());
    forget_slurm_submission(journal, job.run_id);
    RunFacts facts;
    facts.not_started = e.what();
    journal.end_run(job.run_id, facts, -1);
    throw;
  }
}

nlohmann::json slurm_json(const SlurmJobRecord& job, const SlurmJobStatus& status) {
  return {{"job_id", job.job_id}, {"state", status.state},      {"exit_code", status.exit_code},
          {"node", job.node},     {"gpu", job.gpu},             {"cluster", job.cluster},
          {"partition", job.partition}, {"gres", job.gres},     {"time", job.time_limit},
          {"account", job.account}, {"script", job.script}};
}

// The login node's end: the verdict decided from the job's end and what the node
// recorded (grade/decide.hpp), settled in the journal when Slurm's state decided.
SlurmRunEnd finish(const RunContext& ctx, const SlurmJobStatus& status, SlurmFacts facts, RunReport report) {
  record_slurm_end(ctx.journal, report.run_id, status.state, status.exit_code);
  SlurmRunEnd out;
  out.job = slurm_job_of(ctx.journal, report.run_id).value_or(SlurmJobRecord{});
  out.status = status;
  out.dir = slurm_run_dir(ctx.workspace, report.run_id);
  const std::optional<std::string> node_report = read_file_text(out.dir / "report.json");
  nlohmann::json j = node_report ? nlohmann::json::parse(*node_report, nullptr, false) : report_json(report);
  if (j.is_discarded()) j = report_json(report);
  const RunEnd end = run_end_of(ctx.journal, report.run_id).value_or(RunEnd{});
  facts.recorded = end.verdict;
  facts.node_report = node_report.has_value();
  facts.recorded_reason = node_report ? j.value("reason", end.detail) : end.detail;
  facts.recorded_next_step = node_report ? j.value("next_step", std::string()) : std::string();
  RunFacts run;
  run.lab_id = report.lab.id;
  run.slurm = facts;
  const Decision d = decide(run);
  if (d.from_slurm) settle_slurm_verdict(ctx.journal, report.run_id, d.verdict, d.reason);
  report.grade.verdict = d.verdict;
  report.grade.verdict_reason = d.reason;
  report.next_step = d.next_step;
  report.ran = j.contains("process") && j["process"].value("ran", false);
  j["verdict"] = to_string(report.grade.verdict);
  j["reason"] = report.grade.verdict_reason;
  j["next_step"] = report.next_step;
  j["slurm"] = slurm_json(out.job, status);
  if (d.from_slurm) report.ran = false;  // (after the JSON) the node's report has the figures; only the verdict here
  out.from_slurm = d.from_slurm;
  out.node_report = node_report.has_value();
  out.report = std::move(report);
  out.json = std::move(j);
  return out;
}

}  // namespace

namespace {

// The settings of the run's job, once the request is known to be one a local run takes.
SlurmSettings checked_settings(const Catalog& catalog, const Workspace& workspace, const Style& style,
                               const RunRequest& req, const SlurmFlags& flags) {
  const LabRef ref = parse_lab_ref_or_throw(req.lab);
  const bool cuda = ref.name.empty() || catalog.find_lab(ref).language == LabLanguage::cuda;
  const SlurmSettings s = resolve_slurm_settings(workspace, flags, cuda);
  current_folder();  // before anything is recorded
  check_request(catalog, workspace, req, style);
  return s;
}

}  // namespace

std::string slurm_dry_run_script(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                 const RunRequest& req, const SlurmFlags& flags) {
  const SlurmSettings s = checked_settings(catalog, workspace, style, req, flags);
  const LabSpec& lab = catalog.find_lab(parse_lab_ref_or_throw(req.lab));
  const fs::path dir = slurm_run_dir(workspace, 0).parent_path() / "run-RUN_ID";
  return render_batch_script(batch_script(catalog, workspace, req, lab, s, dir, "RUN_ID"));
}

SlurmRunEnd submit_slurm_run(const Catalog& catalog, const Workspace& workspace, const Style& style, RunRequest req,
                              const SlurmRunOptions& o, SlurmObserver& observer) {
  const SlurmSettings s = checked_settings(catalog, workspace, style, req, o.flags);
  const LabSpec& lab = catalog.find_lab(parse_lab_ref_or_throw(req.lab));
  if (!slurm_tools_on_path()) {
    throw UsageError("--slurm needs Slurm's sbatch, squeue and scancel, and they are not on PATH",
                     "run it on the cluster's login node, or see the batch script with --slurm-dry-run");
  }
  workspace.ensure();
  // The script's paths are checked (a line break is refused) before the run is opened.
  render_batch_script(batch_script(catalog, workspace, req, lab, s, slurm_run_dir(workspace, 0), "0"));
  RunReport report;
  SlurmJobRecord job;
  {  // The journal is closed before sbatch runs: the job may start at once and write it.
    Journal journal(workspace.journal_path());
    const RunContext ctx{catalog, workspace, journal, style};
    req.stop_after_predict = true;
    req.builds_elsewhere = true;
    report = run_lab(ctx, req);  // the run is opened and the predictions recorded
    req.seed = report.seed;
    job = prepare_job(ctx, req, report, s);
  }
  job.job_id = submit_job(workspace, job, job_name(report.lab, std::to_string(report.run_id)), observer);
  const fs::path dir = slurm_run_dir(workspace, report.run_id);
  observer.submitted(job.job_id, report.run_id, s);
  FollowOptions follow{job.job_id, dir / "job.out", dir / "report.json", s.poll_s, !o.json, !o.json && interactive_terminal()};
  FollowResult followed = follow_slurm_job(follow, style);
  if (followed.interrupt_signal != 0) {
    observer.cancelling(job.job_id);
    followed.status = cancel_slurm_job(follow, kCancelWait_s, style);
  }
  Journal journal(workspace.journal_path());
  const RunContext ctx{catalog, workspace, journal, style};
  SlurmFacts facts = slurm_facts(job.job_id, followed.status, std::nullopt, s.time, dir / "job.out");
  facts.cancelled_here = followed.interrupt_signal != 0;
  return finish(ctx, followed.status, facts, std::move(report));
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
  } catch (const Error& e) {
    // The login node ended the run meanwhile (the journal refused this node's result, and
    // the message, in job.out, says so); else, e.g. no nvcc on the node: recorded, so the
    // login node can say why.
    if (const auto end = run_end_of(ctx.journal, id); end && end->verdict) throw;
    RunFacts facts;
    facts.lab_id = req.lab;
    facts.not_started = e.hint().empty() ? e.what() : std::string(e.what()) + "; " + e.hint();
    ctx.journal.end_run(id, facts, -1);
    throw;
  }
  if (!node.gpu.empty()) report.device = node.gpu + " on " + node.node;
  const nlohmann::json j = run_report_json(report);
  write_file_text(slurm_run_dir(ctx.workspace, id) / "report.json", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  return report;
}

}  // namespace workbook
