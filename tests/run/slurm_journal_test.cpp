// A run's verdict is written once (journal/journal.hpp), so that a Slurm job's compute
// node cannot overwrite a run the login node has already ended; the login node's verdict
// from Slurm's state is the one deliberate second write (run/slurm_journal.hpp).
#include <catch2/catch.hpp>

#include "journal/sqlite_statement.hpp"
#include "run/slurm_journal.hpp"
#include "util/error.hpp"

#include "../support/temp_dir.hpp"

using namespace workbook;

namespace {

std::string value(Journal& j, const std::string& sql) {
  sql::Statement s(j.store_connection(), sql.c_str());
  return s.next() ? (s.null(0) ? "NULL" : s.text(0)) : "(no row)";
}

long long open_pass_lab_run(Journal& j) {
  return j.begin_run({"module01/pass_lab", "starter", "/ws/labs/module01/pass_lab.cpp", "{}", 1, "", "sm_75"});
}

}  // namespace

TEST_CASE("journal: a run that has ended is not finished or graded again", "[slurm][journal]") {
  wbtest::TempDir tmp;
  Journal j(tmp.path / "journal.db");
  const long long run = open_pass_lab_run(j);
  j.finish_run(run, Verdict::interrupted, -1, "cancelled on the login node (Slurm job 9, scancel)");
  try {  // what the compute node does when its lab ends after that
    j.finish_run(run, Verdict::pass, 0, "");
    FAIL("an ended run was finished again");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()).find("run #" + std::to_string(run) + " has already ended (interrupted") != std::string::npos);
  }
  Grade g;
  g.checks.push_back({"sum_ok", true, true, true, 0.0, 0.0, "", false});
  CHECK_THROWS_AS(j.record_grade(run, g), Error);
  CHECK(value(j, "SELECT verdict FROM runs WHERE id=" + std::to_string(run)) == "interrupted");
  CHECK(value(j, "SELECT detail FROM runs WHERE id=" + std::to_string(run)).find("login node") != std::string::npos);
  CHECK(value(j, "SELECT COUNT(*) FROM checks WHERE run_id=" + std::to_string(run)) == "0");

  const long long open = open_pass_lab_run(j);  // an open run is graded and finished as before
  j.record_grade(open, g);
  j.finish_run(open, Verdict::pass, 0, "");
  CHECK(value(j, "SELECT verdict FROM runs WHERE id=" + std::to_string(open)) == "pass");
}

TEST_CASE("slurm journal: the row exists before sbatch, its id after, and Slurm's verdict settles the run", "[slurm]") {
  wbtest::TempDir tmp;
  Journal j(tmp.path / "journal.db");
  const long long run = open_pass_lab_run(j);
  record_slurm_submission(j, {run, "", "gpu", "gpu:1", "10", "", "/ws/job.sh", "", "", "", "", "", "", ""});
  REQUIRE(slurm_job_of(j, run));  // what the compute node looks for first
  CHECK(slurm_job_of(j, run)->job_id.empty());
  record_slurm_job_id(j, run, "4242");
  CHECK(slurm_job_of(j, run)->job_id == "4242");

  j.finish_run(run, Verdict::interrupted, -1, "Slurm sent SIGTERM");  // the node's record of a kill
  // The login node records Slurm's end first (run/slurm_submit.cpp's finish); only then may
  // Slurm's verdict replace the node's (journal/schema.cpp: an ended run is otherwise kept).
  CHECK_THROWS(settle_slurm_verdict(j, run, Verdict::timeout, "too early"));
  record_slurm_end(j, run, "TIMEOUT", "0:15");
  settle_slurm_verdict(j, run, Verdict::timeout, "the job reached its --time 10");
  const auto end = run_end_of(j, run);
  REQUIRE(end);
  CHECK(end->verdict == std::optional<std::string>("timeout"));
  CHECK(end->detail == "the job reached its --time 10");

  const long long refused = open_pass_lab_run(j);
  record_slurm_submission(j, {refused, "", "", "", "", "", "/ws/job.sh", "", "", "", "", "", "", ""});
  forget_slurm_submission(j, refused);
  CHECK_FALSE(slurm_job_of(j, refused));
}
