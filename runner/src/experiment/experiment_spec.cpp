// Reading and validating an experiment file (see experiment_spec.hpp).
#include "experiment/experiment_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include <re2/re2.h>

#include "experiment/metric_reader.hpp"
#include "model/expr.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {

const char* to_string(MetricPer p) { return p == MetricPer::step ? "step" : "once"; }

const char* to_string(MetricSummary s) {
  switch (s) {
    case MetricSummary::median: return "median";
    case MetricSummary::mean: return "mean";
    case MetricSummary::min: return "min";
    case MetricSummary::max: return "max";
    case MetricSummary::last: return "last";
  }
  return "?";
}

const ExperimentVariant* Experiment::variant(const std::string& n) const {
  for (const auto& v : variants)
    if (v.name == n) return &v;
  return nullptr;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<std::string> split_command(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) word += line[++i];
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) throw UsageError(fmt::format("the command '{}' has an unclosed {} quote", line, quote));
  if (in_word) words.push_back(word);
  return words;
}

std::string measured_expression(const std::string& expr) {
  // RE2: the expression is the learner's, and std::regex recurses once per character.
  static const RE2 dotted(R"(\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\b)");
  std::string out = expr;
  RE2::GlobalReplace(&out, dotted, R"(\1__\2)");
  return out;
}

namespace {

void read_command(MapReader& m, ExperimentVariant& v) {
  const YAML::Node c = m.node("command");
  if (!present(c)) {
    m.problem("command", "is required (the program and its arguments, e.g. ./train_gpt2cu -b 4)");
  } else if (c.IsScalar()) {
    try {
      v.command = split_command(c.as<std::string>());
    } catch (const UsageError& e) {
      m.problem("command", e.what());
    }
  } else if (c.IsSequence()) {
    for (const auto& w : c) {
      if (w.IsScalar()) v.command.push_back(w.as<std::string>());
      else m.problem("command", "a list of words must hold only text");
    }
  } else {
    m.problem("command", "must be a command line or a list of words");
  }
  if (present(c) && v.command.empty()) m.problem("command", "is empty");
}

void read_env(MapReader& m, ExperimentVariant& v) {
  const YAML::Node e = m.node("env");
  if (!present(e)) return;
  if (!e.IsMap()) {
    m.problem("env", "must be a mapping of NAME: value");
    return;
  }
  for (const auto& kv : e) {
    const std::string k = kv.first.as<std::string>();
    if (!is_identifier(k)) m.problem("env", fmt::format("'{}' is not a variable name", k));
    else if (!kv.second.IsScalar()) m.problem("env." + k, "must be text");
    else v.env.emplace_back(k, kv.second.as<std::string>());
  }
}

ExperimentVariant read_variant(MapReader& m) {
  ExperimentVariant v;
  v.line = m.line();
  v.name = m.str("name", true).value_or("");
  if (!v.name.empty() && !is_identifier(v.name))
    m.problem("name", fmt::format("'{}' must be a plain name (letters, digits, _), e.g. fp32", v.name));
  read_command(m, v);
  v.cwd = m.str("cwd", false).value_or("");
  read_env(m, v);
  return v;
}

template <typename T>
std::optional<T> pick(MapReader& m, const std::string& key, const std::vector<std::pair<std::string, T>>& options) {
  const auto text = m.str(key, false);
  if (!text) return std::nullopt;
  for (const auto& [name, value] : options)
    if (*text == name) return value;
  std::string list;
  for (const auto& o : options) list += (list.empty() ? "" : ", ") + o.first;
  m.problem(key, fmt::format("'{}' is not one of {}", *text, list));
  return std::nullopt;
}

ExperimentMetric read_metric(MapReader& m) {
  ExperimentMetric x;
  x.line = m.line();
  x.name = m.str("name", true).value_or("");
  if (!x.name.empty() && !is_identifier(x.name)) m.problem("name", fmt::format("'{}' must be a plain name, e.g. step_ms", x.name));
  x.pattern = m.str("pattern", true).value_or("");
  if (!x.pattern.empty()) {
    if (const std::string problem = pattern_problem(x.pattern); !problem.empty()) m.problem("pattern", problem);
  }
  x.unit = m.str("unit", false).value_or("");
  x.per = pick<MetricPer>(m, "per", {{"step", MetricPer::step}, {"once", MetricPer::once}}).value_or(MetricPer::step);
  x.summary = pick<MetricSummary>(m, "summary", {{"median", MetricSummary::median}, {"mean", MetricSummary::mean},
                                                 {"min", MetricSummary::min}, {"max", MetricSummary::max},
                                                 {"last", MetricSummary::last}})
                  .value_or(x.per == MetricPer::step ? MetricSummary::median : MetricSummary::last);
  x.skip = static_cast<int>(m.integer("skip", false).value_or(0));
  if (x.skip < 0) m.problem("skip", "must be 0 or more");
  return x;
}

ExperimentPrediction read_prediction(MapReader& m) {
  ExperimentPrediction p;
  p.spec.line = m.line();
  p.spec.id = m.str("name", true).value_or("");
  if (!p.spec.id.empty() && !is_identifier(p.spec.id)) m.problem("name", fmt::format("'{}' must be a plain name", p.spec.id));
  p.spec.kind = pick<PredictionKind>(m, "kind", {{"number", PredictionKind::number}, {"choice", PredictionKind::choice},
                                                 {"yesno", PredictionKind::yesno}})
                    .value_or(PredictionKind::number);
  p.spec.prompt = m.str("question", true).value_or("");
  p.spec.unit = m.str("unit", false).value_or("");
  p.spec.choices = m.str_list("choices", p.spec.kind == PredictionKind::choice);
  if (p.spec.kind != PredictionKind::choice && !p.spec.choices.empty()) m.problem("choices", "go only with kind: choice");
  p.measured = m.str("measured", false).value_or("");
  return p;
}


void check_names(const Experiment& e, const std::string& file, Problems& problems) {
  auto unique = [&](const auto& list, const char* what, auto name_of) {
    std::set<std::string> seen;
    for (const auto& x : list)
      if (!name_of(x).empty() && !seen.insert(name_of(x)).second)
        problems.add(file, x.line, what, fmt::format("'{}' is named twice", name_of(x)));
  };
  unique(e.variants, "variants", [](const ExperimentVariant& v) { return v.name; });
  unique(e.metrics, "metrics", [](const ExperimentMetric& m) { return m.name; });
  std::set<std::string> pseen;
  for (const auto& p : e.predictions)
    if (!p.spec.id.empty() && !pseen.insert(p.spec.id).second)
      problems.add(file, p.spec.line, "predictions", fmt::format("'{}' is named twice", p.spec.id));
}

void check_measured(const Experiment& e, const std::string& file, Problems& problems) {
  std::set<std::string> known;
  for (const auto& v : e.variants)
    for (const auto& m : e.metrics) known.insert(v.name + "__" + m.name);
  for (const auto& p : e.predictions) {
    if (p.measured.empty()) continue;
    const std::string field = "predictions." + p.spec.id + ".measured";
    if (p.spec.kind != PredictionKind::number) {
      problems.add(file, p.spec.line, field, "goes only with kind: number");
      continue;
    }
    try {
      for (const auto& name : variables_of(measured_expression(p.measured))) {
        if (!known.count(name)) {
          std::string shown = name;
          if (auto at = shown.find("__"); at != std::string::npos) shown.replace(at, 2, ".");
          problems.add(file, p.spec.line, field,
                       fmt::format("'{}' is not VARIANT.METRIC of this file (e.g. {}.{})", shown,
                                   e.variants.empty() ? "fp32" : e.variants.front().name,
                                   e.metrics.empty() ? "step_ms" : e.metrics.front().name));
        }
      }
    } catch (const Error& err) {
      problems.add(file, p.spec.line, field, err.what());
    }
  }
}

void read_top(MapReader& top, Experiment& e) {
  const auto version = top.integer("format_version", true);
  if (version && *version != kExperimentFormatVersion)
    top.problem("format_version", fmt::format("is {}; this workbook reads version {}", *version, kExperimentFormatVersion));
  e.title = top.str("title", false).value_or("");
  e.repeats = static_cast<int>(top.integer("repeats", false).value_or(1));
  if (e.repeats < 1 || e.repeats > 100) top.problem("repeats", "must be from 1 to 100");
  e.timeout_s = top.number("timeout_s", false).value_or(600);
  if (!(e.timeout_s >= 1 && e.timeout_s <= 86400)) top.problem("timeout_s", "must be from 1 to 86400 seconds");
  e.baseline = top.str("baseline", false).value_or("");
  e.topic = top.str("topic", false).value_or("");
  for_each_map(top, "variants", true, [&](MapReader& m) { e.variants.push_back(read_variant(m)); });
  for_each_map(top, "metrics", true, [&](MapReader& m) { e.metrics.push_back(read_metric(m)); });
  for_each_map(top, "predictions", false, [&](MapReader& m) { e.predictions.push_back(read_prediction(m)); });
}

}  // namespace

