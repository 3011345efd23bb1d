/*
Probe: the device query of the workbook's Module 3, as lab-contract metrics.

`workbook device` compiles this like a lab (same harness, same results file) and prints
what it reports. It is not a lab: no manifest names it, and `workbook dev check` never
sees it. Every figure is read with cudaDeviceGetAttribute, which keeps working where
CUDA 13 removed cudaDeviceProp fields (clockRate, memoryClockRate, ...).

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/common/probes/device_query.cu -o device_query && ./device_query

Parameters (NAME=VALUE): device (CUDA device index, default 0).

Metrics (the device's name and cc are in the `device` record):
  cc_major cc_minor sm_count warp_size max_threads_per_block max_threads_per_sm
  max_warps_per_sm (= max_threads_per_sm / warp_size) max_blocks_per_sm regs_per_sm
  regs_per_block shared_per_sm_bytes shared_per_block_optin_bytes l2_bytes global_bytes
  mem_clock_khz bus_width_bits sm_clock_khz async_engines
  dram_gbps   theoretical DRAM bandwidth = 2 (double data rate) x memory clock x bus
              width / 8, in GB/s (10^9 bytes/s); a formula, not a measurement
  mig         1 when the device is a MIG instance (its name contains "MIG"), else 0
  device_count, ecc, unified_addressing, concurrent_kernels (extras, 0/1 or counts)
*/

#include <cmath>
#include <string>

#include "workbook.cuh"

namespace {

int attribute(cudaDeviceAttr attr, int dev) {
  int v = 0;
  WB_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  wb::init(argc, argv, "probes/device_query");
  const int dev = static_cast<int>(wb::param("device", 0));
  wb::params_done();

  int count = 0;
  WB_CHECK(cudaGetDeviceCount(&count));
  if (dev < 0 || dev >= count) wb::fatal("device_query.cu", "device " + std::to_string(dev) + " does not exist (" +
                                                                 std::to_string(count) + " CUDA devices)");
  WB_CHECK(cudaSetDevice(dev));
  WB_CHECK(cudaFree(nullptr));  // creates the context: a broken driver shows up here
  wb::device_info();

  cudaDeviceProp prop;
  WB_CHECK(cudaGetDeviceProperties(&prop, dev));
  const std::string name = prop.name;

  const int warp = attribute(cudaDevAttrWarpSize, dev);
  const int threads_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  const double mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, dev);
  const double bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev);

  struct Figure {
    const char* name;
    double value;
    const char* unit;
    bool must_be_positive;
  };
  const Figure figures[] = {
      {"cc_major", static_cast<double>(attribute(cudaDevAttrComputeCapabilityMajor, dev)), "count", true},
      {"cc_minor", static_cast<double>(attribute(cudaDevAttrComputeCapabilityMinor, dev)), "count", false},
      {"sm_count", static_cast<double>(attribute(cudaDevAttrMultiProcessorCount, dev)), "count", true},
      {"warp_size", static_cast<double>(warp), "threads", true},
      {"max_threads_per_block", static_cast<double>(attribute(cudaDevAttrMaxThreadsPerBlock, dev)), "threads", true},
      {"max_threads_per_sm", static_cast<double>(threads_sm), "threads", true},
      {"max_warps_per_sm", warp > 0 ? static_cast<double>(threads_sm / warp) : 0.0, "warps", true},
      {"max_blocks_per_sm", static_cast<double>(attribute(cudaDevAttrMaxBlocksPerMultiprocessor, dev)), "blocks", true},
      {"regs_per_sm", static_cast<double>(attribute(cudaDevAttrMaxRegistersPerMultiprocessor, dev)), "registers", true},
      {"regs_per_block", static_cast<double>(attribute(cudaDevAttrMaxRegistersPerBlock, dev)), "registers", true},
      {"shared_per_sm_bytes", static_cast<double>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev)), "bytes", true},
      {"shared_per_block_optin_bytes", static_cast<double>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)), "bytes", true},
      {"l2_bytes", static_cast<double>(attribute(cudaDevAttrL2CacheSize, dev)), "bytes", true},
      {"global_bytes", static_cast<double>(prop.totalGlobalMem), "bytes", true},
      {"mem_clock_khz", mem_clock_khz, "kHz", true},
      {"bus_width_bits", bus_bits, "bits", true},
      {"sm_clock_khz", static_cast<double>(attribute(cudaDevAttrClockRate, dev)), "kHz", true},
      {"async_engines", static_cast<double>(attribute(cudaDevAttrAsyncEngineCount, dev)), "count", false},
      {"dram_gbps", 2.0 * mem_clock_khz * 1e3 * bus_bits / 8.0 / 1e9, "GB/s", true},
      {"mig", name.find("MIG") != std::string::npos ? 1.0 : 0.0, "bool", false},
      {"device_count", static_cast<double>(count), "count", true},
      {"ecc", static_cast<double>(attribute(cudaDevAttrEccEnabled, dev)), "bool", false},
      {"unified_addressing", static_cast<double>(attribute(cudaDevAttrUnifiedAddressing, dev)), "bool", false},
      {"concurrent_kernels", static_cast<double>(attribute(cudaDevAttrConcurrentKernels, dev)), "bool", false},
  };

  std::string bad;
  for (const Figure& f : figures) {
    wb::metric(f.name, f.value, f.unit);
    const bool ok = std::isfinite(f.value) && (f.must_be_positive ? f.value > 0 : f.value >= 0);
    if (!ok) bad += (bad.empty() ? "" : ", ") + std::string(f.name) + "=" + wb::detail::human(f.value);
  }
  wb::check("figures_valid", bad.empty(), bad.empty() ? "every figure is finite and in range" : "out of range: " + bad);
  return wb::finish();
}
