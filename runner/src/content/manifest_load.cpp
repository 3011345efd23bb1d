// Manifest loading and validation (see manifest_load.hpp and docs/authoring.md).
#include "content/manifest_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

#include "content/examiner.hpp"
#include "content/lab_id.hpp"
#include "content/metric_source.hpp"
#include "content/variant.hpp"
#include "model/figures.hpp"
#include "specs/gpu_specs.hpp"
#include "model/expr.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {

const char* to_string(PredictionKind kind) {
  switch (kind) {
    case PredictionKind::number: return "number";
    case PredictionKind::choice: return "choice";
    case PredictionKind::yesno: return "yesno";
  }
  return "?";
}

const char* to_string(FailSide s) {
  switch (s) {
    case FailSide::both: return "both";
    case FailSide::above: return "above";
    case FailSide::below: return "below";
  }
  return "?";
}

const char* to_string(LabLanguage language) {
  switch (language) {
    case LabLanguage::cuda: return "cuda";
    case LabLanguage::host: return "host";
    case LabLanguage::python: return "python";
  }
  return "?";
}

namespace {

const std::regex kParamPattern("^[A-Za-z_][A-Za-z0-9_]{0,63}$");


// The side a band fails on when the manifest does not say (manifest.hpp, FailSide).
FailSide fail_side_from_unit(const std::string& unit) {
  static const std::set<std::string> times = {"ns", "us", "µs", "ms", "s"};
  static const std::set<std::string> rates = {"GB/s", "GFLOP/s", "TFLOP/s"};
  if (times.count(unit)) return FailSide::above;
  if (rates.count(unit)) return FailSide::below;
  return FailSide::both;
}

std::optional<ExpectedRange> read_expected(MapReader& parent, const std::string& unit) {
  YAML::Node n = parent.node("expected");
  if (!present(n)) return std::nullopt;
  MapReader r(n, parent.file(), parent.path("expected"), parent.problems());
  ExpectedRange e;
  e.line = line_of(n);
  e.min_expr = r.str("min", false).value_or("");
  e.max_expr = r.str("max", false).value_or("");
  e.equals_expr = r.str("equals", false).value_or("");
  e.tolerance = r.number("tolerance", false).value_or(0);
  e.hint = r.str("hint", false).value_or("");
  e.hint_other = r.str("hint_other", false).value_or("");
  e.when_expr = r.str("when", false).value_or("");
  // A band with one end fails at that end; with both, the unit says which side fails.
  e.fails = fail_side_from_unit(unit);
  if (e.min_expr.empty() != e.max_expr.empty()) e.fails = e.min_expr.empty() ? FailSide::above : FailSide::below;
  if (auto side = r.str("fails", false)) {
    if (*side == "above") e.fails = FailSide::above;
    else if (*side == "below") e.fails = FailSide::below;
    else if (*side == "both") e.fails = FailSide::both;
    else r.problem("fails", fmt::format("must be above, below or both, got '{}'", *side));
  }
  if (!e.equals_expr.empty()) {
    if (e.fails != FailSide::both && r.str("fails", false)) r.problem("fails", "an `equals` figure fails on both sides");
    e.fails = FailSide::both;
  }
  if (r.ok() && e.min_expr.empty() && e.max_expr.empty() && e.equals_expr.empty()) {
    r.problem("", "needs `min` and/or `max`, or `equals`");
  }
  if (!e.equals_expr.empty() && (!e.min_expr.empty() || !e.max_expr.empty())) {
    r.problem("equals", "cannot be combined with min/max");
  }
  if (e.tolerance < 0) r.problem("tolerance", "must not be negative");
  r.finish();
  return e;
}

std::optional<Reference> read_reference(MapReader& parent) {
  YAML::Node n = parent.node("reference");
  if (!present(n)) return std::nullopt;
  MapReader r(n, parent.file(), parent.path("reference"), parent.problems());
  Reference ref;
  ref.gpu = r.str("gpu", true).value_or("");
  ref.min = r.number("min", false);
  ref.max = r.number("max", false);
  ref.value = r.number("value", false);
  ref.source = r.str("source", false).value_or("");
  ref.graded = r.boolean("graded", false).value_or(false);
  if (ref.graded && !ref.min && !ref.max) r.problem("graded", "needs a range (min and/or max): a single figure is not graded");
  if (r.ok() && !ref.min && !ref.max && !ref.value) r.problem("", "needs `value`, or `min` and/or `max`");
  r.finish();
  return ref;
}

MetricSpec read_metric(MapReader& r, bool derived) {
  MetricSpec m;
  m.line = r.line();
  m.name = r.str("name", true).value_or("");
  if (!m.name.empty() && !is_valid_name(m.name)) r.problem("name", "must be [a-z][a-z0-9_]*");
  m.unit = r.str("unit", false).value_or("");
  m.doc = r.str("doc", false).value_or("");
  if (derived) m.expr = r.str("expr", true).value_or("");
  m.expected = read_expected(r, m.unit);
  m.reference = read_reference(r);
  if (!derived) m.source = read_metric_source(r);  // a profiler figure (content/metric_source.hpp)
  return m;
}

PredictionSpec read_prediction(MapReader& r) {
  PredictionSpec p;
  p.line = r.line();
  p.id = r.str("id", true).value_or("");
  if (!p.id.empty() && !is_valid_name(p.id)) r.problem("id", "must be [a-z][a-z0-9_]*");
  std::string kind = r.str("kind", true).value_or("number");
  if (kind == "number") p.kind = PredictionKind::number;
  else if (kind == "choice") p.kind = PredictionKind::choice;
  else if (kind == "yesno") p.kind = PredictionKind::yesno;
  else r.problem("kind", fmt::format("must be number, choice or yesno, got '{}'", kind));
  p.prompt = r.str("prompt", true).value_or("");
  p.unit = r.str("unit", false).value_or("");
  p.metric = r.str("metric", p.kind == PredictionKind::number).value_or("");
  p.choices = r.str_list("choices", p.kind == PredictionKind::choice);
  p.answer = r.str("answer", false).value_or("");
  p.answer_expr = r.str("answer_expr", false).value_or("");
  p.why = r.str("why", false).value_or("");
  if (p.kind != PredictionKind::number) {
    if (p.answer.empty() == p.answer_expr.empty()) {
      r.problem("answer", "give exactly one of `answer` and `answer_expr`");
    }
    if (p.kind == PredictionKind::choice && !p.answer.empty() &&
        std::find(p.choices.begin(), p.choices.end(), p.answer) == p.choices.end()) {
      r.problem("answer", fmt::format("'{}' is not one of the choices", p.answer));
    }
    if (p.kind == PredictionKind::yesno && !p.answer.empty() && p.answer != "yes" && p.answer != "no") {
      r.problem("answer", "must be yes or no");
    }
    if (p.kind == PredictionKind::choice && p.choices.size() < 2) r.problem("choices", "needs at least two options");
  }
  return p;
}

VariantSpec read_variant(MapReader& r) {
  VariantSpec v;
  v.line = r.line();
  v.id = r.str("id", true).value_or("");
  if (!v.id.empty() && !is_valid_name(v.id)) r.problem("id", "must be [a-z][a-z0-9_]*");
  std::string kind = r.str("kind", true).value_or("wrong");
  if (kind == "wrong") v.kind = VariantKind::wrong;
  else if (kind == "slow") v.kind = VariantKind::slow;
  else r.problem("kind", fmt::format("must be wrong (grades fail) or slow (grades out_of_range), got '{}'", kind));
  v.what = r.str("what", true).value_or("");
  for_each_map(r, "edits", true, [&](MapReader& er) {
    SourceEdit e;
    e.line = er.line();
    e.from = er.str("from", true).value_or("");
    e.to = er.str("to", true).value_or("");
    if (er.has("from") && e.from.empty()) er.problem("from", "must not be empty");
    if (!e.from.empty() && e.from == e.to) er.problem("to", "is the same as `from`: the edit changes nothing");
    v.edits.push_back(e);
  });
  return v;
}

// Every variant's edits must apply to the solution's text (each `from` exactly once).
void check_variants(const LabSpec& lab, const std::filesystem::path& solution, const std::string& file,
                    Problems& problems) {
  if (lab.variants.empty() || !std::filesystem::is_regular_file(solution)) return;
  const std::string text = read_file_text(solution).value_or("");
  for (const auto& v : lab.variants) {
    try {
      apply_variant(text, v, file, "labs." + lab.name + ".variants");
    } catch (const ContentError& e) {
      for (const auto& p : e.problems()) problems.add_line(p);
    }
  }
}

ParamSpec read_param(MapReader& r) {
  ParamSpec p;
  p.line = r.line();
  p.name = r.str("name", true).value_or("");
  if (!p.name.empty() && (!std::regex_match(p.name, kParamPattern) || p.name == "seed" || p.name == "quick")) {
    r.problem("name", "must be [A-Za-z_][A-Za-z0-9_]* and not the reserved seed or quick");
  }
  // Integers, as the lab's wb::param reads them (exact in a double up to 2^53).
  p.default_value = static_cast<double>(r.integer("default", true).value_or(0));
  if (auto q = r.integer("quick", false)) p.quick = static_cast<double>(*q);
  p.doc = r.str("doc", false).value_or("");
  return p;
}

// `sweeps: [{param, values, metrics, unit, doc}]`: the parameter must be the lab's, the values
// distinct integers, the metrics the lab's reported or derived ones.
SweepSpec read_sweep(MapReader& r, const LabSpec& lab) {
  SweepSpec s;
  s.line = r.line();
  s.param = r.str("param", true).value_or("");
  if (!s.param.empty() && std::none_of(lab.params.begin(), lab.params.end(), [&](const ParamSpec& p) { return p.name == s.param; }))
    r.problem("param", fmt::format("'{}' is not one of the lab's params", s.param));
  for (const auto& text : r.str_list("values", true)) {
    static const std::regex integer("^-?[0-9]{1,15}$");
    if (!std::regex_match(text, integer)) {
      r.problem("values", fmt::format("'{}' is not a whole number (parameters are integers)", text));
      continue;
    }
    const double v = std::stod(text);
    if (std::find(s.values.begin(), s.values.end(), v) != s.values.end()) r.problem("values", fmt::format("{} appears twice", text));
    s.values.push_back(v);
  }
  if (r.has("values") && s.values.size() < 2) r.problem("values", "needs at least two values");
  s.metrics = r.str_list("metrics", false);
  for (const auto& m : s.metrics) {
    auto named = [&](const MetricSpec& x) { return x.name == m; };
    if (std::none_of(lab.metrics.begin(), lab.metrics.end(), named) && std::none_of(lab.derived.begin(), lab.derived.end(), named))
      r.problem("metrics", fmt::format("'{}' is not a metric or derived metric of this lab", m));
  }
  s.unit = r.str("unit", false).value_or("");
  s.doc = r.str("doc", false).value_or("");
  return s;
}

// Every expression of the lab may only name figures that will exist when it is evaluated.
void check_expressions(const LabSpec& lab, const std::string& file, Problems& problems) {
  std::set<std::string> known(device_figure_names().begin(), device_figure_names().end());
  for (const auto& p : lab.params) known.insert(p.name);
  auto check = [&](const std::string& expr, int line, const std::string& field) {
    if (expr.empty()) return;
    try {
      for (const auto& v : variables_of(expr)) {
        if (!known.count(v)) problems.add(file, line, field, fmt::format("expression uses unknown name '{}'", v));
      }
    } catch (const Error& e) {
      problems.add(file, line, field, e.what());
    }
  };
  std::string base = "labs." + lab.name;
  for (const auto& v : lab.vars) {
    check(v.expr, v.line, base + ".vars." + v.name);
    known.insert(v.name);
  }
  for (const auto& m : lab.metrics) known.insert(m.name);
  for (const auto& m : lab.derived) {
    check(m.expr, m.line, base + ".derived." + m.name);
    known.insert(m.name);
  }
  for (const auto* list : {&lab.metrics, &lab.derived}) {
    for (const auto& m : *list) {
      if (!m.expected) continue;
      std::string f = base + ".metrics." + m.name + ".expected";
      check(m.expected->min_expr, m.expected->line, f + ".min");
      check(m.expected->max_expr, m.expected->line, f + ".max");
      check(m.expected->equals_expr, m.expected->line, f + ".equals");
      check(m.expected->when_expr, m.expected->line, f + ".when");
    }
  }
  for (const auto& p : lab.predictions) {
    check(p.answer_expr, p.line, base + ".predictions." + p.id + ".answer_expr");
    if (p.kind == PredictionKind::number && !p.metric.empty() && !known.count(p.metric)) {
      problems.add(file, p.line, base + ".predictions." + p.id + ".metric",
                   fmt::format("'{}' is not a metric or derived metric of this lab", p.metric));
    }
  }
}

// Values that can be computed before any run must make sense: every var evaluates to a
// finite number and no expected min is above its max, at default parameters and, given
// `device` (the T4 sheet's figures: dev check), with its figures. A name the scope lacks
// (a device figure without `device`, a reported metric) skips that check.
void check_values(const LabSpec& lab, const std::string& file, const Figures* device, Problems& problems) {
  const std::string base = "labs." + lab.name;
  const std::string where = device ? "with the T4 sheet's figures and default parameters" : "at default parameters";
  Figures scope = device ? *device : Figures{};
  for (const auto& p : lab.params) scope[p.name] = p.default_value;
  // The value of `expr`; nullopt when it names something the scope lacks or has a syntax
  // error (check_expressions reports those); throws when it fails otherwise.
  auto value = [&scope](const std::string& expr) -> std::optional<double> {
    if (expr.empty()) return std::nullopt;
    try {
      for (const auto& name : variables_of(expr)) {
        if (!scope.count(name)) return std::nullopt;
      }
    } catch (const Error&) {
      return std::nullopt;
    }
    return evaluate(expr, scope);
  };
  for (const auto& v : lab.vars) {
    try {
      if (auto x = value(v.expr)) scope[v.name] = *x;
    } catch (const Error& e) {
      problems.add(file, v.line, base + ".vars." + v.name, fmt::format("{} {}", e.what(), where));
    }
  }
  for (const auto* list : {&lab.metrics, &lab.derived}) {
    for (const auto& m : *list) {
      if (!m.expected) continue;
      const std::string field = base + ".metrics." + m.name + ".expected";
      std::optional<double> lo, hi;
      try {
        lo = value(m.expected->min_expr);
        hi = value(m.expected->max_expr);
        value(m.expected->equals_expr);
      } catch (const Error& e) {
        problems.add(file, m.expected->line, field, fmt::format("{} {}", e.what(), where));
        continue;
      }
      if (lo && hi && *lo > *hi) {
        problems.add(file, m.expected->line, field,
                     fmt::format("min ({:g}) is above max ({:g}) {}: no value can be in range", *lo, *hi, where));
      }
    }
  }
}

void check_unique(const std::vector<std::string>& names, const std::string& what, const std::string& file,
                  int line, Problems& problems) {
  std::set<std::string> seen;
  for (const auto& n : names) {
    if (!seen.insert(n).second) problems.add(file, line, what, fmt::format("'{}' appears twice", n));
  }
}

// The lab's source file (in labs/ and solutions/) and its language, which must agree.
void read_source_and_language(MapReader& r, const Module& module, const std::filesystem::path& content_root,
                              LabSpec& lab) {
  lab.source = r.str("source", true).value_or("");
  static const std::regex source_pattern("^[a-z][a-z0-9_]*\\.(cu|cpp|py)$");
  if (!lab.source.empty()) {
    if (!std::regex_match(lab.source, source_pattern)) {
      r.problem("source", "must be a plain file name such as tiled_gemm.cu (no folders)");
    } else {
      for (const char* tree : {"labs", "solutions"}) {
        auto path = content_root / tree / module.id / lab.source;
        if (!std::filesystem::is_regular_file(path)) {
          r.problem("source", fmt::format("{}/{}/{} does not exist", tree, module.id, lab.source));
        }
      }
    }
  }
  std::string language = r.str("language", false).value_or("cuda");
  if (language == "cuda") lab.language = LabLanguage::cuda;
  else if (language == "host") lab.language = LabLanguage::host;
  else if (language == "python") lab.language = LabLanguage::python;
  else r.problem("language", "must be cuda, host or python");
  const bool py_source = lab.source.size() > 3 && lab.source.compare(lab.source.size() - 3, 3, ".py") == 0;
  if (!lab.source.empty() && py_source != (lab.language == LabLanguage::python)) {
    r.problem("source", py_source ? "a .py source needs `language: python`"
                                  : "a Python lab's source must be a .py file");
  }
}

// `build: {flags, libs}`: compiler options and libraries (none for a Python lab).
void read_build(MapReader& r, LabSpec& lab) {
  YAML::Node b = r.node("build");
  if (!present(b)) return;
  MapReader br(b, r.file(), r.path("build"), r.problems());
  lab.flags = br.str_list("flags", false);
  lab.libs = br.str_list("libs", false);
  for (const auto& f : lab.flags) {
    if (f.empty() || f[0] != '-') br.problem("flags", fmt::format("'{}' is not a compiler option", f));
  }
  for (const auto& l : lab.libs) {
    if (l.rfind("-l", 0) != 0) br.problem("libs", fmt::format("'{}' must be written -lNAME", l));
  }
  if (lab.language == LabLanguage::python && (!lab.flags.empty() || !lab.libs.empty()))
    br.problem("flags", "a Python lab is not compiled with flags or libraries: leave `build` out");
  br.finish();
}

// `vars: {name: expression}`, in the order written.
void read_vars(MapReader& r, LabSpec& lab) {
  YAML::Node v = r.node("vars");
  if (!present(v)) return;
  if (!v.IsMap()) {
    r.problem("vars", "must be a mapping of name: expression");
    return;
  }
  for (const auto& kv : v) {
    VarSpec var{kv.first.Scalar(), kv.second.IsScalar() ? kv.second.Scalar() : "", line_of(kv.first)};
    if (!is_valid_name(var.name)) r.problems().add(r.file(), var.line, r.path("vars"), fmt::format("'{}' must be [a-z][a-z0-9_]*", var.name));
    if (var.expr.empty()) r.problems().add(r.file(), var.line, r.path("vars." + var.name), "must be an expression");
    lab.vars.push_back(var);
  }
}

// `hints: [text, ...]`: 1 to kMaxHints non-empty texts, each different, in the order shown.
void read_hints(MapReader& r, LabSpec& lab) {
  YAML::Node list = r.node("hints");
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) {
    r.problem("hints", "must be a list of texts (lines starting with '- '), the first hint first");
    return;
  }
  if (list.size() == 0) r.problem("hints", "is empty: give at least one hint, or leave `hints` out");
  if (list.size() > kMaxHints)
    r.problem("hints", fmt::format("has {} hints, at most {} are allowed: merge some, or cut the last ones", list.size(),
                                   kMaxHints));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const std::string field = r.path("hints") + "[" + std::to_string(i) + "]";
    const int line = line_of(item) ? line_of(item) : r.line("hints");
    if (!item.IsScalar()) {
      r.problems().add(r.file(), line, field, "must be a text (quote it if it holds ': ' or starts with '-')");
      continue;
    }
    const std::string text = item.Scalar();
    if (text.find_first_not_of(" \t\n") == std::string::npos) {
      r.problems().add(r.file(), line, field, "is empty: write the hint, or remove the entry");
      continue;
    }
    if (std::find(lab.hints.begin(), lab.hints.end(), text) != lab.hints.end())
      r.problems().add(r.file(), line, field, "repeats an earlier hint");
    lab.hints.push_back(text);
  }
}

