// A run report as JSON (see report_json.hpp).
#include "run/report_json.hpp"

#include "profile/profile_json.hpp"
#include "util/utf8.hpp"

namespace workbook {

using nlohmann::json;

json report_json(const RunReport& r) {
  json j;
  j["lab"] = r.lab.id;
  j["variant"] = to_string(r.variant);
  j["source"] = r.source.string();
  j["run_id"] = r.run_id;
  j["verdict"] = to_string(r.grade.verdict);
  j["reason"] = r.grade.verdict_reason;
  j["device"] = r.device;
  j["figures_source"] = r.figures_source;
  j["arch"] = r.arch;
  j["seed"] = r.seed;
  j["params"] = r.params;
  j["build"] = {{"ok", r.built}, {"cached", r.build_cached}, {"command", r.build_command},
                {"diagnostics", r.build_diagnostics}};
  j["compile_error_kind"] = r.compile_error_kind.empty() ? json() : json(r.compile_error_kind);
  j["process"] = {{"ran", r.ran}, {"summary", r.process_summary}, {"wall_s", r.wall_s}, {"stdout", r.out},
                  {"stderr", r.err}, {"errors", r.errors}, {"protocol_problems", r.protocol_problems}};
  j["checks"] = json::array();
  for (const auto& c : r.grade.checks) {
    j["checks"].push_back({{"name", c.name}, {"pass", c.pass}, {"reported", c.reported},
                           {"skipped", c.skipped}, {"required", c.required},
                           {"value", c.value ? json(*c.value) : json()}, {"limit", c.limit ? json(*c.limit) : json()},
                           {"detail", c.detail}});
  }
  j["metrics"] = json::array();
  for (const auto& m : r.grade.metrics) {
    json mj = {{"name", m.name}, {"unit", m.unit}, {"derived", m.derived},
               {"value", m.value ? json(*m.value) : json()}, {"expected_min", m.lo ? json(*m.lo) : json()},
               {"expected_max", m.hi ? json(*m.hi) : json()}, {"status", to_string(m.status)},
               {"note", m.note}, {"reference", m.reference}, {"basis", to_string(m.basis)}, {"basis_note", m.basis_note}};
    if (m.stats && m.stats->samples) {
      mj["samples"] = *m.stats->samples;
      mj["min"] = m.stats->min ? json(*m.stats->min) : json();
      mj["max"] = m.stats->max ? json(*m.stats->max) : json();
      mj["spread"] = m.stats->spread ? json(*m.stats->spread) : json();
    }
    j["metrics"].push_back(mj);
  }
  j["predictions"] = json::array();
  for (const auto& p : r.grade.predictions.empty() && !r.ran ? std::vector<PredictionGrade>{} : r.grade.predictions) {
    j["predictions"].push_back({{"id", p.id}, {"kind", to_string(p.kind)}, {"answer", p.answer},
                                {"measured", p.measured ? json(*p.measured) : json()},
                                {"factor", p.factor ? json(*p.factor) : json()}, {"band", p.band},
                                {"score", p.score}, {"max_score", p.max_score},
                                {"correct", p.correct ? json(*p.correct) : json()},
                                {"right_answer", p.right_answer}, {"note", p.note}});
  }
  if (!r.ran) {
    for (const auto& p : r.predictions) j["predictions"].push_back({{"id", p.id}, {"answer", p.text}});
  }
  j["next_step"] = r.next_step;
  make_valid_utf8(j);  // the lab's output, compiler messages and paths are untrusted bytes
  return j;
}

json run_report_json(const RunReport& r) {
  json j = report_json(r);
  j["profile"] = profile_json(r.profile);
  return j;
}

}  // namespace workbook
