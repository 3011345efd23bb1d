// The `examiner:` block of a lab (see examiner.hpp).
#include "content/examiner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "model/expr.hpp"
#include "model/figures.hpp"
#include "util/error.hpp"
#include "util/quantity.hpp"

namespace workbook {

namespace {

// Lower case, with '-' and '_' read as spaces: "Memory-bound" and "memory bound" are one word.
std::string normal_word(const std::string& w) {
  std::string out;
  for (char c : w) {
    const char d = (c == '-' || c == '_') ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (d == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += d;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The names an examiner expression may use: device figures, parameters, vars, metrics.
std::set<std::string> known_names(const LabSpec& lab) {
  std::set<std::string> known(device_figure_names().begin(), device_figure_names().end());
  for (const auto& p : lab.params) known.insert(p.name);
  for (const auto& v : lab.vars) known.insert(v.name);
  for (const auto& m : lab.metrics) known.insert(m.name);
  for (const auto& m : lab.derived) known.insert(m.name);
  return known;
}

void check_expression(MapReader& r, const std::string& key, const std::string& expr, const std::set<std::string>& known) {
  try {
    for (const auto& v : variables_of(expr)) {
      if (!known.count(v)) r.problem(key, fmt::format("'{}' uses '{}', which is no device figure, parameter, var or metric of this lab", expr, v));
    }
  } catch (const Error& e) {
    r.problem(key, fmt::format("'{}': {}", expr, e.what()));
  }
}

bool is_metric(const LabSpec& lab, const std::string& name) {
  auto named = [&](const MetricSpec& m) { return m.name == name; };
  return std::any_of(lab.metrics.begin(), lab.metrics.end(), named) ||
         std::any_of(lab.derived.begin(), lab.derived.end(), named);
}

// `words: {resource: [word, ...]}`.
void read_words(MapReader& r, ExplainSpec& s) {
  YAML::Node w = r.node("words");
  if (!present(w)) return;
  if (!w.IsMap()) {
    r.problem("words", "must map each resource to its words, e.g. {memory: [DRAM, bandwidth]}");
    return;
  }
  for (const auto& kv : w) {
    const std::string resource = kv.first.Scalar();
    std::vector<std::string> words;
    if (kv.second.IsSequence()) {
      for (const auto& item : kv.second) {
        if (item.IsScalar() && !normal_word(item.Scalar()).empty()) words.push_back(normal_word(item.Scalar()));
      }
    }
    if (words.empty() || !kv.second.IsSequence() || words.size() != kv.second.size())
      r.problem("words." + resource, "must be a list of non-empty words, e.g. [DRAM, bandwidth]");
    s.words.emplace_back(normal_word(resource), words);
  }
}

// `ceilings: {expression: unit}`.
void read_ceilings(MapReader& r, ExplainSpec& s, const std::set<std::string>& known) {
  YAML::Node c = r.node("ceilings");
  if (!present(c)) return;
  if (!c.IsMap()) {
    r.problem("ceilings", "must map each ceiling to its unit, e.g. {dram_gbps: GB/s}");
    return;
  }
  s.ceilings.emplace();
  for (const auto& kv : c) {
    ExplainCeiling ceiling{kv.first.Scalar(), kv.second.IsScalar() ? kv.second.Scalar() : ""};
    check_expression(r, "ceilings", ceiling.expr, known);
    if (!find_unit(ceiling.unit))
      r.problem("ceilings", fmt::format("'{}': '{}' is not a unit the runner reads (ms, GB/s, TFLOP/s, ...)", ceiling.expr, ceiling.unit));
    s.ceilings->push_back(ceiling);
  }
}

void read_amdahl(MapReader& r, const LabSpec& lab, ExplainSpec& s, const std::set<std::string>& known) {
  YAML::Node n = r.node("amdahl");
  if (!present(n)) return;
  MapReader ar(n, r.file(), r.path("amdahl"), r.problems());
  ExplainAmdahl a;
  a.line = line_of(n);
  a.speedup = ar.str("speedup", true).value_or("");
  if (!a.speedup.empty() && !is_metric(lab, a.speedup))
    ar.problem("speedup", fmt::format("'{}' is not a metric or derived metric of this lab", a.speedup));
  a.unchanged = ar.str("unchanged", false).value_or("");
  if (!a.unchanged.empty()) check_expression(ar, "unchanged", a.unchanged, known);
  for (const auto& w : ar.str_list("words", true)) a.words.push_back(normal_word(w));
  if (ar.ok() && a.words.empty()) ar.problem("words", "needs the words that name the part that did not speed up");
  ar.finish();
  s.amdahl = a;
}

}  // namespace

const ResourceWords& builtin_resource_words() {
  static const ResourceWords words = {
      {"memory", {"memory bound", "bandwidth bound", "memory bandwidth", "dram", "hbm", "gddr", "memory traffic",
                  "bytes moved", "bandwidth"}},
      {"compute", {"compute bound", "math bound", "flop rate", "fp32 peak", "fp32 rate", "arithmetic throughput",
                   "compute throughput", "fma rate", "alu bound", "peak flops"}},
      {"latency", {"latency bound", "latency", "round trip", "dependent loads"}},
      {"launch", {"launch overhead", "launch cost", "launch bound", "launch latency", "kernel launch", "launches",
                  "host overhead"}},
      {"pcie", {"pcie", "pci e", "pci express", "host to device", "device to host", "h2d", "d2h", "interconnect"}},
      {"occupancy", {"occupancy", "resident warps", "warps per sm", "blocks per sm", "waves"}},
      {"cache", {"l2", "l1", "cache", "caches", "cache hit"}},
      {"shared", {"shared memory", "bank conflict", "bank conflicts", "banks"}},
      {"issue", {"load issue", "lsu", "load store unit", "issue rate", "load instructions"}},
      {"atomics", {"atomic", "atomics", "atomicadd", "contention"}},
      {"tensor", {"tensor core", "tensor cores", "wmma", "mma"}},
      {"precision", {"rounding", "ulp", "spacing", "mantissa", "significand", "round off"}},
  };
  return words;
}

ResourceWords resource_words(const ExplainSpec& spec) {
  ResourceWords out = spec.words;
  for (const auto& [resource, words] : builtin_resource_words()) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == resource; });
    if (it == out.end()) {
      out.emplace_back(resource, words);
      continue;
    }
    for (const auto& w : words) {
      if (std::find(it->second.begin(), it->second.end(), w) == it->second.end()) it->second.push_back(w);
    }
  }
  return out;
}

std::vector<ExplainCeiling> default_ceilings(const std::string& bound) {
  if (bound == "memory") return {{"dram_gbps", "GB/s"}};
  if (bound == "compute") return {{"fp32_tflops", "TFLOP/s"}};
  if (bound == "pcie") return {{"h2d_pinned_gbps", "GB/s"}};
  if (bound == "launch") return {{"launch_us", "us"}};
  return {};
}

void read_examiner(MapReader& r, LabSpec& lab) {
  YAML::Node n = r.node("examiner");
  if (!present(n)) return;
  MapReader er(n, r.file(), r.path("examiner"), r.problems());
  if (!er.ok()) return;
  const std::set<std::string> known = known_names(lab);
  ExplainSpec s;
  s.line = line_of(n);
  s.bound = normal_word(er.str("bound", true).value_or(""));
  s.figures = er.str_list("figures", true);
  if (er.has("figures") && s.figures.empty()) er.problem("figures", "needs the lab's main figure at least");
  for (const auto& f : s.figures) {
    if (!is_metric(lab, f)) er.problem("figures", fmt::format("'{}' is not a metric or derived metric of this lab", f));
  }
  read_words(er, s);
  s.intensity = er.str("intensity", false).value_or("");
  if (!s.intensity.empty()) check_expression(er, "intensity", s.intensity, known);
  read_ceilings(er, s, known);
  read_amdahl(er, lab, s, known);
  const ResourceWords all = resource_words(s);
  if (!s.bound.empty() && std::none_of(all.begin(), all.end(), [&](const auto& e) { return e.first == s.bound; }))
    er.problem("bound", fmt::format("'{}' has no words: give them under `words: {{{}: [...]}}`", s.bound, s.bound));
  er.finish();
  lab.examiner = s;
}

}  // namespace workbook