// Names that must be unique within a lab: parameters, figures (metrics, derived, vars),
// predictions, checks (which may not share a metric's name either) and variants.
void check_lab_names(MapReader& r, const LabSpec& lab) {
  std::vector<std::string> names;
  for (const auto& p : lab.params) names.push_back(p.name);
  check_unique(names, r.path("params"), r.file(), lab.line, r.problems());
  names.clear();
  for (const auto& m : lab.metrics) names.push_back(m.name);
  for (const auto& m : lab.derived) names.push_back(m.name);
  for (const auto& v : lab.vars) names.push_back(v.name);
  check_unique(names, r.path("metrics/derived/vars"), r.file(), lab.line, r.problems());
  names.clear();
  for (const auto& p : lab.predictions) names.push_back(p.id);
  check_unique(names, r.path("predictions"), r.file(), lab.line, r.problems());
  check_unique(lab.checks, r.path("checks"), r.file(), lab.line, r.problems());
  // The lab reports checks and metrics into one namespace (the harness refuses a name
  // reported twice in a run), so a check may not share a metric's name.
  for (const auto& m : lab.metrics) {
    if (std::find(lab.checks.begin(), lab.checks.end(), m.name) != lab.checks.end())
      r.problems().add(r.file(), lab.line, r.path("checks"),
                       fmt::format("'{}' is also a metric's name; the lab reports both in one namespace: rename one "
                                   "(e.g. '{}_ok')",
                                   m.name, m.name));
  }
  names.clear();
  for (const auto& v : lab.variants) names.push_back(v.id);
  check_unique(names, r.path("variants"), r.file(), lab.line, r.problems());
}

