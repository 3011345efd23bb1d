// The device a lab will run on, as the runner sees it before running anything: the
// local GPU (nvidia-smi), its spec sheet from data/gpus.yaml, its latest calibration
// from the journal (`workbook device --calibrate`), and the reference GPU (the
// workbook's Colab T4) whose figures are shown beside ours.
//
// Figures: the spec sheet's, then, when this GPU (by UUID) has a calibration, the
// measured dram_gbps (the copy kernel's d2d_gbps), fp32_tflops, fp64_tflops,
// h2d/d2h pinned/pageable GB/s and launch_us replace them. Without a calibration the
// measured-only figures take nominal values (nominal_measured_figures, specs/gpu_specs.hpp), and
// figures_source says so.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "device/calibration.hpp"
#include "grade/grade.hpp"
#include "journal/lab_references.hpp"
#include "specs/gpu_specs.hpp"
#include "specs/measured_refs.hpp"
#include "device/local_gpu.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

// A reference this GPU measured itself (journal/lab_references.hpp, run/lab_calibration.hpp),
// in the shape of the project's data/measured figures.
struct OwnReference {
  LabReference row;
  MeasuredLab measured;
  std::string label;  // "this GPU's own, `workbook device --calibrate --labs` 2026-12-05, driver 550.54, 5 runs"
};

struct DeviceContext {
  std::optional<LocalGpu> gpu;     // nullopt: no GPU on this machine
  const GpuSpec* spec = nullptr;   // the local GPU's spec sheet, if known
  const GpuSpec* reference = nullptr;  // the workbook's reference GPU (t4)
  bool spec_is_local = false;      // spec is the sheet of the GPU the lab runs on (not --gpu)
  Figures figures;                 // what expressions see (empty when unknown)
  std::string figures_source;      // "spec sheet 'h200-sxm' in data/gpus.yaml; measured ...: dram_gbps, ..."
  std::optional<Calibration> calibration;  // the local GPU's latest, when one applies
  std::set<std::string> measured;  // figure names whose value is a measurement
  std::set<std::string> nominal;   // figure names holding nominal (not measured) values
  std::string note;                // why figures are missing, when they are
  std::vector<GpuSpec> specs;      // owns the sheets the pointers point into
  std::vector<MeasuredRefs> measured_refs;  // data/measured/*.yaml
  std::vector<OwnReference> own_references;  // this GPU's own (the journal's), newest first
  // What they are keyed by, set with them: the GPU's name, a MIG slice's with its profile
  // ("NVIDIA H100 80GB HBM3 MIG 1g.10gb": another slice is another GPU).
  std::string own_references_gpu;
  std::filesystem::path solutions_root;      // the content's solutions/: a reference's source is checked there
  std::string power_source;        // with a GPU: "mains", "battery" or "" (profile/gpu_clocks.hpp)

  std::string describe() const;    // "NVIDIA H200 (sm_90, spec sheet h200)" or "no GPU found"
};

// Queries the local GPU and loads the spec sheets from the catalog's data/gpus.yaml.
// `gpu_override` (the --gpu flag) picks a spec sheet by id, e.g. to see a T4's ranges
// (a calibration is then never applied). `journal`, when given, is searched for the
// local GPU's latest calibration.
DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override,
                                  Journal* journal = nullptr);

// The same, with the calibration looked up in the workspace's journal when the journal
// exists (it is never created here; a journal that cannot be read is ignored).
DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override,
                                  const Workspace& workspace);

// Overlays a calibration on spec-sheet figures: dram_gbps <- d2d_gbps, fp32_tflops,
// fp64_tflops, h2d_*, d2h_*, launch_us. Returns the names it set.
std::set<std::string> apply_calibration(Figures& figures, const Calibration& c);


// On battery a laptop GPU's clocks are capped, so its times are slower than the ranges
// (fitted on mains power) expect: the text said once before the run, "" on mains.
std::string battery_note(const std::string& power_source);

// Adds the battery note to each figure graded against a range; nothing on mains. The
// verdict's reason says it too when a figure is out of range (RunFacts::on_battery,
// grade/decide.hpp). (Calibrations made on battery are not told apart: the note is all
// there is.)
void note_battery(Grade& grade, const std::string& power_source);

inline constexpr const char* kReferenceGpuId = "t4";

}  // namespace workbook
