// Grading (see grade.hpp).
#include "grade/grade.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace workbook {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::out_of_range: return "out_of_range";
    case Verdict::compile_error: return "compile_error";
    case Verdict::runtime_error: return "runtime_error";
    case Verdict::timeout: return "timeout";
    case Verdict::interrupted: return "interrupted";
    case Verdict::not_run: return "not_run";
  }
  return "?";
}

Exit exit_for(Verdict v) {
  switch (v) {
    case Verdict::pass: return Exit::ok;
    case Verdict::fail: return Exit::check_failed;
    case Verdict::out_of_range: return Exit::out_of_range;
    case Verdict::compile_error: return Exit::compile_error;
    case Verdict::runtime_error:
    case Verdict::timeout: return Exit::runtime_error;
    case Verdict::interrupted: return Exit::interrupted;
    case Verdict::not_run: return Exit::usage;  // a missing prerequisite: the GPU
  }
  return Exit::internal;
}

const char* to_string(RangeBasis b) {
  switch (b) {
    case RangeBasis::model: return "model";
    case RangeBasis::measured: return "measured";
    case RangeBasis::workbook: return "workbook";
  }
  return "?";
}

const char* to_string(RangeStatus s) {
  switch (s) {
    case RangeStatus::in_range: return "in range";
    case RangeStatus::below: return "below range";
    case RangeStatus::above: return "above range";
    case RangeStatus::no_range: return "no range";
    case RangeStatus::unknown: return "range unknown";
    case RangeStatus::missing: return "not reported";
    case RangeStatus::not_graded: return "not graded";
    case RangeStatus::below_warning: return "below range (warning)";
    case RangeStatus::above_warning: return "above range (warning)";
  }
  return "?";
}

Figures expression_scope(const LabSpec& lab, const Figures& device, const Figures& params) {
  Figures scope = device;
  for (const auto& [k, v] : params) scope[k] = v;
  for (const auto& var : lab.vars) scope[var.name] = evaluate(var.expr, scope);
  return scope;
}

std::pair<std::string, int> prediction_band(double factor) {
  if (factor <= 1.25) return {"within 1.25x", 3};
  if (factor <= 2.0) return {"within 2x", 2};
  if (factor <= 4.0) return {"within 4x", 1};
  return {"off by more than 4x", 0};
}

std::pair<std::optional<double>, std::optional<double>> evaluate_range(const ExpectedRange& range,
                                                                       const Figures& scope) {
  if (!range.equals_expr.empty()) {
    double v = evaluate(range.equals_expr, scope);
    return {v - range.tolerance, v + range.tolerance};
  }
  std::optional<double> lo, hi;
  if (!range.min_expr.empty()) lo = evaluate(range.min_expr, scope);
  if (!range.max_expr.empty()) hi = evaluate(range.max_expr, scope);
  return {lo, hi};
}

std::string format_reference(const Reference& ref, const std::string& unit, const std::string& gpu_name) {
  std::string u = unit.empty() ? "" : " " + unit;
  std::string who = gpu_name.empty() ? ref.gpu : gpu_name;
  if (ref.value) return fmt::format("{}: {:g}{}", who, *ref.value, u);
  if (ref.min && ref.max) return fmt::format("{}: {:g} to {:g}{}", who, *ref.min, *ref.max, u);
  if (ref.min) return fmt::format("{}: >= {:g}{}", who, *ref.min, u);
  return fmt::format("{}: <= {:g}{}", who, ref.max.value_or(0), u);
}

