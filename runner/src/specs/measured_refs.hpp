// The project's own measurements of each lab on a GPU it has run on
// (data/measured/<gpu id>.yaml), with the date, driver, CUDA version and clocks they
// were taken at. Where the learner's GPU has them, a lab's graded figures are held to
// a tight band around them instead of the wide model band (see grade/grade.hpp).
//
//   format_version: 1
//   gpu: h200-sxm                 # a spec sheet id in data/gpus.yaml
//   measured: {date: 2026-11-30, driver: 580.159.04, cuda: "13.0", sm_clock_mhz: 1980,
//              command: "scripts/device/validate.sh labs"}
//   basis: {dram_gbps: 4800}      # the device figures the runs were graded on (the spec
//                                 # sheet's, uncalibrated): derived figures are converted
//   band: 0.2                     # the graded range is value / (1 + band) .. value * (1 + band)
//   labs:
//     module14/tiled_gemm:
//       params: {N: 1024}         # the run's parameters must be exactly these
//       figures: {naive_ms: 0.41, speedup: {value: 1.55, band: 0.15}}
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace workbook {

struct MeasuredFigure {
  double value = 0;
  double band = 0;  // relative half-width (above: value * (1 + band); below: value / (1 + band))
};

struct MeasuredLab {
  std::map<std::string, double> params;
  std::map<std::string, MeasuredFigure> figures;
  // The device figures the measurements were graded on (the file's `basis:`, e.g. the
  // spec sheet's dram_gbps: 4800). A figure derived from one of them (a % of the DRAM
  // bandwidth) is converted to the learner's figures before it is compared.
  std::map<std::string, double> basis;
};

struct MeasuredRefs {
  std::string gpu;    // spec sheet id
  std::string label;  // "measured on an H200, 2026-11-30, driver 580.159.04, CUDA 13.0, 1980 MHz"
  std::map<std::string, MeasuredLab> labs;  // by lab id
};

// Loads every data/measured/*.yaml under `data_dir`. Throws ContentError listing every
// problem (file:line: field: what). A missing folder gives an empty list.
std::vector<MeasuredRefs> load_measured_refs(const std::filesystem::path& data_dir);

// The measured figures of `lab_id` on spec sheet `gpu`, or null.
const MeasuredLab* find_measured(const std::vector<MeasuredRefs>& all, const std::string& gpu, const std::string& lab_id,
                                 std::string* label = nullptr);

}  // namespace workbook
