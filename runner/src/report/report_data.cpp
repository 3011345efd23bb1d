// Gathering and writing a report (see report_data.hpp).
#include "report/report_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "content/lab_id.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {

namespace fs = std::filesystem;

namespace {

// The latest pass among `runs` (oldest first), else the latest finished run, else the latest.
const RunRow* latest_best(const std::vector<const RunRow*>& runs) {
  const RunRow* finished = nullptr;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    if ((*it)->verdict == "pass") return *it;
    if (!finished && (*it)->verdict != "unfinished") finished = *it;
  }
  if (finished) return finished;
  return runs.empty() ? nullptr : runs.back();
}

}  // namespace

bool at_default_params(const std::string& params_json, const Figures& defaults) {
  const nlohmann::json j = nlohmann::json::parse(params_json, nullptr, false);
  if (!j.is_object()) return false;
  return std::all_of(defaults.begin(), defaults.end(), [&](const auto& kv) {
    auto it = j.find(kv.first);
    return it != j.end() && it->is_number() && it->template get<double>() == kv.second;
  });
}

const RunRow* run_to_show(const std::vector<RunRow>& runs, const std::optional<Figures>& defaults) {
  std::vector<const RunRow*> mine, all;
  for (const auto& r : runs) {
    all.push_back(&r);
    if (r.variant == "starter" || r.variant == "file") mine.push_back(&r);
  }
  const std::vector<const RunRow*>& pool = mine.empty() ? all : mine;
  if (defaults) {
    std::vector<const RunRow*> graded;
    for (const RunRow* r : pool) {
      if (at_default_params(r->params, *defaults)) graded.push_back(r);
    }
    const RunRow* best = latest_best(graded);
    if (best && best->verdict != "unfinished") return best;
  }
  return latest_best(pool);
}

std::optional<plot::Roof> roof_for(const std::string& gpu, const std::optional<CalibrationRow>& calibration,
                                   const GpuSpec* spec) {
  plot::Roof roof;
  roof.gpu = gpu;
  if (calibration) {
    auto f = calibration->figures.find("fp32_tflops"), b = calibration->figures.find("d2d_gbps");
    if (f != calibration->figures.end() && b != calibration->figures.end() && f->second > 0 && b->second > 0) {
      roof.peak_gflops = f->second * 1e3;
      roof.peak_gbps = b->second;
      roof.source = "calibrated " + calibration->measured_at.substr(0, 10);
      return roof;
    }
  }
  if (spec) {
    auto f = spec->figures.find("fp32_tflops"), b = spec->figures.find("dram_gbps");
    if (f != spec->figures.end() && b != spec->figures.end() && f->second > 0 && b->second > 0) {
      roof.peak_gflops = f->second * 1e3;
      roof.peak_gbps = b->second;
      roof.source = "spec sheet " + spec->id + ", not calibrated";
      return roof;
    }
  }
  return std::nullopt;
}

namespace {

// The lab's default parameters, as a run at them records them.
std::optional<Figures> default_params(const LabSpec* spec) {
  if (!spec) return std::nullopt;
  Figures f;
  for (const auto& p : spec->params) f[p.name] = p.default_value;
  return f;
}

// An explanation belongs to the run it was given with and is shown only with that run's
// figures. When the run chosen to show has none, a run like it (same kind of source, same
// verdict, same parameters) that was explained is shown instead, the latest such.
const RunRow& explained_alike(Journal& journal, const RunRow& shown, const std::vector<RunRow>& runs) {
  if (!explanations_of_run(journal, shown.id).empty()) return shown;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    const bool alike = it->variant == shown.variant && it->verdict == shown.verdict && it->params == shown.params;
    if (alike && !explanations_of_run(journal, it->id).empty()) return *it;
  }
  return shown;
}

// Marks a choice answer an older workbook recorded that may not be what was meant
// (grade.hpp's unclear_choice_note): the report says so instead of its old grade.
void note_unclear_choices(const LabSpec& spec, std::vector<PredictionRow>& rows) {
  for (auto& row : rows) {
    for (const auto& p : spec.predictions) {
      if (p.id == row.id && p.kind == PredictionKind::choice) row.unclear = unclear_choice_note(p.choices, row.answer, row.entered);
    }
  }
}

std::vector<RunRow> explained_elsewhere(Journal& journal, const RunRow& shown, const std::vector<RunRow>& runs) {
  std::vector<RunRow> out;
  for (const auto& r : runs) {
    if (r.id != shown.id && !explanations_of_run(journal, r.id).empty()) out.push_back(r);
  }
  return out;
}

std::string normalised_scope(const Catalog& catalog, const std::string& scope) {
  if (scope.empty()) return "";
  const LabRef ref = parse_lab_ref_or_throw(scope);
  if (ref.name.empty()) return ref.module_id();
  catalog.find_lab(ref);  // throws UsageError naming the labs there are
  return ref.id();
}

std::string file_slug(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : '-';
  return out;
}

// The machine line of `gpu`: its calibration and spec sheet, and the machine as recorded
// with the newest of the report's runs on it.
MachineLine machine_of(Journal& journal, const std::vector<GpuSpec>& specs, const std::string& gpu,
                       const std::vector<LabEvidence>& labs) {
  MachineLine m;
  m.gpu = gpu;
  m.calibration = latest_calibration_named(journal, gpu);
  if (const GpuSpec* s = match_gpu(specs, gpu)) m.spec_id = s->id;
  for (const auto& lab : labs) {
    if (lab.run.device != gpu) continue;
    if (std::find(m.arches.begin(), m.arches.end(), lab.run.arch) == m.arches.end()) m.arches.push_back(lab.run.arch);
    if (lab.run.id > m.run_id) {
      m.run_id = lab.run.id;
      m.run_at = lab.run.started_at;
    }
  }
  m.machine = machine_of_run(journal, m.run_id);
  MachineFacts facts = machine_facts(m.machine);
  m.recorded = std::move(facts.recorded);
  m.missing = std::move(facts.missing);
  return m;
}

