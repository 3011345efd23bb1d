// The device figures an expected-range expression may name. Each comes from the local
// GPU's spec sheet (data/gpus.yaml) or, once calibrated, from measurement.
#pragma once

#include <string>
#include <vector>

namespace workbook {

// Names of the numeric device figures, in the order they are documented: the spec-sheet
// figures, the Tensor Core peaks, then the measured-only ones.
const std::vector<std::string>& device_figure_names();

// The figures every spec sheet in data/gpus.yaml must give.
const std::vector<std::string>& spec_figure_names();

// Tensor Core peaks, dense, from a sheet's tensor_tflops: tensor_fp16_tflops (FP16 in,
// FP32 accumulate; every sheet must give it) and tensor_tf32_tflops (the TF32 path; on a
// GPU without TF32 Tensor Cores, such as the T4, TF32 math runs as FP32, so fp32_tflops).
const std::vector<std::string>& tensor_figure_names();

// Figures only a calibration measures (`workbook device --calibrate`): host<->device
// rates and launch overhead. Without a calibration they take nominal values (see
// nominal_measured_figures in specs/gpu_specs.hpp and docs/authoring.md).
const std::vector<std::string>& measured_only_figure_names();

}  // namespace workbook
