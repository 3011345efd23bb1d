// Parameter sweeps (see sweep.hpp).
#include "run/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "grade/decide.hpp"
#include "run/params.hpp"
#include "run/predictions.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/seed.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace workbook {

std::string sweep_value_text(double v) { return fmt::format("{:.17g}", v); }

const MetricGrade* find_metric(const RunReport& r, const std::string& name) {
  for (const auto& m : r.grade.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

namespace {

std::string declared_list(const LabSpec& lab) {
  std::string out;
  for (const auto& s : lab.sweeps) out += (out.empty() ? "" : ", ") + s.param;
  return out.empty() ? "none" : out;
}

std::vector<double> parse_values(const std::string& name, const std::string& list) {
  std::vector<double> values;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    std::string why;
    auto v = parse_param_value(item, why);
    if (!v) throw UsageError(fmt::format("--sweep {}: '{}' {}", name, item, why), "parameters are whole numbers: --sweep N=256,512,1024");
    if (std::find(values.begin(), values.end(), *v) != values.end())
      throw UsageError(fmt::format("--sweep {}: {} appears twice", name, item));
    values.push_back(*v);
  }
  if (values.size() < 2) throw UsageError(fmt::format("--sweep {}: give at least two values", name), "e.g. --sweep N=256,512,1024");
  return values;
}

std::optional<double> metric_value(const RunReport& r, const std::string& name) {
  const MetricGrade* m = find_metric(r, name);
  return m ? m->value : std::nullopt;
}

bool stops_sweep(const RunReport& r) {
  const Verdict v = r.grade.verdict;
  return v == Verdict::compile_error || v == Verdict::interrupted || v == Verdict::not_run || !r.built;
}

}  // namespace

void PromptOnlyObserver::ask_predictions(const LabSpec& lab, std::vector<RecordedPrediction>& answers,
                                         const RecordPrediction& record) {
  if (interactive_) ask_missing_predictions(lab, answers, style_, record);
}

SweepPlan plan_sweep(const LabSpec& lab, const std::string& flag, bool quick) {
  SweepPlan plan;
  const auto eq = flag.find('=');
  plan.param = trim(flag.substr(0, eq));
  const auto spec = std::find_if(lab.params.begin(), lab.params.end(), [&](const ParamSpec& p) { return p.name == plan.param; });
  if (spec == lab.params.end()) {
    std::string names;
    for (const auto& p : lab.params) names += (names.empty() ? "" : ", ") + p.name;
    throw UsageError(fmt::format("--sweep {}: {} has no parameter '{}'", flag, lab.id, plan.param),
                     fmt::format("its parameters: {}", names.empty() ? "none" : names));
  }
  const SweepSpec* declared = nullptr;
  for (const auto& s : lab.sweeps) {
    if (s.param == plan.param) declared = &s;
  }
  if (declared) {
    plan.metrics = declared->metrics;
    plan.unit = declared->unit;
  }
  if (eq != std::string::npos) {
    plan.values = parse_values(plan.param, flag.substr(eq + 1));
  } else if (declared) {
    plan.values = declared->values;
  } else {
    throw UsageError(fmt::format("--sweep {}: {} declares no sweep of {}", flag, lab.id, plan.param),
                     fmt::format("give the values: --sweep {}=v1,v2,... (declared sweeps: {})", plan.param, declared_list(lab)));
  }
  if (plan.unit.empty()) plan.unit = "value";
  plan.default_value = quick && spec->quick ? *spec->quick : spec->default_value;
  return plan;
}

std::string sweep_grading_note(const SweepPlan& plan, double value) {
  if (value == plan.default_value) return "";
  return fmt::format("not graded: the ranges are for {}={}", plan.param, sweep_value_text(plan.default_value));
}

const RunReport* explained_point(const SweepResult& r) {
  const RunReport* out = nullptr;
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    if (r.runs[i].run_id == 0) continue;
    if (!out) out = &r.runs[i];
    if (i < r.plan.values.size() && r.plan.values[i] == r.plan.default_value) return &r.runs[i];
  }
  return out;
}

