// The toolchain line of `workbook device`: which nvcc and host compiler the runner would
// build with (toolchain.yaml, WORKBOOK_CCBIN, --ccbin applied) and whether the pair
// compiles a one-file CUDA probe (build/toolchain_problem.hpp). No GPU is needed.
#pragma once

#include <optional>

#include "build/toolchain.hpp"
#include "build/toolchain_problem.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

struct ToolchainStatus {
  std::optional<Toolchain> toolchain;  // nullopt: no nvcc found
  std::optional<ToolchainCheck> check;  // the probe's outcome, when there is an nvcc
  std::optional<std::string> outside_range;  // nvcc's release outside kSupportedCudaReleases: why
  bool works() const { return check && check->ok; }
};

// Finds the workspace's toolchain and checks it (a pass is cached under the workspace's
// build cache, toolchain-check/). Throws ContentError for a bad toolchain.yaml and
// UsageError for a ccbin that names nothing.
ToolchainStatus toolchain_status(const Workspace& workspace);

}  // namespace workbook
