// A GPU's own lab references (see lab_calibration.hpp).
#include "run/lab_calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "content/lab_id.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/hash.hpp"

namespace workbook {

namespace {

// The lab ids to calibrate: those named (checked), else every lab of the course.
std::vector<LabSpec> labs_to_calibrate(const Catalog& catalog, const std::vector<std::string>& named) {
  std::vector<LabSpec> out;
  if (!named.empty()) {
    for (const auto& n : named) out.push_back(catalog.find_lab(parse_lab_ref_or_throw(n)));
    return out;
  }
  for (int m : catalog.module_numbers())
    for (const auto& lab : catalog.load_module(m).labs) out.push_back(lab);
  return out;
}

// The figures a reference may hold: those graded against a range (not an exact figure),
// reported or derived.
std::vector<std::string> range_figures(const LabSpec& lab) {
  std::vector<std::string> out;
  for (const auto* list : {&lab.metrics, &lab.derived})
    for (const auto& m : *list)
      if (m.expected && m.expected->equals_expr.empty()) out.push_back(m.name);
  return out;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string solution_hash(const DeviceContext& dev, const LabSpec& lab) {
  const auto text = read_file_text(dev.solutions_root / lab.id.substr(0, lab.id.find('/')) / lab.source);
  return text ? hash_hex(*text) : std::string();
}

// The figures of `runs` (each a passing run of the reference) as a reference.
void take_figures(const LabSpec& lab, const std::vector<RunReport>& runs, LabReference& ref) {
  for (const auto& name : range_figures(lab)) {
    std::vector<double> values;
    for (const auto& r : runs)
      for (const auto& m : r.grade.metrics)
        if (m.name == name && m.value && std::isfinite(*m.value) && *m.value > 0) values.push_back(*m.value);
    if (values.size() != runs.size()) continue;  // a figure every run gave, or none
    const double mid = median_of(values);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double spread = (*hi - *lo) / mid;
    ref.figures[name] = {mid, reference_band(spread), spread};
  }
}

// One lab: kRunsPerLab runs of the reference at its defaults into a scratch journal.
LabCalibration calibrate_one(const RunContext& ctx, const LabSpec& lab, const DeviceContext& dev,
                             const std::function<void(const std::string&)>& say) {
  LabCalibration out;
  out.lab = lab.id;
  const auto t0 = std::chrono::steady_clock::now();
  Journal scratch(":memory:");
  RunObserver quiet;
  const RunContext inner{ctx.catalog, ctx.workspace, scratch, ctx.style, &quiet};
  RunRequest req;
  req.lab = lab.id;
  req.variant = LabVariant::solution;
  req.no_predict = true;
  req.verbose = false;
  req.memcheck = false;
  std::vector<RunReport> runs;
  for (int i = 0; i < kRunsPerLab && out.problem.empty(); ++i) {
    say(fmt::format("run {} of {}", i + 1, kRunsPerLab));
    RunReport r = run_lab(inner, req);
    const Verdict v = r.grade.verdict;
    if (v != Verdict::pass && v != Verdict::out_of_range) {
      out.problem = r.grade.verdict_reason.empty() ? to_string(v) : r.grade.verdict_reason;
    } else {
      runs.push_back(std::move(r));
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!out.problem.empty()) return out;
  LabReference& ref = out.reference;
  ref.gpu_name = dev.own_references_gpu;
  ref.gpu_uuid = dev.gpu ? dev.gpu->uuid : "";
  ref.driver = dev.gpu ? dev.gpu->driver : "";
  ref.toolkit = runs.front().profile.machine.toolkit;  // the nvcc that built the reference
  ref.lab = lab.id;
  ref.source_hash = solution_hash(dev, lab);
  ref.params = runs.front().params;
  ref.power_source = dev.power_source;
  ref.runs = static_cast<int>(runs.size());
  std::vector<double> clocks;  // the SM clock read after each run (before it, a GPU idles low)
  for (const auto& r : runs)
    if (r.profile.clocks_after && r.profile.clocks_after->sm_mhz) clocks.push_back(*r.profile.clocks_after->sm_mhz);
  if (!clocks.empty()) ref.sm_clock_mhz = median_of(clocks);
  ref.basis = runs.front().device_figures;
  take_figures(lab, runs, ref);
  if (ref.figures.empty()) {
    out.problem = "it reports no figure graded against a range: nothing to calibrate";
    out.nothing_to_calibrate = true;
  }
  return out;
}

}  // namespace

double reference_band(double spread) {
  // The runs' full range, as a relative half-width, with half again for the runs to come.
  return std::max(kBandFloor, std::ceil(spread * 1.5 * 100) / 100);
}

std::vector<LabCalibration> calibrate_labs(const RunContext& ctx, const std::vector<std::string>& labs,
                                           const std::function<void(const std::string&)>& progress) {
  const DeviceContext dev = load_device_context(ctx.catalog, std::nullopt, &ctx.journal);
  if (!dev.gpu) {
    throw UsageError("no GPU found on this machine: a reference is measured on the GPU it is for",
                     "run `workbook device --calibrate --labs` where the GPU is (Colab, the cluster's compute node)");
  }
  const std::vector<LabSpec> todo = labs_to_calibrate(ctx.catalog, labs);
  std::vector<LabCalibration> out;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const std::string at = fmt::format("[{}/{}] {}", i + 1, todo.size(), todo[i].id);
    out.push_back(calibrate_one(ctx, todo[i], dev, [&](const std::string& step) { progress(at + ": " + step); }));
    if (out.back().problem.empty()) {
      record_lab_reference(ctx.journal, out.back().reference);
      out.back().recorded = true;
    }
    const LabCalibration& c = out.back();
    progress(at + ": " + (c.recorded               ? fmt::format("recorded ({:.0f} s)", c.seconds)
                          : c.nothing_to_calibrate ? "no timed figure: nothing to calibrate"
                                                   : "not recorded: " + c.problem));
    if (termination_signal() != 0) break;  // Ctrl-C: the labs done so far are kept
  }
  return out;
}

namespace {

// Why the machine's state now is not the one `r` was measured in ("" when it is).
std::string state_differs(const LabReference& r, const DeviceContext& dev, const GpuClocks* clocks) {
  if (!r.power_source.empty() && !dev.power_source.empty() && r.power_source != dev.power_source)
    return fmt::format("they were measured on {}, and it runs on {} now", r.power_source, dev.power_source);
  if (!clocks) return "";
  if (clocks->reasons && (*clocks->reasons & kThrottleReasons) != 0) {
    std::string names;
    for (const auto& n : clock_reason_names(*clocks->reasons & kThrottleReasons)) names += (names.empty() ? "" : ", ") + n;
    return fmt::format("the GPU was slowed during this run ({})", names);
  }
  if (r.sm_clock_mhz && clocks->sm_mhz && *clocks->sm_mhz < 0.9 * *r.sm_clock_mhz)
    return fmt::format("the SM clock was {:.0f} MHz, 10 % or more below the {:.0f} MHz they were measured at",
                       *clocks->sm_mhz, *r.sm_clock_mhz);
  return "";
}

}  // namespace

const OwnReference* own_reference_for(const DeviceContext& dev, const LabSpec& lab, const Figures& params,
                                      std::string* why_not, const GpuClocks* clocks, const std::string& toolkit) {
  std::string hash, other_build;  // other_build: why the newest reference of this lab and size is not this build's
  auto set_aside = [&](const std::string& why) {
    if (why_not) {
      *why_not = fmt::format("this GPU's own references for {} are set aside: {}; graded against the model band "
                             "instead", lab.id, why);
    }
    return nullptr;
  };
  for (const auto& own : dev.own_references) {
    const LabReference& r = own.row;
    if (r.lab != lab.id || !dev.gpu || r.gpu_name != dev.own_references_gpu) continue;
    if (r.params.size() != params.size() ||
        !std::all_of(r.params.begin(), r.params.end(), [&](const auto& kv) {
          auto it = params.find(kv.first);
          return it != params.end() && it->second == kv.second;
        })) {
      continue;
    }
    if (hash.empty()) hash = solution_hash(dev, lab);
    if (r.source_hash != hash) continue;  // the reference solution changed since: stale
    if (r.driver != dev.gpu->driver || (!toolkit.empty() && !r.toolkit.empty() && r.toolkit != toolkit)) {
      if (other_build.empty()) {
        other_build = r.driver != dev.gpu->driver
                          ? fmt::format("they were measured with driver {}, and the driver is {} now", r.driver,
                                        dev.gpu->driver)
                          : fmt::format("they were measured with CUDA {}, and this build is CUDA {}", r.toolkit, toolkit);
      }
      continue;
    }
    if (const std::string differs = state_differs(r, dev, clocks); !differs.empty())
      return set_aside(differs + " (run it again in the state they were measured in, or calibrate again)");
    return &own;
  }
  if (!other_build.empty()) return set_aside(other_build + " (calibrate again: workbook device --calibrate --labs " +
                                             lab.id + ")");
  return nullptr;
}

}  // namespace workbook