namespace {

void grade_checks(const LabSpec& lab, const LabResults& results, Grade& g) {
  // A check reported more than once counts by its first failing report (else its last):
  // a failure is never hidden by a later pass.
  auto report_of = [&](const std::string& name) -> const ReportedCheck* {
    auto failed = std::find_if(results.checks.begin(), results.checks.end(),
                               [&](const ReportedCheck& c) { return c.name == name && !c.pass; });
    return failed != results.checks.end() ? &*failed : results.check(name);
  };
  for (const auto& name : lab.checks) {
    CheckGrade c{name, false, false, true, std::nullopt, std::nullopt, "never reported by the lab", false};
    if (const auto* r = report_of(name)) {
      c = {name, true, r->pass, true, r->value, r->limit, r->detail, r->skipped};
    }
    g.checks.push_back(c);
  }
  for (const auto& r : results.checks) {
    bool listed = std::find(lab.checks.begin(), lab.checks.end(), r.name) != lab.checks.end();
    bool seen = std::any_of(g.checks.begin(), g.checks.end(), [&](const CheckGrade& c) { return c.name == r.name; });
    if (!listed && !seen) {
      const ReportedCheck& w = *report_of(r.name);
      g.checks.push_back({w.name, true, w.pass, false, w.value, w.limit, w.detail, w.skipped});
    }
  }
  // Records that contradict each other or the run (results.hpp) fail the run: a PASS
  // must not rest on a file that says two things.
  if (!results.inconsistencies.empty()) {
    std::string why;
    for (const auto& i : results.inconsistencies) why += (why.empty() ? "" : "; ") + i;
    g.checks.push_back({"results_consistent", true, false, true, std::nullopt, std::nullopt,
                        "the results file contradicts itself or the run: " + why, false});
  }
}

}  // namespace

namespace {

// "dram_gbps 4800 (the basis it was measured on) against your 3980": the basis figures
// this workspace holds at other values.
std::string basis_differences(const std::map<std::string, double>& declared, const Figures& device) {
  std::string out;
  for (const auto& [name, was] : declared) {
    auto it = device.find(name);
    if (it == device.end() || it->second == was) continue;
    out += fmt::format("{}{} {:g} where this workspace has {:.4g}", out.empty() ? "" : ", ", name, was, it->second);
  }
  return out;
}

}  // namespace

void apply_basis(const MetricSpec& spec, const GradeBasis& basis, MetricGrade& m, std::optional<double> factor) {
  if (!spec.expected || !spec.expected->equals_expr.empty() || basis.gpu_id.empty()) return;
  if (basis.measured) {
    if (auto it = basis.measured->figures.find(spec.name); it != basis.measured->figures.end()) {
      const MeasuredFigure& f = it->second;
      const double k = factor && std::isfinite(*factor) && *factor > 0 ? *factor : 1.0;
      m.lo = f.value / (1 + f.band) * k;
      m.hi = f.value * (1 + f.band) * k;
      m.basis = RangeBasis::measured;
      m.basis_factor = k;
      m.basis_note = fmt::format("within {:g} % of {:.4g}{} measured on this GPU model ({})", f.band * 100, f.value,
                                 spec.unit.empty() ? "" : " " + spec.unit, basis.measured_label);
      const std::string moved = basis_differences(basis.measured->basis, basis.device_now);
      if (k != 1.0) {
        m.basis_note += fmt::format("; converted to this workspace's device figures (x{:.4g}: the band was measured "
                                    "against {})",
                                    k, moved.empty() ? "other device figures" : moved);
      } else if (!factor && !moved.empty()) {
        m.basis_note += fmt::format("; measured against {}: a run converts the band to your figures", moved);
      }
      return;
    }
  }
  if (spec.reference && spec.reference->graded && spec.reference->gpu == basis.gpu_id && basis.default_params) {
    const Reference& r = *spec.reference;
    const double k = 1 + kReferenceMargin;
    if (r.value) {
      m.lo = *r.value / k;
      m.hi = *r.value * k;
    } else {
      m.lo = r.min ? std::optional<double>(*r.min / k) : std::nullopt;
      m.hi = r.max ? std::optional<double>(*r.max * k) : std::nullopt;
    }
    m.basis = RangeBasis::workbook;
    m.basis_note = fmt::format("the workbook's figure for this GPU ({}), widened by {:g} %", r.source, kReferenceMargin * 100);
  }
}

