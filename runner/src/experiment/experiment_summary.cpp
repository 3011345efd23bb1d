// Summarising a recorded experiment run (see experiment_summary.hpp).
#include "experiment/experiment_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/expr.hpp"
#include "util/error.hpp"
#include "util/json_or_null.hpp"

namespace workbook {

const VariantSummary* ExperimentSummary::variant(const std::string& name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

std::optional<double> ExperimentSummary::ratio(const std::string& name, const std::string& metric) const {
  const VariantSummary* v = variant(name);
  const VariantSummary* b = variant(experiment.baseline);
  if (!v || !b || !v->figures.count(metric) || !b->figures.count(metric)) return std::nullopt;
  const double base = b->figures.at(metric).median;
  if (base == 0) return std::nullopt;
  return v->figures.at(metric).median / base;
}

namespace {

// The median over repeats at each step index (as far as any repeat reached).
std::vector<double> median_curve(const std::vector<const std::vector<double>*>& runs) {
  std::vector<double> curve;
  for (std::size_t i = 0;; ++i) {
    std::vector<double> at;
    for (const auto* r : runs)
      if (i < r->size()) at.push_back((*r)[i]);
    if (at.empty()) break;
    curve.push_back(spread_of(at)->median);
  }
  return curve;
}

void add_kernels(const RepeatResult& r, VariantSummary& v) {
  if (!v.kernels.empty() || r.kernels.empty()) return;
  for (const auto& k : r.kernels) {
    if (!k.is_object() || !k.contains("name")) continue;
    KernelTime& t = v.kernels[k.value("name", std::string())];
    t.calls += k.value("calls", 0LL);
    t.total_us += k.value("total_us", 0.0);
  }
}

VariantSummary summarize_variant(const Experiment& e, const std::string& name, const std::vector<RepeatResult>& results) {
  VariantSummary v;
  v.name = name;
  std::map<std::string, std::vector<double>> per_repeat;
  std::map<std::string, std::vector<const std::vector<double>*>> curves;
  for (const auto& r : results) {
    if (r.variant != name) continue;
    ++v.repeats;
    add_kernels(r, v);
    if (r.outcome != RepeatOutcome::ok) {
      v.problems.push_back(fmt::format("repeat {}: {}", r.repeat, r.detail.empty() ? to_string(r.outcome) : r.detail));
      continue;
    }
    ++v.repeats_ok;
    for (const auto& m : e.metrics) {
      auto it = r.readings.find(m.name);
      if (it == r.readings.end()) continue;
      if (auto f = run_figure(m, it->second)) per_repeat[m.name].push_back(*f);
      if (m.per == MetricPer::step && !it->second.empty()) curves[m.name].push_back(&it->second);
    }
  }
  for (const auto& [metric, values] : per_repeat) v.figures[metric] = *spread_of(values);
  for (const auto& [metric, runs] : curves) v.curves[metric] = median_curve(runs);
  return v;
}

PredictionView view_prediction(const ExperimentSummary& s, const ExperimentPrediction& p) {
  PredictionView view;
  view.spec = p;
  for (const auto& a : s.run.scored)
    if (a.answer.id == p.spec.id) view.answer = a;
  for (const auto& a : s.run.predictions) {
    if (a.answer.id != p.spec.id) continue;
    if (!view.answer) view.answer = a;  // (a journal whose first row of the id is not readable here)
    else if (a.recorded_at != view.answer->recorded_at || a.run_id != view.answer->run_id) view.later = a;
  }
  if (p.measured.empty()) {
    view.note = "not graded: the file gives it no `measured:`";
    return view;
  }
  Figures vars;
  for (const auto& v : s.variants)
    for (const auto& [metric, spread] : v.figures) vars[v.name + "__" + metric] = spread.median;
  try {
    view.measured = evaluate(measured_expression(p.measured), vars);
  } catch (const Error&) {
    view.note = "not measured: a figure it uses was not read";
    return view;
  }
  if (view.answer && view.answer->answer.number && *view.answer->answer.number > 0 && *view.measured > 0) {
    const double pr = *view.answer->answer.number, m = *view.measured;
    view.factor = std::max(pr / m, m / pr);
    view.band = prediction_band(*view.factor).first;
  }
  return view;
}

nlohmann::json spread_json(const Spread& s) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"samples", s.samples}, {"spread", s.relative()}};
}

nlohmann::json explanations_json(const std::vector<ExperimentExplanationRow>& xs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& x : xs) out.push_back({{"text", x.text}, {"recorded_at", x.recorded_at}});
  return out;
}

}  // namespace

ExperimentSummary summarize_experiment(const ExperimentRunRow& run) {
  ExperimentSummary s;
  s.run = run;
  s.experiment = parse_experiment(run.file_text, run.experiment, "experiments/" + run.experiment + ".yaml (as run #" +
                                                                      std::to_string(run.id) + " kept it)");
  for (const auto& v : s.experiment.variants) s.variants.push_back(summarize_variant(s.experiment, v.name, run.results));
  for (const auto& p : s.experiment.predictions) s.predictions.push_back(view_prediction(s, p));
  return s;
}

nlohmann::json summary_json(const ExperimentSummary& s) {
  nlohmann::json variants = nlohmann::json::array();
  for (const auto& v : s.variants) {
    nlohmann::json figures = nlohmann::json::object();
    for (const auto& [m, spread] : v.figures) {
      figures[m] = spread_json(spread);
      figures[m]["ratio_to_baseline"] = json_or_null(s.ratio(v.name, m));
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& [k, t] : v.kernels) kernels.push_back({{"name", k}, {"calls", t.calls}, {"total_us", t.total_us}});
    variants.push_back({{"name", v.name}, {"repeats", v.repeats}, {"repeats_ok", v.repeats_ok}, {"figures", figures},
                        {"curves", v.curves}, {"kernels", kernels}, {"problems", v.problems}});
  }
  nlohmann::json predictions = nlohmann::json::array();
  for (const auto& p : s.predictions) {
    nlohmann::json j{{"name", p.spec.spec.id}, {"question", p.spec.spec.prompt}, {"unit", p.spec.spec.unit},
                     {"measured", json_or_null(p.measured)}, {"factor", json_or_null(p.factor)}, {"band", p.band}, {"note", p.note}};
    j["answer"] = p.answer ? nlohmann::json(p.answer->answer.text) : nlohmann::json();
    j["answer_run_id"] = p.answer ? nlohmann::json(p.answer->run_id) : nlohmann::json();
    j["answer_recorded_at"] = p.answer ? nlohmann::json(p.answer->recorded_at) : nlohmann::json();
    j["after_measurement"] = p.answer && p.answer->after_measurement;
    j["later_answer"] = p.later ? nlohmann::json(p.later->answer.text) : nlohmann::json();
    predictions.push_back(j);
  }
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : s.experiment.metrics)
    metrics.push_back({{"name", m.name}, {"unit", m.unit}, {"per", to_string(m.per)}, {"summary", to_string(m.summary)}});
  return {{"experiment", s.experiment.name}, {"title", s.experiment.title}, {"run_id", s.run.id},
          {"started_at", s.run.started_at}, {"finished_at", s.run.finished_at}, {"status", s.run.status},
          {"detail", s.run.detail}, {"baseline", s.experiment.baseline}, {"repeats", s.experiment.repeats},
          {"traced", s.run.traced}, {"gpu", s.run.gpu}, {"machine", s.run.machine}, {"slurm_job", s.run.slurm_job},
          {"metrics", metrics}, {"variants", variants}, {"predictions", predictions},
          {"explanations", explanations_json(s.run.explanations)}};
}

}  // namespace workbook
