// Loading data/measured/*.yaml (see measured_refs.hpp).
#include "specs/measured_refs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/yaml_reader.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

MeasuredFigure read_figure(const YAML::Node& node, double default_band, const std::string& file,
                           const std::string& field, Problems& problems) {
  MeasuredFigure f{0, default_band};
  if (node.IsScalar()) {
    try {
      f.value = node.as<double>();
    } catch (const YAML::Exception&) {
      problems.add(file, line_of(node), field, "must be a number or {value, band}");
    }
    return f;
  }
  MapReader r(node, file, field, problems);
  f.value = r.number("value", true).value_or(0);
  f.band = r.number("band", false).value_or(default_band);
  r.finish();
  return f;
}

MeasuredRefs read_file(const fs::path& file, const std::string& display, Problems& problems) {
  MeasuredRefs refs;
  YAML::Node root = load_yaml_file(file, problems);
  if (!present(root) || root.IsNull()) return refs;
  MapReader r(root, display, "", problems);
  auto version = r.integer("format_version", true);
  if (version && *version != 1) r.problem("format_version", "must be 1");
  refs.gpu = r.str("gpu", true).value_or("");
  if (YAML::Node m = r.node("measured"); present(m)) {
    MapReader mr(m, display, "measured", problems);
    const std::string date = mr.str("date", true).value_or("");
    const std::string driver = mr.str("driver", true).value_or("");
    const std::string cuda = mr.str("cuda", true).value_or("");
    const auto clock = mr.number("sm_clock_mhz", true);
    const std::string command = mr.str("command", false).value_or("");
    mr.finish();
    refs.label = fmt::format("{}, driver {}, CUDA {}, {:g} MHz", date, driver, cuda, clock.value_or(0));
  } else {
    r.problem("measured", "is required: date, driver, cuda, sm_clock_mhz");
  }
  std::map<std::string, double> basis;
  if (YAML::Node b = r.node("basis"); present(b)) {
    if (!b.IsMap()) {
      r.problem("basis", "must map device figure names to the values the runs were graded on");
    } else {
      for (const auto& kv : b) {
        try {
          basis[kv.first.Scalar()] = kv.second.as<double>();
        } catch (const YAML::Exception&) {
          problems.add(display, line_of(kv.second), "basis." + kv.first.Scalar(), "must be a number");
        }
      }
    }
  }
  const double band = r.number("band", false).value_or(0.2);
  if (band <= 0 || band > 1) r.problem("band", "must be between 0 and 1");
  if (YAML::Node labs = r.node("labs"); present(labs)) {
    if (!labs.IsMap()) {
      r.problem("labs", "must map lab ids to {params, figures}");
    } else {
      for (const auto& kv : labs) {
        const std::string id = kv.first.Scalar();
        MapReader lr(kv.second, display, "labs." + id, problems);
        MeasuredLab lab;
        lab.basis = basis;
        if (YAML::Node p = lr.node("params"); present(p) && p.IsMap()) {
          for (const auto& pv : p) lab.params[pv.first.Scalar()] = pv.second.as<double>(0);
        }
        if (YAML::Node f = lr.node("figures"); present(f) && f.IsMap()) {
          for (const auto& fv : f) {
            const std::string name = fv.first.Scalar();
            lab.figures[name] = read_figure(fv.second, band, display, "labs." + id + ".figures." + name, problems);
          }
        } else {
          lr.problem("figures", "must map metric names to values");
        }
        lr.finish();
        refs.labs[id] = std::move(lab);
      }
    }
  }
  r.finish();
  return refs;
}

}  // namespace

std::vector<MeasuredRefs> load_measured_refs(const fs::path& data_dir) {
  std::vector<MeasuredRefs> out;
  const fs::path dir = data_dir / "measured";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Problems problems;
  for (const auto& f : files) out.push_back(read_file(f, "data/measured/" + f.filename().string(), problems));
  problems.throw_if_any();
  return out;
}

const MeasuredLab* find_measured(const std::vector<MeasuredRefs>& all, const std::string& gpu, const std::string& lab_id,
                                 std::string* label) {
  for (const auto& refs : all) {
    if (refs.gpu != gpu) continue;
    auto it = refs.labs.find(lab_id);
    if (it == refs.labs.end()) continue;
    if (label) *label = refs.label;
    return &it->second;
  }
  return nullptr;
}

}  // namespace workbook