// `memcheck: quick` (the only size it runs at), and `exercised:`, a map from each
// function the learner writes to the checks (of `checks:`) that run it.
void read_memcheck_and_exercised(MapReader& r, LabSpec& lab) {
  if (auto m = r.str("memcheck", false)) {
    if (*m == "quick") lab.memcheck = true;
    else if (*m != "none") r.problem("memcheck", fmt::format("is '{}': use quick (a memcheck run at the quick size) or none", *m));
  }
  YAML::Node ex = r.node("exercised");
  if (!ex.IsDefined() || ex.IsNull()) return;
  if (!ex.IsMap()) {
    r.problem("exercised", "must map each function the learner writes to a list of the checks that run it");
    return;
  }
  for (const auto& kv : ex) {
    if (!kv.first.IsScalar()) {
      r.problem("exercised", "each key must be a function's name");
      continue;
    }
    const std::string fn = kv.first.as<std::string>();
    std::vector<std::string> checks;
    bool names_only = true;  // a map or list inside the list is no check's name
    if (kv.second.IsSequence())
      for (const auto& c : kv.second) {
        if (c.IsScalar()) checks.push_back(c.as<std::string>());
        else names_only = false;
      }
    if (!names_only) r.problem("exercised." + fn, "lists something that is not a check's name (quote a name holding ': ')");
    else if (checks.empty()) r.problem("exercised." + fn, "needs a non-empty list of checks");
    lab.exercised.emplace_back(fn, std::move(checks));  // the names are dev check's to hold (dev/exercised.hpp)
  }
}

