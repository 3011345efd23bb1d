// What the compute node of a Slurm job is: its name, its cluster, and its GPU as the
// journal names it, with a MIG slice named as such ("NVIDIA H100 80GB HBM3 MIG 1g.10gb").
#pragma once

#include <string>

#include "device/local_gpu.hpp"

namespace workbook {

struct ComputeNode {
  std::string cluster;  // $SLURM_CLUSTER_NAME
  std::string node;     // $SLURMD_NODENAME, else the host name
  std::string gpu;      // "" when the node has none
};

// Asks the environment and nvidia-smi (`--query-gpu` for the name, `-L` for MIG slices).
ComputeNode this_compute_node();

// `gpu`'s name as runs and references name it: with " MIG <profile>" when this process
// sees a MIG slice of it (`nvidia-smi -L`, the slice in CUDA_VISIBLE_DEVICES); the name
// alone for a whole GPU or a fake one (WORKBOOK_GPU_NAME).
std::string gpu_reference_name(const LocalGpu& gpu);

// The MIG profile of the slice this job sees in `nvidia-smi -L` output ("1g.10gb"): the
// one whose UUID is in `cuda_visible_devices`, else the first listed; "" without MIG.
std::string mig_profile(const std::string& nvidia_smi_list, const std::string& cuda_visible_devices);

}  // namespace workbook