void add_roofs(const std::vector<GpuSpec>& specs, ReportData& data) {
  for (const auto& machine : data.machines) {
    const GpuSpec* spec = machine.spec_id.empty() ? nullptr : find_gpu(specs, machine.spec_id);
    std::vector<plot::RoofPoint> points;
    for (const auto& lab : data.labs) {
      if (lab.run.device != machine.gpu) continue;
      for (const auto& k : lab.kernels.placed) points.push_back({lab.lab + ": " + k.stem, k.intensity, k.gflops});
    }
    if (points.empty()) continue;
    auto roof = roof_for(machine.gpu, machine.calibration, spec);
    if (!roof) {
      data.notes.push_back(fmt::format("{}: no roof (neither a calibration nor a spec sheet gives its FP32 rate and bandwidth), so {} kernel(s) are not drawn",
                                       machine.gpu, points.size()));
      continue;
    }
    data.roofs.push_back({*roof, points, "roofline-" + file_slug(machine.gpu) + ".svg"});
  }
}

}  // namespace

void scope_to_project(ReportData& data, const std::vector<int>& topic_modules, Ledger ledger) {
  data.scope = "project";
  data.ledger = std::move(ledger);
  data.ledger_svg.clear();
  for (const auto& e : data.ledger.entries)
    if (e.log2_ratio) data.ledger_svg = "ledger.svg";
  auto outside = [&](const LabEvidence& e) {
    const auto ref = parse_lab_ref(e.lab);
    const bool topic = ref && std::find(topic_modules.begin(), topic_modules.end(), ref->module) != topic_modules.end();
    return !topic || e.run.verdict == "not_run" || e.run.verdict == "unfinished" || e.metrics.empty();
  };
  data.labs.erase(std::remove_if(data.labs.begin(), data.labs.end(), outside), data.labs.end());
  auto unused = [&](const MachineLine& m) {
    return std::none_of(data.labs.begin(), data.labs.end(), [&](const LabEvidence& e) { return e.run.device == m.gpu; });
  };
  data.machines.erase(std::remove_if(data.machines.begin(), data.machines.end(), unused), data.machines.end());
}

ReportData collect_report(Journal& journal, const Catalog& catalog, const std::string& scope, const std::string& now) {
  ReportData data;
  data.scope = normalised_scope(catalog, scope);
  data.generated_at = now;
  std::map<std::string, std::vector<RunRow>> by_lab;
  for (auto& r : runs_in_scope(journal, data.scope)) by_lab[r.lab].push_back(r);
  std::vector<std::string> gpus;
  for (const auto& [lab, runs] : by_lab) {
    LabEvidence e;
    e.lab = lab;
    const LabSpec* spec = catalog.lab_or_null(lab);
    e.title = spec ? spec->title : "";
    e.run = explained_alike(journal, *run_to_show(runs, default_params(spec)), runs);
    e.runs_total = static_cast<int>(runs.size());
    e.metrics = metrics_of_run(journal, e.run.id);
    e.predictions = predictions_of_run(journal, e.run.id);
    if (spec) note_unclear_choices(*spec, e.predictions);
    e.explanations = explanations_of_run(journal, e.run.id);
    e.explained_elsewhere = explained_elsewhere(journal, e.run, runs);
    e.kernels = kernels_of(e.metrics);
    for (const auto& n : e.kernels.not_placed) data.notes.push_back(fmt::format("{} (run #{}): {}", lab, e.run.id, n));
    if (!e.run.device.empty() && std::find(gpus.begin(), gpus.end(), e.run.device) == gpus.end()) gpus.push_back(e.run.device);
    data.labs.push_back(std::move(e));
  }
  std::vector<GpuSpec> specs;
  if (const fs::path sheets = catalog.root() / "data" / "gpus.yaml"; fs::is_regular_file(sheets)) specs = load_gpu_specs(sheets);
  for (const auto& gpu : gpus) data.machines.push_back(machine_of(journal, specs, gpu, data.labs));
  add_roofs(specs, data);
  const auto ref = data.scope.empty() ? std::nullopt : parse_lab_ref(data.scope);
  data.ledger = gather_ledger(journal, catalog, ref ? ref->module : 0);
  for (const auto& e : data.ledger.entries) {
    if (e.log2_ratio) data.ledger_svg = "ledger.svg";
  }
  return data;
}

std::vector<fs::path> write_report(const ReportData& data, const fs::path& dir) {
  std::vector<fs::path> written;
  for (const auto& roof : data.roofs) {
    written.push_back(dir / roof.svg_name);
    write_file_text(written.back(), plot::render_svg(plot::roofline_chart(roof.roof, roof.points)));
  }
  for (const auto& [name, text] : data.extra_files) {
    written.push_back(dir / name);
    write_file_text(written.back(), text);
  }
  if (!data.ledger_svg.empty()) {
    written.push_back(dir / data.ledger_svg);
    write_file_text(written.back(), plot::render_svg(ledger_chart(data.ledger)));
  }
  written.push_back(dir / "report.md");
  write_file_text(written.back(), render_markdown(data));
  return written;
}

}  // namespace workbook
