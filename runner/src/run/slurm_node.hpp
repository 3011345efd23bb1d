// What the compute node of a Slurm job is: its name, its cluster, and its GPU as the
// journal names it, with a MIG slice named as such ("NVIDIA H100 80GB HBM3 MIG 1g.10gb").
#pragma once

#include <string>

namespace workbook {

struct ComputeNode {
  std::string cluster;  // $SLURM_CLUSTER_NAME
  std::string node;     // $SLURMD_NODENAME, else the host name
  std::string gpu;      // "" when the node has none
};

// Asks the environment and nvidia-smi (`--query-gpu` for the name, `-L` for MIG slices).
ComputeNode this_compute_node();

// The MIG profile of the slice this job sees in `nvidia-smi -L` output ("1g.10gb"): the
// one whose UUID is in `cuda_visible_devices`, else the first listed; "" without MIG.
std::string mig_profile(const std::string& nvidia_smi_list, const std::string& cuda_visible_devices);

}  // namespace workbook