LabSpec read_lab(MapReader& r, const Module& module, const std::filesystem::path& content_root) {
  LabSpec lab;
  lab.line = r.line();
  lab.name = r.str("id", true).value_or("");
  if (!lab.name.empty() && !is_valid_name(lab.name)) {
    r.problem("id", "must be [a-z][a-z0-9_]* (it becomes the lab id moduleNN/<id>)");
  }
  lab.id = module.id + "/" + lab.name;
  lab.title = r.str("title", true).value_or("");
  lab.goal = r.str("goal", true).value_or("");
  read_source_and_language(r, module, content_root, lab);
  lab.steps = r.str_list("steps", true);
  if (YAML::Node st = r.node("steps"); st.IsSequence() && st.size() == 0) r.problem("steps", "needs at least one step");
  lab.timeout_s = r.number("timeout_s", false).value_or(60);
  if (lab.timeout_s <= 0 || lab.timeout_s > 3600) r.problem("timeout_s", "must be between 0 and 3600 seconds");
  read_build(r, lab);
  for_each_map(r, "params", false, [&](MapReader& pr) { lab.params.push_back(read_param(pr)); });
  lab.checks = r.str_list("checks", true);
  read_memcheck_and_exercised(r, lab);
  read_vars(r, lab);
  for_each_map(r, "metrics", false, [&](MapReader& mr) { lab.metrics.push_back(read_metric(mr, false)); });
  for_each_map(r, "derived", false, [&](MapReader& mr) { lab.derived.push_back(read_metric(mr, true)); });
  for_each_map(r, "predictions", false, [&](MapReader& pr) { lab.predictions.push_back(read_prediction(pr)); });
  lab.explain_prompt = r.str("explain", false).value_or("");
  for_each_map(r, "variants", false, [&](MapReader& vr) { lab.variants.push_back(read_variant(vr)); });
  for_each_map(r, "sweeps", false, [&](MapReader& sr) { lab.sweeps.push_back(read_sweep(sr, lab)); });
  read_hints(r, lab);
  read_examiner(r, lab);  // content/examiner.hpp
  check_lab_names(r, lab);
  check_expressions(lab, r.file(), r.problems());
  check_values(lab, r.file(), nullptr, r.problems());
  return lab;
}