Experiment parse_experiment(const std::string& text, const std::string& name, const std::string& display) {
  Problems problems;
  const YAML::Node root = load_yaml_text(text, problems, display);
  Experiment e;
  e.name = name;
  e.text = text;
  if (!root.IsDefined() || root.IsNull()) {
    if (problems.empty()) problems.add(display, 0, "", "is empty: write format_version:, variants: and metrics: (see `workbook experiment new`)");
  } else if (!root.IsMap()) {
    problems.add(display, line_of(root), "", "must be a mapping (format_version:, variants:, metrics:)");
  } else {
    MapReader top(root, display, "", problems);
    read_top(top, e);
    top.finish();
    if (present(root["variants"]) && root["variants"].IsSequence() && e.variants.size() < 2)
      problems.add(display, line_of(root["variants"]), "variants", "an experiment compares two or more variants");
    if (present(root["metrics"]) && root["metrics"].IsSequence() && e.metrics.empty())
      problems.add(display, line_of(root["metrics"]), "metrics", "name at least one metric to read from the output");
    if (!e.baseline.empty() && !e.variant(e.baseline))
      problems.add(display, line_of(root["baseline"]), "baseline", fmt::format("'{}' is not one of the variants", e.baseline));
    check_names(e, display, problems);
    check_measured(e, display, problems);
  }
  problems.throw_if_any();
  if (e.baseline.empty()) e.baseline = e.variants.front().name;
  return e;
}

Experiment load_experiment(const std::filesystem::path& file, const std::string& display_name) {
  const std::string display = display_name.empty() ? file.string() : display_name;
  const auto text = read_file_text(file);
  if (!text) {
    throw UsageError(fmt::format("cannot read the experiment file {}", display),
                     "check the name with `workbook experiment list`, or write one with `workbook experiment new NAME`");
  }
  Experiment e = parse_experiment(*text, file.stem().string(), display);
  e.file = file;
  return e;
}

LabSpec prediction_lab(const Experiment& e) {
  LabSpec lab;
  lab.id = "experiment/" + e.name;
  lab.name = e.name;
  lab.title = e.title.empty() ? e.name : e.title;
  for (const auto& p : e.predictions) lab.predictions.push_back(p.spec);
  return lab;
}

}  // namespace workbook