MetricGrade figure_of(const MetricSpec& spec, const std::string& reference_gpu_name) {
  MetricGrade m;
  m.name = spec.name;
  m.unit = spec.unit;
  m.derived = !spec.expr.empty();
  if (spec.reference) m.reference = format_reference(*spec.reference, spec.unit, reference_gpu_name);
  return m;
}

void set_band(const MetricSpec& spec, const Figures& scope, const GradeBasis& basis, std::optional<double> factor,
              MetricGrade& m) {
  if (!spec.expected) return;
  auto [lo, hi] = evaluate_range(*spec.expected, scope);
  m.lo = lo;
  m.hi = hi;
  apply_basis(spec, basis, m, factor);
}

namespace {

// The generic warning for a figure on the side of its band that does not fail.
std::string warning_text(const ExpectedRange& e, bool below) {
  if (!e.hint_other.empty()) return e.hint_other;
  return below ? "below the range, on the side that does not fail: the result is right, so the run stands; a figure "
                 "this low (a time shorter than the model allows) usually means the timing missed work or the data "
                 "sat in the L2, or the band's basis does not fit this GPU"
               : "above the range, on the side that does not fail: the result is right, so the run stands; a figure "
                 "this high (above the model's ceiling) usually means the ceiling used is too low for this GPU "
                 "(calibrate with `workbook device --calibrate`) or the timing missed work";
}

MetricGrade grade_metric(const MetricSpec& spec, std::optional<double> value, const Figures& scope,
                         bool scope_ok, const std::string& device_note, const std::string& reference_gpu_name,
                         const GradeBasis& basis, std::optional<double> basis_factor) {
  MetricGrade m = figure_of(spec, reference_gpu_name);
  m.value = value;
  if (!spec.expected) {
    m.status = value ? RangeStatus::no_range : RangeStatus::missing;
    return m;
  }
  // `when:` 0 here (gpus >= 2 on one GPU): the range does not apply, and the figure is not
  // required. A condition that cannot be evaluated (a figure it names is missing) applies.
  if (!spec.expected->when_expr.empty()) {
    try {
      m.applies = evaluate(spec.expected->when_expr, scope) != 0;
    } catch (const Error&) {
      m.applies = true;
    }
    if (!m.applies) {
      m.status = RangeStatus::not_graded;
      m.note = "graded only where " + spec.expected->when_expr;
      return m;
    }
  }
  // A range is evaluated with whatever the scope holds (`equals: N` needs no device
  // figure); it is unknown only when a name it uses is really missing.
  try {
    set_band(spec, scope, basis, basis_factor, m);
  } catch (const Error& e) {
    m.status = value ? RangeStatus::unknown : RangeStatus::missing;
    m.note = scope_ok ? std::string(e.what()) : device_note;  // without device figures: why they are missing
    return m;
  }
  if (!value) {
    m.status = RangeStatus::missing;
    return m;
  }
  if (m.lo && *value < *m.lo) m.status = RangeStatus::below;
  else if (m.hi && *value > *m.hi) m.status = RangeStatus::above;
  else m.status = RangeStatus::in_range;
  const FailSide fails = spec.expected->fails;
  if (m.status == RangeStatus::below && fails == FailSide::above) {
    m.status = RangeStatus::below_warning;
    m.note = warning_text(*spec.expected, true);
  } else if (m.status == RangeStatus::above && fails == FailSide::below) {
    m.status = RangeStatus::above_warning;
    m.note = warning_text(*spec.expected, false);
  } else if (m.status != RangeStatus::in_range) {
    m.note = spec.expected->hint;
  }
  return m;
}

PredictionGrade grade_prediction(const PredictionSpec& spec, const RecordedPrediction* rec, Figures& scope,
                                 bool /*scope_ok: an answer is decided with whatever the scope holds*/) {
  PredictionGrade p;
  p.id = spec.id;
  p.kind = spec.kind;
  p.why = spec.why;
  if (spec.kind == PredictionKind::number) {
    p.max_score = 3;
    if (auto it = scope.find(spec.metric); it != scope.end()) p.measured = it->second;
  } else {
    p.max_score = 1;
  }
  if (!rec) {
    p.note = "no prediction was made";
    return p;
  }
  p.answer = rec->text;
  if (spec.kind == PredictionKind::number) {
    p.predicted = rec->number;
    if (!p.measured) {
      p.note = fmt::format("'{}' was not measured", spec.metric);
    } else if (!rec->number || *rec->number <= 0 || *p.measured <= 0) {
      p.note = "a factor needs a positive prediction and measurement";
    } else {
      p.factor = std::max(*rec->number / *p.measured, *p.measured / *rec->number);
      std::tie(p.band, p.score) = prediction_band(*p.factor);
    }
    return p;
  }
  if (!rec->unclear.empty()) {  // an older row whose answer may not be what was meant
    p.note = rec->unclear;
    return p;
  }
  std::string right = spec.answer;
  if (!spec.answer_expr.empty()) {
    try {
      double v = evaluate(spec.answer_expr, scope);  // over whatever the scope holds
      if (spec.kind == PredictionKind::yesno) {
        right = v != 0 ? "yes" : "no";
      } else {
        auto index = static_cast<long>(std::lround(v));
        if (index >= 1 && index <= static_cast<long>(spec.choices.size())) right = spec.choices[static_cast<std::size_t>(index - 1)];
      }
    } catch (const Error& e) {
      p.note = fmt::format("the right answer depends on figures that were not measured ({})", e.what());
    }
  }
  if (!right.empty()) {
    p.right_answer = right;
    p.correct = rec->text == right;
    p.score = *p.correct ? 1 : 0;
  }
  return p;
}

}  // namespace

