// Exercise bank loading and validation (see exercises.hpp).
#include "content/exercises.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "content/lab_id.hpp"
#include "model/expr.hpp"
#include "util/error.hpp"

namespace workbook {

const char* to_string(ItemKind k) {
  switch (k) {
    case ItemKind::recall: return "recall";
    case ItemKind::explain: return "explain";
    case ItemKind::apply: return "apply";
  }
  return "?";
}

namespace {

const std::regex kIdPattern("^[a-z0-9][a-z0-9-]{0,63}$");


std::vector<NumericAnswer> read_numeric(MapReader& r) {
  std::vector<NumericAnswer> out;
  for_each_map(r, "numeric", false, [&](MapReader& n) {
    NumericAnswer a;
    a.name = n.str("name", true).value_or("");
    if (!a.name.empty() && !is_valid_name(a.name)) n.problem("name", "must be [a-z][a-z0-9_]*");
    a.value = n.number("value", true).value_or(0);
    a.unit = n.str("unit", false).value_or("");
    a.rel_tol = n.number("rel_tol", false).value_or(0.01);
    a.abs_tol = n.number("abs_tol", false);
    if (a.rel_tol < 0 || (a.abs_tol && *a.abs_tol < 0)) n.problem("rel_tol", "tolerances must not be negative");
    for (const auto& other : out) {
      if (other.name == a.name) n.problem("name", fmt::format("'{}' appears twice", a.name));
    }
    out.push_back(a);
  });
  return out;
}

std::optional<Variant> read_variant(MapReader& r, const std::vector<NumericAnswer>& numeric) {
  YAML::Node node = r.node("variant");
  if (!present(node)) return std::nullopt;
  MapReader v(node, r.file(), r.path("variant"), r.problems());
  Variant out;
  std::set<std::string> names;
  if (YAML::Node params = v.node("params"); params.IsMap()) {
    for (const auto& kv : params) {
      VariantParam p{kv.first.Scalar(), {}};
      MapReader pr(kv.second, v.file(), v.path("params." + p.name), v.problems());
      if (!is_valid_name(p.name)) pr.problem("", "parameter names must be [a-z][a-z0-9_]*");
      if (YAML::Node values = pr.node("values"); values.IsSequence()) {
        for (const auto& x : values) {
          if (auto d = scalar_number(x)) p.values.push_back(*d);
          else pr.problem("values", "must be numbers");
        }
      } else {
        auto lo = pr.number("min", true), hi = pr.number("max", true), step = pr.number("step", false);
        double st = step.value_or(1);
        if (lo && hi && st > 0 && *hi >= *lo && (*hi - *lo) / st <= 10000) {
          for (double x = *lo; x <= *hi + st * 1e-9; x += st) p.values.push_back(x);
        } else if (lo && hi) {
          pr.problem("", "needs `values`, or min <= max with a positive step (at most 10000 values)");
        }
      }
      if (p.values.empty() && pr.ok()) pr.problem("", "has no values");
      pr.finish();
      names.insert(p.name);
      out.params.push_back(p);
    }
  } else {
    v.problem("params", "must be a mapping of parameter: {values: [...]} or {min, max, step}");
  }
  out.prompt = v.str("prompt", true).value_or("");
  static const std::regex placeholder("\\{([A-Za-z0-9_]+)\\}");
  for (auto it = std::sregex_iterator(out.prompt.begin(), out.prompt.end(), placeholder); it != std::sregex_iterator(); ++it) {
    if (!names.count((*it)[1])) v.problem("prompt", fmt::format("{{{}}} is not a parameter", (*it)[1].str()));
  }
  if (YAML::Node answers = v.node("answers"); answers.IsMap()) {
    for (const auto& kv : answers) {
      std::string name = kv.first.Scalar();
      std::string formula = kv.second.IsScalar() ? kv.second.Scalar() : "";
      bool declared = std::any_of(numeric.begin(), numeric.end(), [&](const NumericAnswer& n) { return n.name == name; });
      if (!declared) v.problem("answers", fmt::format("'{}' is not one of the item's numeric answers", name));
      try {
        for (const auto& var : variables_of(formula)) {
          if (!names.count(var)) v.problem("answers", fmt::format("{}: '{}' is not a parameter", name, var));
        }
      } catch (const Error& e) {
        v.problem("answers", e.what());
      }
      out.answers.emplace_back(name, formula);
    }
  } else {
    v.problem("answers", "must map each numeric answer's name to a formula");
  }
  v.finish();
  return out;
}

}  // namespace

ExerciseBank read_exercises(const std::filesystem::path& file, int module, const std::string& display,
                            Problems& problems) {
  ExerciseBank bank;
  bank.module = module;
  YAML::Node root = load_yaml_file(file, problems, display);
  if (!present(root)) {
    if (root.IsDefined()) problems.add(display, 0, "", "is empty");  // undefined: already reported
    return bank;
  }
  MapReader r(root, display, "", problems);
  auto version = r.integer("format_version", true);
  if (version && *version != kExercisesFormatVersion) {
    r.problem("format_version", fmt::format("is {}, this runner reads version {}", *version, kExercisesFormatVersion));
  }
  auto declared = r.integer("module", true);
  if (declared && *declared != module) r.problem("module", fmt::format("says {} but the file is for module {}", *declared, module));
  std::set<std::string> ids;
  for_each_map(r, "items", true, [&](MapReader& ir) {
    ExerciseItem item;
    item.line = ir.line();
    item.id = ir.str("id", true).value_or("");
    if (!item.id.empty() && !std::regex_match(item.id, kIdPattern)) ir.problem("id", "must be [a-z0-9-]+");
    if (!item.id.empty() && !ids.insert(item.id).second) ir.problem("id", fmt::format("'{}' appears twice", item.id));
    std::string kind = ir.str("kind", true).value_or("");
    if (kind == "recall") item.kind = ItemKind::recall;
    else if (kind == "explain") item.kind = ItemKind::explain;
    else if (kind == "apply") item.kind = ItemKind::apply;
    else if (!kind.empty()) ir.problem("kind", "must be recall, explain or apply");
    item.prompt = ir.str("prompt", true).value_or("");
    item.answer = ir.str("answer", true).value_or("");
    item.key_points = ir.str_list("key_points", false);
    item.numeric = read_numeric(ir);
    item.variant = read_variant(ir, item.numeric);
    bank.items.push_back(std::move(item));
  });
  for_each_map(r, "worked_examples", false, [&](MapReader& wr) {
    WorkedExample ex;
    ex.id = wr.str("id", true).value_or("");
    if (!ex.id.empty() && !ids.insert(ex.id).second) wr.problem("id", fmt::format("'{}' appears twice", ex.id));
    ex.title = wr.str("title", true).value_or("");
    ex.problem = wr.str("problem", true).value_or("");
    if (YAML::Node st = wr.node("steps"); st.IsSequence() && st.size() == 0) wr.problem("steps", "needs at least one step");
    for_each_map(wr, "steps", true, [&](MapReader& sr) {
      WorkedStep step;
      step.prompt = sr.str("prompt", true).value_or("");
      step.answer = sr.str("answer", true).value_or("");
      step.numeric = read_numeric(sr);
      ex.steps.push_back(std::move(step));
    });
    bank.worked_examples.push_back(std::move(ex));
  });
  for_each_map(r, "drills", false, [&](MapReader& dr) {
    DrillItem d;
    d.id = dr.str("id", true).value_or("");
    if (!d.id.empty() && !std::regex_match(d.id, kIdPattern)) dr.problem("id", "must be [a-z0-9-]+");
    if (!d.id.empty() && !ids.insert(d.id).second) dr.problem("id", fmt::format("'{}' appears twice", d.id));
    d.question = dr.str("question", true).value_or("");
    for (const auto& m : dr.str_list("modules", true)) {
      try {
        int n = std::stoi(m);
        if (n < 1 || n > 24) throw std::out_of_range(m);
        d.modules.push_back(n);
      } catch (const std::exception&) {
        dr.problem("modules", fmt::format("'{}' is not a module number 1-24", m));
      }
    }
    d.covers = dr.str_list("covers", true);
    if (d.covers.empty() && dr.ok()) dr.problem("covers", "needs at least one point");
    d.seconds = static_cast<int>(dr.integer("seconds", false).value_or(60));
    if (d.seconds < 10 || d.seconds > 600) dr.problem("seconds", "must be between 10 and 600");
    bank.drills.push_back(std::move(d));
  });
  bank.weekly_from = r.str("weekly_from", false).value_or("");
  static const std::regex kDate("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
  if (!bank.weekly_from.empty() && !std::regex_match(bank.weekly_from, kDate))
    r.problem("weekly_from", "must be a date written YYYY-MM-DD");
  r.finish();
  return bank;
}

}  // namespace workbook