// The manifest's name in problems: relative to the content root where it is inside it.
std::string display_name(const std::filesystem::path& file, const std::filesystem::path& content_root) {
  std::string display = std::filesystem::relative(file, content_root).string();
  return display.empty() || display.rfind("..", 0) == 0 ? file.string() : display;
}

}  // namespace

Module read_module(const std::filesystem::path& file, int number, const std::filesystem::path& content_root,
                   Problems& problems) {
  Module module;
  module.number = number;
  module.id = module_id(number);
  module.file = file;
  module.dir = file.parent_path();
  const std::string display = display_name(file, content_root);

  YAML::Node root = load_yaml_file(file, problems, display);
  if (!present(root)) {
    if (root.IsDefined()) problems.add(display, 0, "", "is empty");  // undefined: already reported
    return module;
  }
  MapReader r(root, display, "", problems);
  auto version = r.integer("format_version", true);
  if (version && *version != kManifestFormatVersion) {
    r.problem("format_version", fmt::format("is {}, this runner reads version {}; update the runner or the manifest",
                                            *version, kManifestFormatVersion));
  }
  auto declared = r.integer("module", true);
  if (declared && *declared != number) {
    r.problem("module", fmt::format("says {} but the file is in {}", *declared, module.id));
  }
  module.title = r.str("title", true).value_or("");
  module.objectives = r.str_list("objectives", true);
  for_each_map(r, "labs", false, [&](MapReader& lr) {
    module.labs.push_back(read_lab(lr, module, content_root));
  });
  std::vector<std::string> names;
  for (const auto& lab : module.labs) names.push_back(lab.name);
  check_unique(names, "labs", display, 0, problems);
  r.finish();
  return module;
}

void check_module_beyond_manifest(const Module& module, const std::filesystem::path& content_root, const GpuSpec* t4,
                                  Problems& problems) {
  const std::string file = display_name(module.file, content_root);
  std::optional<Figures> figures;
  if (t4) {
    figures = t4->figures;
    for (const auto& [k, v] : nominal_measured_figures(*t4)) (*figures)[k] = v;
  }
  for (const auto& lab : module.labs) {
    if (figures) check_values(lab, file, &*figures, problems);
    if (!lab.source.empty()) check_variants(lab, content_root / "solutions" / module.id / lab.source, file, problems);
  }
}

}  // namespace workbook
