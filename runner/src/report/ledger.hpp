// The calibration ledger: for every lab, the FIRST prediction of each id (the scored one,
// made before any measurement) against the measurement of the first run that graded it,
// per module and per kind (time, bandwidth, speed-up, choice), oldest first. A numeric
// prediction is kept as log2(predicted / measured); its optimism is that log turned so
// that "promised better than measured" is positive (a shorter time, more bandwidth, a
// larger speed-up). A prediction is badly missed when |log2(predicted / measured)| > 1:
// off by more than 2x either way (learn/nudges.hpp then brings the module's reviews due
// sooner). `workbook history --ledger` prints it, `progress` says one line of it, and
// the report draws its trend (ledger_chart).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "plot/chart.hpp"

namespace workbook {

enum class LedgerKind { time, bandwidth, speedup, choice, other };
const char* to_string(LedgerKind kind);  // "time", "bandwidth", "speed-up", "choice", "other"

// The kind of a prediction, by its kind and unit: a time unit, GB/s, x; choices and yes/no.
LedgerKind ledger_kind(const PredictionSpec& p);

inline constexpr double kBadlyMissedLog2 = 1.0;  // |log2(predicted / measured)| above it: off by more than 2x

struct LedgerEntry {
  std::string lab, prediction, recorded_at;
  int module = 0;
  LedgerKind kind = LedgerKind::other;
  long long run_id = 0;                 // the run that graded it
  std::optional<double> predicted, measured;
  std::optional<double> log2_ratio;     // numbers: log2(predicted / measured)
  std::optional<bool> correct;          // choices and yes/no
  bool badly_missed() const;
  double optimism() const;              // numbers: + promised better than measured; 0 for other kinds
};

struct LedgerRow {
  int module = 0;  // 0: every module
  LedgerKind kind = LedgerKind::other;
  int n = 0;
  double mean_log2 = 0;       // numbers: the mean of log2(predicted / measured)
  double mean_optimism = 0;   // numbers
  int correct = 0;            // choices
  int badly_missed = 0;
};

struct Ledger {
  std::vector<LedgerEntry> entries;  // oldest first
  std::vector<LedgerRow> rows;       // per module and kind, then every module per kind
};

// Pure: the rows of the entries (oldest first).
Ledger build_ledger(std::vector<LedgerEntry> entries);

// The module number of the project's experiments' entries: their rows read "project".
inline constexpr int kLedgerProject = -1;

// The ledger of the journal; labs the content no longer has are left out. `module`
// non-zero: only that module's. `experiments`: the experiments' first predictions
// (experiment/experiment_topics.hpp, experiment_ledger_entries), kept when `module` is 0.
Ledger gather_ledger(Journal& journal, const Catalog& catalog, int module = 0, std::vector<LedgerEntry> experiments = {});

// Pure: one line for `progress` about the kind with the most predictions among the last
// `last` labs' numeric first predictions ("your speed-up predictions run 1.8x optimistic
// over the last 10 labs"); "" when there are none.
std::string ledger_summary(const Ledger& ledger, int last = 10);

// A row's cells, as the terminal's table and the report's show them: module ("all",
// "project" for the experiments, "module14"), kind, n, typical p/m, optimism, right, off by
// more than 2x ("-" where one does not apply).
std::vector<std::string> ledger_row_cells(const LedgerRow& r);

// Pure: log2(predicted / measured) against the prediction's place in time, one series a
// kind, with the on-target line at 0 and the badly-missed lines at +1 and -1.
plot::Chart ledger_chart(const Ledger& ledger);

// What the ledger's words mean, printed under its rows.
inline constexpr const char* kLedgerLegend =
    "kind: what was predicted (time, bandwidth, speed-up, choice; other: any other unit). typical p/m: the typical "
    "predicted / measured (1.00x on target). optimism: the mean log2(p/m), turned so that + means you promised better "
    "than was measured (a shorter time, more bandwidth, a larger speed-up): +1.00 is 2x too hopeful. right: choices "
    "right of those made. >2x off: numbers off by more than 2x either way (their module's reviews come due sooner). "
    "log2 +0.00 in a row below: on target; +1 or -1: 2x high or low.";

// The rows, the legend, the summary ("In short: ...") and the entries as text (`history
// --ledger`), wrapped to `width` (0: not wrapped), and as JSON.
std::string ledger_text(const Ledger& ledger, std::size_t width = 0);
nlohmann::json ledger_json(const Ledger& ledger);

}  // namespace workbook
