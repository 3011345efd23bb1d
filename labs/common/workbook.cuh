// workbook.cuh: the CUDA half of the workbook lab harness.
//
// Includes wb_host.hpp (arguments, parameters, random fills, comparison, results) and
// adds what needs the GPU:
//
//   WB_CHECK(call)        check a CUDA runtime call; on failure record an `error`
//                         (file:line, the CUDA error) and exit 4
//   WB_CHECK_LAUNCH()     after a kernel launch: the launch error, then the execution
//                         error (synchronizes the device)
//   wb::init_cuda(...)    wb::init + the `device` record
//   wb::poison(p, bytes)  fill device memory with 0xFF bytes (NaN as float or double),
//                         so an output element the kernel never writes fails its check
//   wb::flush_l2()        evict the L2 cache by writing a buffer twice its size
//   wb::time_kernel(f)    event timing with warm-up, optional L2 flush before each
//                         sample and a noise-aware stopping rule
//
// Dependency-free and header-only; include it from a .cu file compiled by nvcc.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "wb_host.hpp"

namespace wb {
namespace detail {

inline const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

[[noreturn]] inline void cuda_fail(cudaError_t err, const char* what, const char* file, int line) {
  const std::string where = std::string(base_name(file)) + ":" + std::to_string(line);
  fatal(where, std::string(what) + ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

}  // namespace detail
}  // namespace wb

// Checks the cudaError_t a runtime call returns.
#define WB_CHECK(call)                                                                  \
  do {                                                                                  \
    const cudaError_t wb_check_err_ = (call);                                           \
    if (wb_check_err_ != cudaSuccess) ::wb::detail::cuda_fail(wb_check_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a <<<...>>> launch: a bad configuration shows up in cudaGetLastError, a fault
// while the kernel runs shows up when the device is synchronized.
#define WB_CHECK_LAUNCH()                                                                            \
  do {                                                                                               \
    cudaError_t wb_launch_err_ = cudaGetLastError();                                                 \
    if (wb_launch_err_ != cudaSuccess)                                                               \
      ::wb::detail::cuda_fail(wb_launch_err_, "kernel launch", __FILE__, __LINE__);                   \
    wb_launch_err_ = cudaDeviceSynchronize();                                                        \
    if (wb_launch_err_ != cudaSuccess)                                                               \
      ::wb::detail::cuda_fail(wb_launch_err_, "kernel execution (cudaDeviceSynchronize)", __FILE__, __LINE__); \
  } while (0)

namespace wb {

// Writes the `device` record for the current device: name, compute capability, SM
// count, L2 size, global memory. Attributes are read with cudaDeviceGetAttribute, which
// keeps working where CUDA 13 removed cudaDeviceProp fields.
inline void device_info() {
  detail::require_running("wb::device_info");
  int dev = 0;
  WB_CHECK(cudaGetDevice(&dev));
  int major = 0, minor = 0, sms = 0, l2 = 0;
  WB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  WB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  WB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  cudaDeviceProp prop;
  WB_CHECK(cudaGetDeviceProperties(&prop, dev));
  const std::string cc = std::to_string(major) + "." + std::to_string(minor);

  detail::Record r("device");
  r.str("name", prop.name).str("cc", cc).integer("sms", sms).integer("l2_bytes", l2);
  r.uinteger("global_bytes", static_cast<unsigned long long>(prop.totalGlobalMem));
  detail::emit(r, detail::format("[device] %s: cc %s, %d SMs, L2 %.1f MiB, %.1f GiB global", prop.name, cc.c_str(), sms,
                                  l2 / 1048576.0, static_cast<double>(prop.totalGlobalMem) / 1073741824.0));
}

// wb::init for CUDA labs: parses the arguments, writes `start`, creates the CUDA
// context (so a missing GPU is reported here, as an error with exit 4) and writes the
// `device` record.
inline void init_cuda(int argc, char** argv, const char* lab) {
  init(argc, argv, lab);
  WB_CHECK(cudaFree(nullptr));  // forces context creation
  device_info();
}

// Sets every byte of a device buffer to 0xFF: as float or double that is NaN, so an
// element the kernel leaves unwritten can never pass a comparison.
inline void poison(void* dptr, std::size_t bytes) {
  WB_CHECK(cudaMemset(dptr, 0xFF, bytes));
  WB_CHECK(cudaDeviceSynchronize());
}

// Evicts the L2 cache by writing a device buffer twice the L2's size (allocated once,
// on first use, and kept until the process exits). Enqueued on `stream`; returns
// without waiting.
inline void flush_l2(cudaStream_t stream = 0) {
  static void* buffer = nullptr;
  static std::size_t bytes = 0;
  if (!buffer) {
    int dev = 0, l2 = 0;
    WB_CHECK(cudaGetDevice(&dev));
    WB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    if (l2 <= 0) return;  // no L2 reported: nothing to flush
    bytes = 2 * static_cast<std::size_t>(l2);
    WB_CHECK(cudaMalloc(&buffer, bytes));
  }
  static unsigned char value = 0;
  ++value;  // a different byte each time, so the writes can never be skipped as no-ops
  WB_CHECK(cudaMemsetAsync(buffer, value, bytes, stream));
}

// How time_kernel samples. The defaults suit kernels from microseconds to ~100 ms.
struct TimingOptions {
  int warmup = 3;            // untimed launches first (module load, clocks, caches)
  int min_samples = 10;      // never judge the noise on fewer samples than this
  int max_samples = 1000;    // hard cap on the number of samples
  double max_noise = 0.005;  // stop once the relative noise is at most this (0.5 %)
  double max_time_s = 1.0;   // ...or once this much kernel time has been sampled
  bool flush_l2 = true;      // flush L2 before each sample (outside the timed region)
  cudaStream_t stream = 0;   // the stream `launch` enqueues its work on
};

namespace detail {
// Relative noise of the samples: a robust estimate of the standard deviation
// (1.4826 x the median absolute deviation) over the median. Unlike stdev/mean, one
// sample slowed by something else on the machine barely moves it.
inline double relative_noise(const std::vector<double>& samples) {
  std::vector<double> v(samples);
  const std::size_t n = v.size(), mid = n / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  const double median = v[mid];
  if (!(median > 0)) return 0.0;
  for (double& x : v) x = std::fabs(x - median);
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  return 1.4826 * v[mid] / median;
}
}  // namespace detail

// Times `launch` (a callable that enqueues the work to time on opt.stream, e.g. a
// lambda with a <<<...>>> launch) with CUDA events, in milliseconds.
//
//   1. opt.warmup untimed launches, then wait for them.
//   2. Repeat: [flush L2]  record start  launch()  record stop  wait  -> one sample.
//      The flush is enqueued before the start event, so it is not timed; while the GPU
//      runs it, the host has already enqueued the kernel, so less launch latency lands
//      in the sample (without the flush, a sample includes a few us of launch latency).
//   3. Stop when (a) opt.max_samples samples were taken, or (b) the sampled kernel time
//      reached opt.max_time_s (this wins over min_samples, so a slow kernel cannot
//      stall the lab), or (c) at least opt.min_samples were taken and their relative
//      noise is at most opt.max_noise.
//
// Launch and execution errors are checked on every sample (exit 4 with an `error`).
// Returns median / min / max / spread and the sample count.
template <class F>
Stats time_kernel(F&& launch, TimingOptions opt = {}) {
  for (int i = 0; i < opt.warmup; ++i) {
    launch();
    WB_CHECK(cudaGetLastError());
  }
  WB_CHECK(cudaStreamSynchronize(opt.stream));

  cudaEvent_t start, stop;
  WB_CHECK(cudaEventCreate(&start));
  WB_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples;
  double sampled_ms = 0.0;
  for (;;) {
    if (opt.flush_l2) flush_l2(opt.stream);
    WB_CHECK(cudaEventRecord(start, opt.stream));
    launch();
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaEventRecord(stop, opt.stream));
    WB_CHECK(cudaEventSynchronize(stop));  // a fault inside the kernel surfaces here
    float ms = 0.0f;
    WB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    samples.push_back(ms);
    sampled_ms += ms;

    const int n = static_cast<int>(samples.size());
    if (n >= opt.max_samples) break;
    if (sampled_ms >= opt.max_time_s * 1e3) break;
    if (n >= opt.min_samples && detail::relative_noise(samples) <= opt.max_noise) break;
  }
  WB_CHECK(cudaEventDestroy(start));
  WB_CHECK(cudaEventDestroy(stop));
  return stats_of(samples);
}

}  // namespace wb
