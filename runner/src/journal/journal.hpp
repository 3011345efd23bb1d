// The learner's journal: one SQLite database (WAL) in the workspace. Everything a run
// produces is written as it happens, so a crash, a Ctrl-C or two runs at once lose
// nothing. Predictions are immutable: triggers reject any UPDATE or DELETE of them.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "grade/decide.hpp"
#include "grade/grade.hpp"

struct sqlite3;

namespace workbook {

struct RunRecord {
  std::string lab;       // "module14/tiled_gemm"
  std::string variant;   // what was run: "starter" (the learner's copy), "solution", "file"
                         // (--file PATH) or "variant" (an author's --variant ID); run/lab_run.cpp to_string
  std::string source;    // path of the source that was run
  std::string params;    // JSON object of the parameters
  unsigned long long seed = 0;
  std::string device;    // GPU name, or empty
  std::string arch;
};

// How a command uses the journal: `read` for one that only reads it (progress, next,
// history, journal export), which then still answers in a read-only workspace.
enum class JournalAccess { write, read };

class Journal {
 public:
  // Opens (creating if needed) the database and brings its schema up to date
  // (journal/schema.hpp); throws Error if it cannot, or if a newer workbook wrote it.
  // With JournalAccess::read, a journal the runner may not write (a read-only folder or
  // file) is opened read-only instead, as it is (it must be of this runner's schema).
  explicit Journal(const std::filesystem::path& file, JournalAccess access = JournalAccess::write);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  long long begin_run(const RunRecord& run);
  // `after_measurement`: a figure of this lab had already been measured and shown.
  // Returns the prediction's uid (what a grade of it names, see record_grade).
  std::string record_prediction(long long run_id, const std::string& lab, const RecordedPrediction& p,
                                bool after_measurement = false);
  void record_build(long long run_id, const std::string& key, bool cached, bool ok);
  // `prediction_uids`: prediction id -> the uid of the recorded prediction each grade is
  // of (a lab's first prediction may come from an earlier run); none: this run's own.
  void record_grade(long long run_id, const Grade& grade,
                    const std::map<std::string, std::string>& prediction_uids = {});
  void finish_run(long long run_id, Verdict verdict, int exit_code, const std::string& detail);
  // A run's end, decided and written in one place: decide(facts) (grade/decide.hpp), its
  // verdict and journal detail recorded with `exit_code` (-1: none), the decision returned
  // for the report. Every row of the run is recorded before it: an ended run takes none.
  Decision end_run(long long run_id, const RunFacts& facts, int exit_code);
  // `feedback`: the examiner's points on it (explain/feedback.hpp), one a line; "" when none.
  void record_explanation(long long run_id, const std::string& text, const std::string& feedback = "");

  // The SQLite connection, for the code that keeps its own rows in this journal (the
  // journal area's handins, hint_log, lab_predictions, journal_queries, views, export
  // and import; learn/review_store, device/calibration, profile/gpu_state_store,
  // run/slurm_journal) and for tests that read rows directly. Every table is declared in
  // journal/schema.cpp.
  sqlite3* store_connection() { return db_; }

 private:
  void exec(const char* sql);
  void open_read_only();  // JournalAccess::read in a read-only workspace
  sqlite3* db_ = nullptr;
  std::filesystem::path file_;
};

// Current UTC time as ISO 8601 with milliseconds ("2026-11-29T13:00:00.123Z").
std::string utc_now();

}  // namespace workbook
