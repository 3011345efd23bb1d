// Why a device probe could not use the GPU, said as a sentence: the CUDA runtime's error
// names (cudaErrorNoDevice, cudaErrorInsufficientDriver, ...) in a probe's failure are
// what the machine lacks, not a bug of the probe, and the learner is told what to do.
#pragma once

#include <optional>
#include <string>

namespace workbook {

struct ProbeProblem {
  std::string what;  // "nvidia-smi lists Tesla T4, but CUDA cannot use it: ..."
  std::string hint;  // what to do about it
};

// For a probe failure (its error records and stderr) that names a CUDA error meaning no
// usable GPU: the sentence and the hint, with `found` (the GPU nvidia-smi listed) in
// it; nullopt for any other failure (pure).
std::optional<ProbeProblem> no_usable_gpu(const std::string& failure, const std::string& found);

}  // namespace workbook
