// The examiner's points on an explanation (see feedback.hpp).
#include "explain/feedback.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "content/examiner.hpp"
#include "explain/cited_numbers.hpp"
#include "explain/text_words.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

std::optional<double> value_of(const std::string& expr, const Figures& scope) {
  if (expr.empty()) return std::nullopt;
  try {
    for (const auto& v : variables_of(expr)) {
      if (!scope.count(v)) return std::nullopt;
    }
    return evaluate(expr, scope);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Three significant figures, but a whole number of four to nine digits as it is (a
// learner who measured 1000 reads 1000, never 1e+03).
std::string number(double v) {
  const double a = v < 0 ? -v : v;
  if (a >= 1000 && a < 1e9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

std::string with_unit(double v, const std::string& unit) {
  if (unit.empty() || unit == "count") return number(v);
  return number(v) + (unit == "%" || unit == "x" ? "" : " ") + unit;
}

// The resource the run says limits it, and the evidence: the roofline position when the
// lab is a memory/compute one with an intensity and the GPU's ridge is known.
struct Truth {
  std::string bound, evidence;
};

Truth limiting_resource(const ExplainSpec& spec, const ExplainFacts& facts) {
  Truth t{spec.bound, ""};
  if (spec.bound != "memory" && spec.bound != "compute") return t;
  const auto intensity = value_of(spec.intensity, facts.scope);
  const auto ridge = value_of("fp32_tflops * 1000 / dram_gbps", facts.scope);
  if (!intensity || !ridge || *ridge <= 0) return t;
  t.bound = *intensity < *ridge ? "memory" : "compute";
  const double r = *intensity / *ridge;
  const char* where = r < 0.25 ? "far left of" : r < 1 ? "left of" : r > 4 ? "far right of" : "right of";
  t.evidence = fmt::format("intensity {} FLOP/byte is {} this GPU's ridge at {} FLOP/byte ({})", number(*intensity),
                           where, number(*ridge), facts.basis);
  return t;
}

FeedbackPoint bound_point(const ExplainSpec& spec, const std::string& normal, const ExplainFacts& facts) {
  const Truth truth = limiting_resource(spec, facts);
  const ResourceWords words = resource_words(spec);
  std::vector<std::string> right_words;
  std::string claimed;
  for (const auto& [resource, list] : words) {
    const auto hits = find_words(normal, list);
    if (resource == truth.bound) right_words = list;
    else if (claimed.empty() && first_claim(hits)) claimed = resource;
  }
  const bool named = first_claim(find_words(normal, right_words)) != nullptr;
  const std::string why = truth.evidence.empty() ? "" : truth.evidence + ": ";
  if (named)
    return {"bound", true, fmt::format("Names the limiting resource, {}{}.", truth.bound,
                                       truth.evidence.empty() ? "" : " (" + truth.evidence + ")")};
  std::string examples;
  for (std::size_t i = 0; i < right_words.size() && i < 3; ++i) examples += (i ? ", " : "") + right_words[i];
  if (!claimed.empty())
    return {"bound", false, fmt::format("You say {}; {}{} is what limits it (say so: {}).", claimed, why, truth.bound, examples)};
  return {"bound", false, fmt::format("Name the limiting resource: {}{} (words such as {}).", why, truth.bound, examples)};
}

struct Cited {
  const NumberToken* number = nullptr;
  const ExplainFigure* figure = nullptr;
};

// The figure of the run a number is (the nearest within 10 %: the lab's figures that
// matter first, then the others), or nullptr.
const ExplainFigure* figure_cited(const NumberToken& n, const ExplainSpec& spec, const ExplainFacts& facts) {
  for (int pass = 0; pass < 2; ++pass) {
    const ExplainFigure* best = nullptr;
    double best_error = 0.1;
    for (const auto& f : facts.figures) {
      const bool key = std::find(spec.figures.begin(), spec.figures.end(), f.name) != spec.figures.end();
      const auto e = cite_error(n, f.value, f.unit);
      if ((pass == 0) != key || !e || *e > best_error || (best && *e == best_error)) continue;
      best = &f;  // the nearest; on a tie, the first
      best_error = *e;
    }
    if (best) return best;
  }
  return nullptr;
}

// Every number that is a figure of the run, those of the figures that matter first.
std::vector<Cited> cited_figures(const std::vector<NumberToken>& numbers, const ExplainSpec& spec,
                                 const ExplainFacts& facts) {
  std::vector<Cited> key, other;
  for (const auto& n : numbers) {
    const ExplainFigure* f = figure_cited(n, spec, facts);
    if (!f) continue;
    const bool is_key = std::find(spec.figures.begin(), spec.figures.end(), f->name) != spec.figures.end();
    (is_key ? key : other).push_back({&n, f});
  }
  key.insert(key.end(), other.begin(), other.end());
  return key;
}

// A percentage `n` that is the figure's share of the ceiling `v` (in the ceiling's unit).
bool share_of(const NumberToken& n, const ExplainFigure& figure, double v, const std::string& unit) {
  const auto fu = find_unit(figure.unit), cu = find_unit(unit);
  if (!fu || !cu || fu->dimension != cu->dimension || !n.unit || n.unit->symbol != "%") return false;
  for (double in_ceiling_unit : convert(figure.value, *fu, *cu)) {
    if (cites(n, in_ceiling_unit / v * 100, "%", 0.15)) return true;
  }
  return false;
}

// The ceiling the cited figure is compared with: a ceiling's value cited, a percentage of
// one, or a share figure (unit %) of the run cited. Empty when none.
std::string ceiling_cited(const std::vector<NumberToken>& numbers, const Cited& c,
                          const std::vector<ExplainCeiling>& ceilings, const ExplainFacts& facts) {
  if (c.figure->unit == "%") return "a share of its ceiling";
  for (const auto& n : numbers) {
    if (&n == c.number) continue;
    for (const auto& f : facts.figures) {
      if (f.unit == "%" && cites(n, f.value, "%")) return fmt::format("{} ({})", typed(n), f.name);
    }
    for (const auto& ceiling : ceilings) {
      const auto v = value_of(ceiling.expr, facts.scope);
      if (!v || *v <= 0) continue;
      if (cites(n, *v, ceiling.unit)) return fmt::format("{} ({})", typed(n), ceiling.expr);
      if (share_of(n, *c.figure, *v, ceiling.unit)) return fmt::format("{} of {}", typed(n), ceiling.expr);
    }
  }
  return "";
}

std::string figures_list(const ExplainSpec& spec, const ExplainFacts& facts) {
  std::string out;
  int shown = 0;
  for (const auto& name : spec.figures) {
    for (const auto& f : facts.figures) {
      if (f.name != name || shown == 3) continue;
      out += (shown++ ? ", " : "") + f.name + " = " + with_unit(f.value, f.unit);
    }
  }
  return out.empty() ? "none of its figures" : out;
}

std::string cited_text(const Cited& c) {
  return fmt::format("{} ({}, measured {})", typed(*c.number), c.figure->name, with_unit(c.figure->value, c.figure->unit));
}

FeedbackPoint figure_point(const ExplainSpec& spec, const std::string& text, const ExplainFacts& facts,
                           const std::string& bound) {
  const auto numbers = numbers_in(text);
  const std::vector<Cited> cited = cited_figures(numbers, spec, facts);
  if (cited.empty()) {
    const auto wrong = std::find_if(numbers.begin(), numbers.end(), [](const NumberToken& n) { return n.unit.has_value(); });
    if (wrong != numbers.end())
      return {"figure", false, fmt::format("{} is no figure of this run: it measured {}.", typed(*wrong), figures_list(spec, facts))};
    return {"figure", false, fmt::format("Cite a measured figure with its unit: this run measured {}.", figures_list(spec, facts))};
  }
  const auto ceilings = spec.ceilings ? *spec.ceilings : default_ceilings(bound);
  std::vector<std::string> known;
  for (const auto& ceiling : ceilings) {
    if (auto v = value_of(ceiling.expr, facts.scope)) known.push_back(ceiling.expr + " = " + with_unit(*v, ceiling.unit));
  }
  if (known.empty()) return {"figure", true, fmt::format("Cites {}.", cited_text(cited.front()))};
  for (const auto& c : cited) {
    const std::string against = ceiling_cited(numbers, c, ceilings, facts);
    if (!against.empty()) return {"figure", true, fmt::format("Cites {} against {}.", cited_text(c), against)};
  }
  return {"figure", false, fmt::format("Cites {}, but not the ceiling it meets: {} on this GPU ({}).",
                                       cited_text(cited.front()), known.front(), facts.basis)};
}

FeedbackPoint amdahl_point(const ExplainAmdahl& a, const std::string& normal, const ExplainFacts& facts) {
  std::vector<std::string> words = a.words;
  for (const char* w : {"amdahl", "serial", "did not speed up", "didn't speed up", "does not speed up", "unchanged",
                        "not sped up", "fixed cost"})
    words.push_back(w);
  const auto hits = find_words(normal, words);
  if (!hits.empty()) return {"amdahl", true, fmt::format("Accounts for the part that did not speed up ({}).", hits.front().word)};
  const auto s = value_of(a.speedup, facts.scope);
  const auto u = value_of(a.unchanged, facts.scope);
  std::string cap;
  if (u && *u > 0 && *u <= 1)
    cap = fmt::format(", {} % of the time, which caps the speed-up at {}x", number(*u * 100), number(1 / *u));
  return {"amdahl", false, fmt::format("A {} speed-up needs its Amdahl account: say what did not speed up ({}{}).",
                                       s ? number(*s) + "x" : a.speedup, a.words.front(), cap)};
}

}  // namespace

bool Feedback::all_ok() const {
  return std::all_of(points.begin(), points.end(), [](const FeedbackPoint& p) { return p.ok; });
}

const FeedbackPoint* Feedback::point(const std::string& rule) const {
  for (const auto& p : points) {
    if (p.rule == rule) return &p;
  }
  return nullptr;
}

Feedback explanation_feedback(const ExplainSpec& spec, const std::string& text, const ExplainFacts& facts) {
  Feedback f;
  if (text.find_first_not_of(" \t\n") == std::string::npos) return f;
  const std::string normal = normal_text(text);
  f.points.push_back(bound_point(spec, normal, facts));
  f.points.push_back(figure_point(spec, text, facts, limiting_resource(spec, facts).bound));
  if (spec.amdahl) f.points.push_back(amdahl_point(*spec.amdahl, normal, facts));
  return f;
}

std::string feedback_text(const Feedback& feedback) {
  std::string out;
  for (const auto& p : feedback.points) out += (out.empty() ? "" : "\n") + std::string(p.ok ? "✓ " : "✗ ") + p.line;
  return out;
}

}  // namespace workbook
