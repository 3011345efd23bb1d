// The journal's experiment rows (see experiment_store.hpp).
#include "experiment/experiment_store.hpp"

#include <limits>

#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

namespace workbook {

using sql::Statement;

const char* to_string(RepeatOutcome o) {
  switch (o) {
    case RepeatOutcome::ok: return "ok";
    case RepeatOutcome::failed: return "failed";
    case RepeatOutcome::crashed: return "crashed";
    case RepeatOutcome::timeout: return "timeout";
    case RepeatOutcome::interrupted: return "interrupted";
    case RepeatOutcome::no_metrics: return "no_metrics";
    case RepeatOutcome::not_started: return "not_started";
  }
  return "?";
}

RepeatOutcome repeat_outcome_named(const std::string& name) {
  for (RepeatOutcome o : {RepeatOutcome::ok, RepeatOutcome::failed, RepeatOutcome::crashed, RepeatOutcome::timeout,
                          RepeatOutcome::interrupted, RepeatOutcome::no_metrics, RepeatOutcome::not_started})
    if (name == to_string(o)) return o;
  return RepeatOutcome::failed;
}

long long begin_experiment_run(Journal& journal, const Experiment& e, bool traced) {
  sqlite3* db = journal.store_connection();
  Statement(db, "INSERT INTO experiment_runs(experiment, file_text, started_at, traced) VALUES(?,?,?,?)")
      .bind(e.name).bind(e.text).bind(utc_now()).bind(traced).run();
  Statement id(db, "SELECT last_insert_rowid()");
  id.next();
  return id.integer(0);
}

void record_experiment_prediction(Journal& journal, long long run_id, const std::string& experiment,
                                  const RecordedPrediction& p, bool after_measurement) {
  Statement(journal.store_connection(),
            "INSERT INTO experiment_predictions(experiment_run_id, experiment, prediction, answer, number, "
            "after_measurement, recorded_at, entered) VALUES(?,?,?,?,?,?,?,?)")
      .bind(run_id).bind(experiment).bind(p.id).bind(valid_utf8(p.text)).bind(p.number).bind(after_measurement)
      .bind(utc_now()).bind(p.entered.empty() ? std::optional<std::string>() : valid_utf8(p.entered)).run();
}

void record_experiment_machine(Journal& journal, long long run_id, const std::string& gpu, const nlohmann::json& machine) {
  Statement(journal.store_connection(), "UPDATE experiment_runs SET gpu=?, machine=? WHERE id=?")
      .bind(gpu).bind(machine.dump()).bind(run_id).run();
}

void record_experiment_slurm_job(Journal& journal, long long run_id, const std::string& job_id) {
  Statement(journal.store_connection(), "UPDATE experiment_runs SET slurm_job=? WHERE id=?").bind(job_id).bind(run_id).run();
}

void record_repeat(Journal& journal, long long run_id, const RepeatResult& r) {
  nlohmann::json readings = nlohmann::json::object();
  for (const auto& [k, v] : r.readings) readings[k] = v;
  Statement(journal.store_connection(),
            "INSERT INTO experiment_results(experiment_run_id, variant, repeat, outcome, exit_code, wall_s, detail, "
            "readings, kernels, recorded_at) VALUES(?,?,?,?,?,?,?,?,?,?)")
      .bind(run_id).bind(r.variant).bind(r.repeat).bind(to_string(r.outcome)).bind(r.exit_code).bind(r.wall_s)
      .bind(r.detail).bind(readings.dump()).bind(r.kernels.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .bind(utc_now()).run();
}

const char* to_string(ExperimentStatus s) {
  switch (s) {
    case ExperimentStatus::done: return "done";
    case ExperimentStatus::no_metrics: return "no_metrics";
    case ExperimentStatus::failed: return "failed";
    case ExperimentStatus::interrupted: return "interrupted";
    case ExperimentStatus::not_run: return "not_run";
  }
  return "failed";
}

std::optional<ExperimentStatus> experiment_status_named(const std::string& name) {
  for (ExperimentStatus s : {ExperimentStatus::done, ExperimentStatus::no_metrics, ExperimentStatus::failed,
                             ExperimentStatus::interrupted, ExperimentStatus::not_run})
    if (name == to_string(s)) return s;
  return std::nullopt;
}

void finish_experiment_run(Journal& journal, long long run_id, ExperimentStatus status, const std::string& detail) {
  Statement(journal.store_connection(), "UPDATE experiment_runs SET finished_at=?, status=?, detail=? WHERE id=?")
      .bind(utc_now()).bind(std::string(to_string(status))).bind(detail).bind(run_id).run();
}

void record_experiment_explanation(Journal& journal, long long run_id, const std::string& text) {
  Statement(journal.store_connection(),
            "INSERT INTO experiment_explanations(experiment_run_id, text, recorded_at) VALUES(?,?,?)")
      .bind(run_id).bind(printable_text(text)).bind(utc_now()).run();
}

namespace {

constexpr const char* kRunColumns =
    "SELECT id, experiment, file_text, started_at, COALESCE(finished_at,''), COALESCE(status,''), COALESCE(detail,''), "
    "gpu, slurm_job, traced, machine FROM experiment_runs";

ExperimentRunRow run_row(const Statement& s) {
  ExperimentRunRow r;
  r.id = s.integer(0);
  r.experiment = s.text(1);
  r.file_text = s.text(2);
  r.started_at = s.text(3);
  r.finished_at = s.text(4);
  r.status = s.text(5);
  r.detail = s.text(6);
  r.gpu = s.text(7);
  r.slurm_job = s.text(8);
  r.traced = s.integer(9) != 0;
  r.machine = nlohmann::json::parse(s.text(10), nullptr, false);
  if (!r.machine.is_object()) r.machine = nlohmann::json::object();
  return r;
}

constexpr const char* kPredictionColumns =
    "SELECT p.prediction, p.answer, p.number, p.after_measurement, p.recorded_at, p.experiment_run_id, "
    "COALESCE(p.entered, '') FROM experiment_predictions p ";

std::vector<LabPrediction> prediction_rows(Statement& p) {
  std::vector<LabPrediction> out;
  while (p.next()) {
    std::optional<double> number;
    if (!p.null(2)) number = p.real(2);
    LabPrediction row;
    row.answer = {p.text(0), p.learner_text(1), number, p.learner_text(6)};
    row.after_measurement = p.integer(3) != 0;
    row.recorded_at = p.text(4);
    row.run_id = p.integer(5);
    out.push_back(std::move(row));
  }
  return out;
}

// The scored prediction of each id of `experiment` (the first this journal received),
// where it was given with run `up_to` or an earlier one.
std::vector<LabPrediction> scored_rows(sqlite3* db, const std::string& experiment, long long up_to) {
  Statement s(db, (std::string(kPredictionColumns) +
                   "WHERE p.experiment = ?1 AND p.experiment_run_id <= ?2 AND p.id = (SELECT MIN(q.id) FROM "
                   "experiment_predictions q WHERE q.experiment = p.experiment AND q.prediction = p.prediction) "
                   "ORDER BY p.id")
                      .c_str());
  s.bind(experiment).bind(up_to);
  return prediction_rows(s);
}

void load_children(sqlite3* db, ExperimentRunRow& r) {
  Statement p(db, (std::string(kPredictionColumns) + "WHERE p.experiment_run_id=? ORDER BY p.id").c_str());
  p.bind(r.id);
  r.predictions = prediction_rows(p);
  r.scored = scored_rows(db, r.experiment, r.id);
  Statement q(db, "SELECT variant, repeat, outcome, exit_code, wall_s, detail, readings, kernels FROM experiment_results "
                  "WHERE experiment_run_id=? ORDER BY id");
  q.bind(r.id);
  while (q.next()) {
    RepeatResult x;
    x.variant = q.text(0);
    x.repeat = static_cast<int>(q.integer(1));
    x.outcome = repeat_outcome_named(q.text(2));
    if (!q.null(3)) x.exit_code = static_cast<int>(q.integer(3));
    x.wall_s = q.null(4) ? 0 : q.real(4);
    x.detail = q.text(5);
    const nlohmann::json readings = nlohmann::json::parse(q.text(6), nullptr, false);
    if (readings.is_object())
      for (const auto& [k, v] : readings.items())
        if (v.is_array())
          for (const auto& n : v)
            if (n.is_number()) x.readings[k].push_back(n.get<double>());
    x.kernels = nlohmann::json::parse(q.text(7), nullptr, false);
    if (!x.kernels.is_array()) x.kernels = nlohmann::json::array();
    r.results.push_back(std::move(x));
  }
  Statement e(db, "SELECT text, recorded_at FROM experiment_explanations WHERE experiment_run_id=? ORDER BY id");
  e.bind(r.id);
  // An older journal, or an import, may hold any bytes: shown printable.
  while (e.next()) r.explanations.push_back({printable_text(e.text(0)), e.text(1)});
}

}  // namespace

std::vector<ExperimentRunRow> experiment_runs(Journal& journal, const std::string& name, int limit) {
  const std::string query = std::string(kRunColumns) + (name.empty() ? "" : " WHERE experiment=?") +
                            " ORDER BY started_at DESC, id DESC LIMIT ?";
  Statement s(journal.store_connection(), query.c_str());
  if (!name.empty()) s.bind(name);
  s.bind(limit);
  std::vector<ExperimentRunRow> out;
  while (s.next()) out.push_back(run_row(s));
  return out;
}

std::optional<ExperimentRunRow> load_experiment_run(Journal& journal, long long id) {
  Statement s(journal.store_connection(), (std::string(kRunColumns) + " WHERE id=?").c_str());
  s.bind(id);
  if (!s.next()) return std::nullopt;
  ExperimentRunRow r = run_row(s);
  load_children(journal.store_connection(), r);
  return r;
}

std::optional<ExperimentRunRow> latest_experiment_run(Journal& journal, const std::string& name) {
  std::optional<long long> any;
  for (const auto& r : experiment_runs(journal, name, 1000)) {
    if (experiment_status_named(r.status) == ExperimentStatus::done) return load_experiment_run(journal, r.id);
    Statement c(journal.store_connection(), "SELECT 1 FROM experiment_results WHERE experiment_run_id=? LIMIT 1");
    c.bind(r.id);
    if (!any && c.next()) any = r.id;
  }
  if (any) return load_experiment_run(journal, *any);
  return std::nullopt;
}

bool experiment_measured(Journal& journal, const std::string& name) {
  Statement s(journal.store_connection(),
              "SELECT 1 FROM experiment_results x JOIN experiment_runs r ON r.id = x.experiment_run_id "
              "WHERE r.experiment=? AND x.outcome='ok' LIMIT 1");
  s.bind(name);
  return s.next();
}

std::vector<LabPrediction> scored_experiment_predictions(Journal& journal, const std::string& name) {
  return scored_rows(journal.store_connection(), name, std::numeric_limits<long long>::max());
}

std::vector<ExperimentRunRow> explained_experiment_runs(Journal& journal, const std::string& name, long long except) {
  Statement s(journal.store_connection(),
              "SELECT DISTINCT r.id FROM experiment_runs r JOIN experiment_explanations x ON x.experiment_run_id = r.id "
              "WHERE r.experiment = ? AND r.id <> ? ORDER BY r.id");
  s.bind(name).bind(except);
  std::vector<ExperimentRunRow> out;
  while (s.next()) {
    if (auto row = load_experiment_run(journal, s.integer(0))) out.push_back(std::move(*row));
  }
  return out;
}

}  // namespace workbook