SweepResult run_sweep(const RunContext& ctx, const RunRequest& base, const std::string& flag,
                      const std::function<void(const std::string&)>& progress) {
  SweepResult result;
  const LabRef ref = parse_lab_ref_or_throw(base.lab);
  result.lab = ctx.catalog.find_lab(ref);
  result.plan = plan_sweep(result.lab, flag, base.quick);
  result.seed = base.seed ? *base.seed : new_seed();  // one seed: the values differ, the inputs do not
  resolve_params(result.lab, base.params, base.quick);  // a bad -p fails before any run
  const std::size_t n = result.plan.values.size();
  PromptOnlyObserver observer(ctx.style, base.interactive);
  const RunContext quiet{ctx.catalog, ctx.workspace, ctx.journal, ctx.style, &observer};
  for (std::size_t i = 0; i < n; ++i) {
    RunRequest req = base;
    req.seed = result.seed;
    req.verbose = false;
    req.params.push_back(result.plan.param + "=" + sweep_value_text(result.plan.values[i]));
    req.ranges_not_graded = sweep_grading_note(result.plan, result.plan.values[i]);
    if (i > 0) {  // predictions belong to the sweep's first run only
      req.predict.clear();
      req.no_predict = true;
      req.memcheck = false;  // the memcheck pass runs at the quick size: once is enough
    }
    if (progress) progress(fmt::format("{}/{} {}={}", i + 1, n, result.plan.param, sweep_value_text(result.plan.values[i])));
    result.runs.push_back(run_lab(quiet, req));
    const RunReport& r = result.runs.back();
    if (stops_sweep(r) && i + 1 < n) {
      result.stopped = fmt::format("stopped after {}={}: {}", result.plan.param, sweep_value_text(result.plan.values[i]),
                                   r.grade.verdict_reason.empty() ? to_string(r.grade.verdict) : r.grade.verdict_reason);
      break;
    }
  }
  if (result.plan.metrics.empty()) result.plan.metrics = sweep_metrics(result);
  const plot::Chart chart = sweep_chart(result);
  if (!chart.series.empty() && !result.runs.empty()) {
    result.svg = ctx.workspace.root() / "plots" / ref.module_id() /
                 fmt::format("{}-sweep-{}-runs{}-{}.svg", result.lab.name, result.plan.param, result.runs.front().run_id,
                             result.runs.back().run_id);
    write_file_text(result.svg, plot::render_svg(chart));
  }
  return result;
}

std::vector<std::string> sweep_metrics(const SweepResult& r) {
  if (!r.plan.metrics.empty()) return r.plan.metrics;
  auto everywhere = [&](const std::string& name) {
    return std::all_of(r.runs.begin(), r.runs.end(), [&](const RunReport& x) { return metric_value(x, name).has_value(); });
  };
  if (r.runs.empty()) return {};
  const auto& metrics = r.runs.front().grade.metrics;
  for (const auto& m : metrics) {
    if ((m.unit == "ms" || m.unit == "us" || m.unit == "s") && everywhere(m.name)) return {m.name};
  }
  for (const auto& m : metrics) {
    if (everywhere(m.name)) return {m.name};
  }
  return {};
}

plot::Chart sweep_chart(const SweepResult& r) {
  plot::Chart c;
  c.title = fmt::format("{}: sweep of {}", r.lab.id, r.plan.param);
  c.x = {r.plan.param, r.plan.unit, -1};
  for (const auto& name : sweep_metrics(r)) {
    plot::Series s;
    s.name = name;
    std::string unit;
    for (std::size_t i = 0; i < r.runs.size() && i < r.plan.values.size(); ++i) {
      const MetricGrade* m = find_metric(r.runs[i], name);
      if (!m || !m->value) continue;
      unit = m->unit;
      s.x.push_back(r.plan.values[i]);
      s.y.push_back(*m->value);
      const bool spread = m->stats && m->stats->min && m->stats->max;
      s.lo.push_back(spread ? *m->stats->min : *m->value);
      s.hi.push_back(spread ? *m->stats->max : *m->value);
    }
    if (s.x.empty()) continue;
    if (c.series.empty()) c.y = {name, unit, -1};
    else if (unit != c.y.unit) continue;  // one y axis: metrics of the first one's unit
    c.series.push_back(s);
  }
  if (c.series.size() > 1) c.y.label = "figure";
  if (std::find(r.plan.values.begin(), r.plan.values.end(), r.plan.default_value) != r.plan.values.end()) {
    c.mark_x = r.plan.default_value;
    c.mark_label = fmt::format("graded: {}={}", r.plan.param, sweep_value_text(r.plan.default_value));
  }
  return c;
}

Verdict sweep_verdict(const SweepResult& r) {
  std::vector<Verdict> verdicts;
  for (const auto& run : r.runs) verdicts.push_back(run.grade.verdict);
  return combined_verdict(verdicts);
}

int exit_code_for(const SweepResult& r) { return static_cast<int>(exit_for(sweep_verdict(r))); }

}  // namespace workbook
