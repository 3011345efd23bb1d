// Every lab of the content has an `examiner:` block, and a good and a poor example
// explanation (tests/explain/examples.yaml) that the checker grades as expected on the
// h200-sxm spec sheet: the good one passes every point, the poor one fails both the
// limiting-resource point and the figure point. The examples' figures must be metrics of
// the lab (their units come from the manifest).
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <set>

#include "content/catalog.hpp"
#include "explain/facts.hpp"
#include "explain/feedback.hpp"
#include "specs/gpu_specs.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;

namespace {

std::string unit_of(const LabSpec& lab, const std::string& name) {
  for (const auto* list : {&lab.metrics, &lab.derived}) {
    for (const auto& m : *list) {
      if (m.name == name) return m.unit;
    }
  }
  FAIL("examples.yaml: " << lab.id << " has no metric " << name);
  return "";
}

}  // namespace

TEST_CASE("explain examples: every lab's good explanation passes and its poor one fails", "[explain][content]") {
  const Catalog catalog(WORKBOOK_SOURCE_DIR);
  const auto specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  const GpuSpec* h200 = find_gpu(specs, "h200-sxm");
  REQUIRE(h200);
  Figures device = h200->figures;
  for (const auto& [k, v] : nominal_measured_figures(*h200)) device[k] = v;
  const YAML::Node examples = YAML::LoadFile(std::string(WORKBOOK_SOURCE_DIR) + "/tests/explain/examples.yaml");
  std::set<std::string> seen;
  for (const auto& module : catalog.load_all()) {
    for (const auto& lab : module.labs) {
      INFO(lab.id);
      seen.insert(lab.id);
      REQUIRE(lab.examiner);
      const YAML::Node e = examples[lab.id];
      REQUIRE(e.IsMap());
      std::vector<ExplainFigure> figures;
      for (const auto& kv : e["figures"]) {
        const std::string name = kv.first.as<std::string>();
        figures.push_back({name, unit_of(lab, name), kv.second.as<double>()});
      }
      Figures params;
      for (const auto& p : lab.params) params[p.name] = p.default_value;
      const ExplainFacts facts = explain_facts(lab, figures, device, params, false);
      const Feedback good = explanation_feedback(*lab.examiner, e["good"].as<std::string>(), facts);
      INFO("good:\n" << feedback_text(good));
      CHECK(good.all_ok());
      const Feedback poor = explanation_feedback(*lab.examiner, e["poor"].as<std::string>(), facts);
      INFO("poor:\n" << feedback_text(poor));
      CHECK_FALSE(poor.point("bound")->ok);
      CHECK_FALSE(poor.point("figure")->ok);
    }
  }
  for (const auto& kv : examples) CHECK(seen.count(kv.first.as<std::string>()) == 1);  // no stale entry
}