namespace {

// The reported and derived figures against their ranges, and the predictions scored.
void grade_figures(const LabSpec& lab, const LabResults& results, const Figures& device, const std::string& device_note,
                   const Figures& params, const std::vector<RecordedPrediction>& predictions,
                   const std::string& reference_gpu_name, const GradeBasis& basis, Grade& g) {
  // The scope: device figures (if known), parameters, vars, then every reported and derived metric.
  bool scope_ok = !device.empty();
  Figures scope;
  try {
    scope = expression_scope(lab, device, params);
  } catch (const Error& e) {
    scope_ok = false;
    scope = params;
  }
  for (const auto& m : results.metrics) scope[m.name] = m.value;
  // The same figures on the device figures a measured band was graded on: a derived
  // figure's value there over its value here converts the band (GradeBasis).
  std::optional<Figures> basis_scope;
  if (basis.measured && !basis.measured_device.empty() && scope_ok) {
    try {
      basis_scope = expression_scope(lab, basis.measured_device, params);
      for (const auto& m : results.metrics) (*basis_scope)[m.name] = m.value;
    } catch (const Error&) {
      basis_scope.reset();
    }
  }
  for (const auto& spec : lab.metrics) {
    const ReportedMetric* r = results.metric(spec.name);
    auto m = grade_metric(spec, r ? std::optional<double>(r->value) : std::nullopt, scope, scope_ok, device_note,
                          reference_gpu_name, basis, 1.0);
    if (r) m.stats = *r;
    g.metrics.push_back(m);
  }
  for (const auto& spec : lab.derived) {
    std::optional<double> value;
    std::string why_missing;
    try {
      value = evaluate(spec.expr, scope);
      scope[spec.name] = *value;
    } catch (const Error& e) {
      why_missing = e.what();
    }
    std::optional<double> factor = 1.0;
    if (basis_scope) {
      try {
        const double there = evaluate(spec.expr, *basis_scope);
        (*basis_scope)[spec.name] = there;
        if (value && std::isfinite(there) && there != 0 && std::isfinite(*value)) factor = *value / there;
      } catch (const Error&) {
        basis_scope.reset();  // a chain that cannot be followed on the basis: no conversion from here on
      }
    }
    auto m = grade_metric(spec, value, scope, scope_ok, device_note, reference_gpu_name, basis, factor);
    if (!value) m.note = why_missing;
    g.metrics.push_back(m);
  }
  for (const auto& spec : lab.predictions) {
    auto it = std::find_if(predictions.begin(), predictions.end(),
                           [&](const RecordedPrediction& r) { return r.id == spec.id; });
    g.predictions.push_back(grade_prediction(spec, it == predictions.end() ? nullptr : &*it, scope, scope_ok));
  }
}

// A graded figure (one with an expected range) that the lab did not report as a finite
// number (never reported, NaN or infinity through wb::metric, a line that is not JSON)
// fails the run: a PASS must not rest on a figure nobody measured. Figures a profiler
// measures are not the lab's to report; a derived figure counts when it came out
// infinite or NaN (when it could not be computed, a reported one is missing already).
void require_graded_figures(const LabSpec& lab, Grade& g) {
  std::vector<std::string> missing;
  auto check_figure = [&](const std::string& name, bool absent_counts) {
    auto m = std::find_if(g.metrics.begin(), g.metrics.end(), [&](const MetricGrade& x) { return x.name == name; });
    if (m == g.metrics.end() || !m->applies) return;
    if (m->value ? !std::isfinite(*m->value) : absent_counts) missing.push_back(name);
  };
  for (const auto& spec : lab.metrics) {
    if (spec.expected && !spec.source) check_figure(spec.name, true);
  }
  for (const auto& spec : lab.derived) {
    if (spec.expected) check_figure(spec.name, false);
  }
  if (missing.empty()) return;
  std::string list;
  for (const auto& n : missing) list += (list.empty() ? "" : ", ") + n;
  g.checks.push_back({kFiguresReported, true, false, true, std::nullopt, std::nullopt,
                      "the lab did not report " + list + " as a finite number", false});
}

// Every reported figure shown without its range (GradeBasis::ranges_not_graded), and no
// prediction scored: a prediction is of the lab at the parameters its ranges are for (a
// sweep's other points would each score it against another figure).
void drop_ranges(const std::string& why, Grade& g) {
  g.predictions.clear();
  for (auto& m : g.metrics) {
    if (m.status == RangeStatus::missing) continue;
    m.lo.reset();
    m.hi.reset();
    m.status = RangeStatus::not_graded;
    m.note = why;
    m.reference.clear();
    m.basis = RangeBasis::model;
    m.basis_note.clear();
  }
}

}  // namespace

