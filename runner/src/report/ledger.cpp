// The calibration ledger (see ledger.hpp).
#include "report/ledger.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "content/lab_id.hpp"
#include "journal/journal_queries.hpp"
#include "ui/table.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/json_or_null.hpp"
#include "util/text.hpp"

namespace workbook {

namespace {

constexpr LedgerKind kKinds[] = {LedgerKind::time, LedgerKind::bandwidth, LedgerKind::speedup, LedgerKind::choice,
                                 LedgerKind::other};

// The manifest's prediction `id` of `lab`, or nullptr. Only the modules the journal's
// predictions name are read (the catalog keeps each): reading all 24 manifests for the
// ledger's line cost progress and next about 450 ms where the outline cache answers `list` in 20.
const PredictionSpec* find_prediction(const Catalog& catalog, const std::string& lab, const std::string& id) {
  const LabSpec* spec = catalog.lab_or_null(lab);
  if (!spec) return nullptr;
  for (const auto& p : spec->predictions) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

LedgerRow row_of(int module, LedgerKind kind, const std::vector<const LedgerEntry*>& entries) {
  LedgerRow r{module, kind};
  for (const auto* e : entries) {
    ++r.n;
    if (e->log2_ratio) {
      r.mean_log2 += *e->log2_ratio;
      r.mean_optimism += e->optimism();
    }
    if (e->correct && *e->correct) ++r.correct;
    if (e->badly_missed()) ++r.badly_missed;
  }
  if (r.n > 0) {
    r.mean_log2 /= r.n;
    r.mean_optimism /= r.n;
  }
  return r;
}

std::string module_name(int module) {
  return module == 0 ? "all" : module == kLedgerProject ? "project" : module_id(module);
}

}  // namespace

const char* to_string(LedgerKind kind) {
  switch (kind) {
    case LedgerKind::time: return "time";
    case LedgerKind::bandwidth: return "bandwidth";
    case LedgerKind::speedup: return "speed-up";
    case LedgerKind::choice: return "choice";
    case LedgerKind::other: return "other";
  }
  return "?";
}

LedgerKind ledger_kind(const PredictionSpec& p) {
  if (p.kind != PredictionKind::number) return LedgerKind::choice;
  static const std::set<std::string> times = {"ns", "us", "µs", "ms", "s"};
  if (times.count(p.unit)) return LedgerKind::time;
  if (p.unit == "GB/s" || p.unit == "TB/s") return LedgerKind::bandwidth;
  if (p.unit == "x") return LedgerKind::speedup;
  return LedgerKind::other;
}

bool LedgerEntry::badly_missed() const { return log2_ratio && std::fabs(*log2_ratio) > kBadlyMissedLog2; }

double LedgerEntry::optimism() const {
  if (!log2_ratio) return 0;
  if (kind == LedgerKind::time) return -*log2_ratio;
  if (kind == LedgerKind::bandwidth || kind == LedgerKind::speedup) return *log2_ratio;
  return 0;
}

Ledger build_ledger(std::vector<LedgerEntry> entries) {
  Ledger l;
  std::stable_sort(entries.begin(), entries.end(),
                   [](const LedgerEntry& a, const LedgerEntry& b) { return a.recorded_at < b.recorded_at; });
  l.entries = std::move(entries);
  std::map<int, std::map<LedgerKind, std::vector<const LedgerEntry*>>> by;
  for (const auto& e : l.entries) {
    by[e.module][e.kind].push_back(&e);
    by[0][e.kind].push_back(&e);
  }
  for (const auto& [module, kinds] : by) {
    if (module == 0) continue;
    for (LedgerKind k : kKinds) {
      if (auto it = kinds.find(k); it != kinds.end()) l.rows.push_back(row_of(module, k, it->second));
    }
  }
  for (LedgerKind k : kKinds) {
    if (auto it = by[0].find(k); it != by[0].end()) l.rows.push_back(row_of(0, k, it->second));
  }
  return l;
}

Ledger gather_ledger(Journal& journal, const Catalog& catalog, int module, std::vector<LedgerEntry> experiments) {
  std::vector<LedgerEntry> entries;
  auto base = [&](const std::string& lab, const std::string& id, const std::string& at, long long run) {
    const PredictionSpec* p = find_prediction(catalog, lab, id);
    LedgerEntry e;
    e.lab = lab;
    e.prediction = id;
    e.recorded_at = at;
    e.kind = p ? ledger_kind(*p) : LedgerKind::other;
    e.run_id = run;
    if (auto ref = parse_lab_ref(lab)) e.module = ref->module;
    return std::make_pair(p != nullptr && (module == 0 || e.module == module), e);
  };
  for (const auto& o : prediction_outcomes(journal)) {
    auto [keep, e] = base(o.lab, o.prediction, o.recorded_at, o.run_id);
    if (!keep || o.predicted <= 0 || o.measured <= 0) continue;
    e.predicted = o.predicted;
    e.measured = o.measured;
    e.log2_ratio = std::log2(o.predicted / o.measured);
    entries.push_back(e);
  }
  for (const auto& o : choice_outcomes(journal)) {
    auto [keep, e] = base(o.lab, o.prediction, o.recorded_at, o.run_id);
    if (!keep) continue;
    const PredictionSpec* spec = find_prediction(catalog, o.lab, o.prediction);
    if (spec && spec->kind == PredictionKind::choice && !unclear_choice_note(spec->choices, o.answer, o.entered).empty())
      continue;  // an older row that may not say what was meant: not scored
    e.correct = o.correct;
    entries.push_back(e);
  }
  if (module == 0) entries.insert(entries.end(), experiments.begin(), experiments.end());
  return build_ledger(std::move(entries));
}

std::string ledger_summary(const Ledger& ledger, int last) {
  std::vector<std::string> recent;  // the last `last` labs with a numeric first prediction, newest first
  for (auto it = ledger.entries.rbegin(); it != ledger.entries.rend(); ++it) {
    if (!it->log2_ratio || it->kind == LedgerKind::other) continue;
    if (std::find(recent.begin(), recent.end(), it->lab) == recent.end()) {
      if (static_cast<int>(recent.size()) == last) break;
      recent.push_back(it->lab);
    }
  }
  std::map<LedgerKind, std::vector<const LedgerEntry*>> by;
  for (const auto& e : ledger.entries) {
    if (e.log2_ratio && e.kind != LedgerKind::other && std::find(recent.begin(), recent.end(), e.lab) != recent.end())
      by[e.kind].push_back(&e);
  }
  const LedgerRow* best = nullptr;
  std::vector<LedgerRow> rows;
  for (const auto& [kind, list] : by) rows.push_back(row_of(0, kind, list));
  for (const auto& r : rows) {
    if (!best || r.n > best->n || (r.n == best->n && std::fabs(r.mean_optimism) > std::fabs(best->mean_optimism))) best = &r;
  }
  if (!best) return "";
  const auto experiments = std::count_if(recent.begin(), recent.end(),
                                         [](const std::string& lab) { return lab.rfind("experiment ", 0) == 0; });
  const std::string over = recent.size() == 1 ? (experiments ? "your last experiment" : "your last lab")
                           : experiments == 0 ? fmt::format("the last {} labs", recent.size())
                                              : fmt::format("the last {} labs and experiments", recent.size());
  const double factor = std::exp2(std::fabs(best->mean_optimism));
  if (factor < 1.1) return fmt::format("your {} predictions are on target (within 1.1x) over {}", to_string(best->kind), over);
  return fmt::format("your {} predictions run {:.1f}x {} over {}", to_string(best->kind), factor,
                     best->mean_optimism > 0 ? "optimistic" : "pessimistic", over);
}

plot::Chart ledger_chart(const Ledger& ledger) {
  plot::Chart c;
  c.title = "Calibration ledger: each lab's and experiment's first prediction against its measurement";
  c.x = {"prediction, oldest first", "", 0, true};  // a count of predictions: whole ticks
  c.y = {"log2(predicted / measured)", "", 0};
  std::map<LedgerKind, plot::Series> by;
  int i = 0;
  for (const auto& e : ledger.entries) {
    if (!e.log2_ratio) continue;
    auto& s = by[e.kind];
    s.name = to_string(e.kind);
    s.line = false;
    s.x.push_back(++i);
    s.y.push_back(*e.log2_ratio);
    s.labels.push_back(e.lab.substr(e.lab.find('/') + 1));
  }
  for (auto& [kind, s] : by) c.series.push_back(std::move(s));
  if (i > 0) {
    const std::initializer_list<std::pair<const char*, double>> lines = {{"on target", 0.0}, {"2x high", 1.0}, {"2x low", -1.0}};
    for (const auto& [name, y] : lines) {
      plot::Series s;
      s.name = name;
      s.x = {1, static_cast<double>(std::max(i, 2))};
      s.y = {y, y};
      s.markers = false;
      c.series.push_back(std::move(s));
    }
  }
  return c;
}

std::vector<std::string> ledger_row_cells(const LedgerRow& r) {
  const bool numbers = r.kind != LedgerKind::choice;
  return {module_name(r.module), to_string(r.kind), std::to_string(r.n), numbers ? fmt::format("{:.2f}x", std::exp2(r.mean_log2)) : "-",
          numbers && r.kind != LedgerKind::other ? fmt::format("{:+.2f}", r.mean_optimism) : "-",
          numbers ? "-" : fmt::format("{}/{}", r.correct, r.n), numbers ? std::to_string(r.badly_missed) : "-"};
}

std::string ledger_text(const Ledger& l, std::size_t width) {
  std::string out = wrap_text("Calibration ledger (each lab's and experiment's first prediction against its measurement)", width) + "\n";
  if (l.entries.empty()) return out + "  No first prediction has been graded yet.\n";
  Table rows{{{"module"}, {"kind"}, {"n", true}, {"typical p/m", true}, {"optimism", true}, {"right", true},
              {">2x off", true}}, {}, "  ", true};
  for (const auto& r : l.rows) rows.rows.push_back(ledger_row_cells(r));
  out += render_table(rows, width, Style(false));
  out += wrap_text(kLedgerLegend, width, "  ", "  ") + "\n";
  if (const std::string s = ledger_summary(l); !s.empty()) out += wrap_text("In short: " + s + ".", width, "  ", "    ") + "\n";
  out += "  Over time (oldest first):\n";
  Table entries{{{"date"}, {"lab"}, {"prediction"}, {"kind"}, {"result", false, true}}, {}, "    ", false};
  for (const auto& e : l.entries) {
    const std::string what = e.log2_ratio ? fmt::format("predicted {}, measured {}: log2 {:+.2f}{}", format_number(*e.predicted),
                                                        format_number(*e.measured), *e.log2_ratio,
                                                        e.badly_missed() ? ", badly missed" : "")
                                          : (e.correct && *e.correct ? "right" : "wrong");
    entries.rows.push_back({e.recorded_at.substr(0, 10), e.lab, e.prediction, to_string(e.kind), what});
  }
  return out + render_table(entries, width, Style(false));
}

nlohmann::json ledger_json(const Ledger& l) {
  nlohmann::json rows = nlohmann::json::array(), entries = nlohmann::json::array();
  for (const auto& r : l.rows)
    rows.push_back({{"module", module_name(r.module)}, {"kind", to_string(r.kind)}, {"n", r.n}, {"mean_log2", r.mean_log2},
                    {"mean_optimism", r.mean_optimism}, {"correct", r.correct}, {"badly_missed", r.badly_missed}});
  for (const auto& e : l.entries)
    entries.push_back({{"lab", e.lab}, {"prediction", e.prediction}, {"recorded_at", e.recorded_at},
                       {"module", e.module}, {"kind", to_string(e.kind)}, {"run_id", e.run_id},
                       {"predicted", json_or_null(e.predicted)}, {"measured", json_or_null(e.measured)}, {"log2_ratio", json_or_null(e.log2_ratio)},
                       {"correct", e.correct ? nlohmann::json(*e.correct) : nlohmann::json()},
                       {"badly_missed", e.badly_missed()}});
  return {{"rows", rows}, {"entries", entries}, {"summary", ledger_summary(l)}};
}

}  // namespace workbook
