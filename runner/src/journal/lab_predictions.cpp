// A lab's predictions (see lab_predictions.hpp).
#include "journal/lab_predictions.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

std::vector<LabPrediction> first_predictions(Journal& journal, const std::string& lab) {
  sql::Statement s(journal.store_connection(),
                   (std::string("SELECT p.prediction, p.answer, p.number, p.run_id, p.uid, p.recorded_at, "
                                "p.after_measurement, COALESCE(p.entered, '') FROM predictions p WHERE p.lab = ?1 "
                                "AND p.id = ") + kScoredPredictionId + " ORDER BY p.id")
                       .c_str());
  s.bind(lab);
  std::vector<LabPrediction> out;
  while (s.next()) {
    out.push_back({{s.text(0), s.text(1), s.real_or_null(2), s.text(7)}, s.integer(3), s.text(4), s.text(5),
                   s.integer(6) != 0});
  }
  return out;
}

bool measurement_seen(Journal& journal, const std::string& lab) {
  sql::Statement s(journal.store_connection(),
                   "SELECT 1 FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.lab = ? AND m.value IS NOT NULL LIMIT 1");
  s.bind(lab);
  return s.next();
}

}  // namespace workbook