std::string unclear_choice_note(const std::vector<std::string>& choices, const std::string& answer,
                                const std::string& entered) {
  if (!entered.empty()) return {};  // this workbook recorded what was typed: no doubt
  const auto other = other_reading_of_choice(answer, choices);
  if (!other) return {};
  return fmt::format("recorded as '{}' by an older workbook, which read a number typed at the prompt as an option's "
                     "text: you may have meant option {} ('{}'); not scored",
                     answer, *other + 1, choices[*other]);
}

bool outside_range(const MetricGrade& m) { return m.status == RangeStatus::below || m.status == RangeStatus::above; }

bool outside_warning(const MetricGrade& m) {
  return m.status == RangeStatus::below_warning || m.status == RangeStatus::above_warning;
}

Grade grade_parts(const LabSpec& lab, const LabResults& results, const Figures& device, const std::string& device_note,
                  const Figures& params, const std::vector<RecordedPrediction>& predictions,
                  const std::string& reference_gpu_name, const GradeBasis& basis) {
  Grade g;
  grade_checks(lab, results, g);
  grade_figures(lab, results, device, device_note, params, predictions, reference_gpu_name, basis, g);
  require_graded_figures(lab, g);
  if (!basis.ranges_not_graded.empty()) drop_ranges(basis.ranges_not_graded, g);
  return g;
}

}  // namespace workbook
