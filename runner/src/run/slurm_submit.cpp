// The login node's and the compute node's parts of a lab's Slurm run (see slurm_submit.hpp).
#include "run/slurm_submit.hpp"

#include <fmt/format.h>

#include "run/report_json.hpp"
#include "run/slurm_journal.hpp"
#include "slurm/slurm_node.hpp"
#include "slurm/slurm_outcome.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

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

// What a lab's run records at each step of its job's life (slurm/slurm_job.hpp).
class LabJobOwner : public SlurmJobOwner {
 public:
  LabJobOwner(const Workspace& workspace, SlurmJobRecord job) : workspace_(workspace), job_(std::move(job)) {}
  // The slurm_jobs row without an id, so that a job that starts at once finds it.
  void submitting() override {
    Journal journal(workspace_.journal_path());
    record_slurm_submission(journal, job_);
  }
  void job_id_known(const std::string& id) override {
    Journal journal(workspace_.journal_path());
    record_slurm_job_id(journal, job_.run_id, id);
  }
  void not_submitted(const std::string& why) override {
    Journal journal(workspace_.journal_path());
    forget_slurm_submission(journal, job_.run_id);
    RunFacts facts;
    facts.not_started = why;
    journal.end_run(job_.run_id, facts, -1);
  }
  void interrupted_submitting(const std::string& why) override {
    Journal journal(workspace_.journal_path());
    if (const auto end = run_end_of(journal, job_.run_id); end && !end->verdict) {
      RunFacts facts;
      facts.interrupted = why;
      journal.end_run(job_.run_id, facts, -1);
    }
  }

 private:
  const Workspace& workspace_;
  SlurmJobRecord job_;
};

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

// The lab and the job's settings, once the request is known to be one a local run takes
// (the lab, -p, --predict, --variant, --file, --gpu, --arch, ...: refused with the same
// messages, before anything is recorded or submitted).
std::pair<LabSpec, SlurmSettings> checked(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                          RunRequest req, const SlurmFlags& flags) {
  Journal scratch(":memory:");  // the device's references do not matter to the check
  req.builds_elsewhere = true;
  const RunReport prepared = prepare_run({catalog, workspace, scratch, style}, req);
  SlurmSettings s = resolve_slurm_settings(workspace, flags, prepared.lab.language == LabLanguage::cuda);
  current_folder();
  return {prepared.lab, std::move(s)};
}

}  // namespace

fs::path slurm_run_dir(const Workspace& workspace, long long run_id) {
  return slurm_job_dir(workspace, fmt::format("run-{}", run_id));
}

std::vector<std::string> compute_node_command(const fs::path& binary, const fs::path& content, const fs::path& workspace,
                                              const RunRequest& req, const std::string& run_id) {
  std::vector<std::string> argv = {binary.string(), "--content", content.string(), "--workspace", workspace.string(),
                                   "run", req.lab};
  switch (req.variant) {
    case LabVariant::solution: argv.push_back("--solution"); break;
    case LabVariant::file: argv.insert(argv.end(), {"--file", fs::absolute(req.file).lexically_normal().string()}); break;
    case LabVariant::variant: argv.insert(argv.end(), {"--variant", req.variant_id}); break;
    case LabVariant::starter: break;
  }
  for (const auto& p : req.params) argv.insert(argv.end(), {"-p", p});
  if (req.quick) argv.push_back("--quick");
  if (req.timeout_s) argv.insert(argv.end(), {"--timeout", fmt::format("{:g}", *req.timeout_s)});
  if (req.arch) argv.insert(argv.end(), {"--arch", *req.arch});
  if (req.gpu) argv.insert(argv.end(), {"--gpu", *req.gpu});
  if (req.seed) argv.insert(argv.end(), {"--seed", std::to_string(*req.seed)});
  // The profiler runs on the node, where the tool is looked for (profile/profile_run.hpp).
  const std::string& opt = req.profile.option;
  switch (req.profile.tool) {
    case ProfileTool::none: break;
    case ProfileTool::trace: argv.push_back("--trace"); break;
    case ProfileTool::ncu: argv.push_back(opt.empty() ? "--ncu" : "--ncu=" + opt); break;
    case ProfileTool::sanitize: argv.push_back(opt.empty() ? "--sanitize" : "--sanitize=" + opt); break;
  }
  argv.insert(argv.end(), {"--slurm-continue", run_id});
  return argv;
}

std::string slurm_dry_run_script(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                 const RunRequest& req, const SlurmFlags& flags) {
  const auto [lab, s] = checked(catalog, workspace, style, req, flags);
  return render_batch_script(batch_script(catalog, workspace, req, lab, s, slurm_job_dir(workspace, "run-RUN_ID"), "RUN_ID"));
}

SlurmRunEnd submit_slurm_run(const Catalog& catalog, const Workspace& workspace, const Style& style, RunRequest req,
                              const SlurmRunOptions& o, SlurmObserver& observer) {
  const auto [lab, s] = checked(catalog, workspace, style, req, o.flags);
  require_slurm_tools();
  workspace.ensure();
  check_batch_script(batch_script(catalog, workspace, req, lab, s, slurm_run_dir(workspace, 0), "0"));
  RunReport report;
  {  // The journal is closed before sbatch runs: the job may start at once and write it.
    Journal journal(workspace.journal_path());
    req.stop_after_predict = true;
    req.builds_elsewhere = true;
    report = run_lab({catalog, workspace, journal, style}, req);  // the run is opened and the predictions recorded
    req.seed = report.seed;
  }
  const std::string id = std::to_string(report.run_id);
  SlurmJob job;
  job.dir = slurm_run_dir(workspace, report.run_id);
  job.script = batch_script(catalog, workspace, req, report.lab, s, job.dir, id);
  job.done_marker = job.dir / "report.json";
  job.run_label = "run #" + id;
  job.echo = !o.json;
  fs::remove(job.done_marker);
  LabJobOwner owner(workspace, {report.run_id, "", s.partition, s.gres, s.time, s.account, (job.dir / "job.sh").string(),
                                "", "", "", "", "", "", ""});
  const SlurmJobEnd end = run_slurm_job(job, owner, observer, style);
  Journal journal(workspace.journal_path());
  SlurmFacts facts = slurm_facts(end.job_id, end.status, std::nullopt, s.time, job.script.output);
  facts.cancelled_here = end.cancelled_here;
  return finish({catalog, workspace, journal, style}, end.status, facts, std::move(report));
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
