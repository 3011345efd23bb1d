// The slurm_jobs table (see slurm_journal.hpp; its schema is in journal/journal.cpp).
#include "run/slurm_journal.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

using Stmt = sql::Statement;

void record_slurm_submission(Journal& journal, const SlurmJobRecord& j) {
  Stmt(journal.store_connection(),
       "INSERT INTO slurm_jobs(run_id, job_id, partition, gres, time_limit, account, script, submitted_at) "
       "VALUES(?,?,?,?,?,?,?,?)")
      .bind(j.run_id).bind(j.job_id).bind(j.partition).bind(j.gres).bind(j.time_limit).bind(j.account)
      .bind(j.script).bind(utc_now()).run();
}

void record_slurm_job_id(Journal& journal, long long run_id, const std::string& job_id) {
  Stmt(journal.store_connection(), "UPDATE slurm_jobs SET job_id=? WHERE run_id=?").bind(job_id).bind(run_id).run();
}

void forget_slurm_submission(Journal& journal, long long run_id) {
  Stmt(journal.store_connection(), "DELETE FROM slurm_jobs WHERE run_id=?").bind(run_id).run();
}

void record_slurm_node(Journal& journal, long long run_id, const std::string& cluster, const std::string& node,
                       const std::string& gpu) {
  sql::Transaction transaction(journal.store_connection());
  Stmt(journal.store_connection(), "UPDATE slurm_jobs SET cluster=?, node=?, gpu=? WHERE run_id=?")
      .bind(cluster).bind(node).bind(gpu).bind(run_id).run();
  Stmt(journal.store_connection(), "UPDATE runs SET device=? WHERE id=?").bind(gpu).bind(run_id).run();
  transaction.commit();
}

void record_run_arch(Journal& journal, long long run_id, const std::string& arch) {
  Stmt(journal.store_connection(), "UPDATE runs SET arch=? WHERE id=?").bind(arch).bind(run_id).run();
}

void record_slurm_end(Journal& journal, long long run_id, const std::string& state, const std::string& exit_code) {
  Stmt(journal.store_connection(), "UPDATE slurm_jobs SET state=?, exit_code=?, finished_at=? WHERE run_id=?")
      .bind(state).bind(exit_code).bind(utc_now()).bind(run_id).run();
}

void settle_slurm_verdict(Journal& journal, long long run_id, Verdict verdict, const std::string& detail) {
  Stmt(journal.store_connection(), "UPDATE runs SET finished_at=?, verdict=?, exit_code=-1, detail=? WHERE id=?")
      .bind(utc_now()).bind(to_string(verdict)).bind(detail).bind(run_id).run();
}

std::optional<SlurmJobRecord> slurm_job_of(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(),
         "SELECT job_id, partition, gres, time_limit, account, script, submitted_at, COALESCE(cluster, ''), "
         "COALESCE(node, ''), COALESCE(gpu, ''), COALESCE(state, ''), COALESCE(exit_code, ''), "
         "COALESCE(finished_at, '') FROM slurm_jobs WHERE run_id=?");
  s.bind(run_id);
  if (!s.next()) return std::nullopt;
  return SlurmJobRecord{run_id,     s.text(0), s.text(1), s.text(2),  s.text(3),  s.text(4),  s.text(5),
                        s.text(6),  s.text(7), s.text(8), s.text(9), s.text(10), s.text(11), s.text(12)};
}

std::optional<RunEnd> run_end_of(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(), "SELECT verdict, COALESCE(detail, '') FROM runs WHERE id=?");
  s.bind(run_id);
  if (!s.next()) return std::nullopt;
  RunEnd end;
  if (!s.null(0)) end.verdict = s.text(0);
  end.detail = s.text(1);
  return end;
}

}  // namespace workbook
