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
//   wb::alloc_output<T>(n) / check_bounds(name, p) / free_output(p)
//                         an output between canary bands, and the check that nothing
//                         was written outside it; nan_bands(p) then makes its bands NaN,
//                         so a kernel that reads it past the end reads NaN
//   wb::flush_l2()        evict the L2 cache by reading a buffer four times its size
//   wb::time_kernel(f)    event timing with warm-up, optional L2 flush before each
//                         sample and a noise-aware stopping rule
//   wb::time_kernel_graph(f)  a short kernel: back-to-back launches over rotating input
//                         copies in a captured graph, per-launch period
//
// Dependency-free; include it from a .cu file compiled by nvcc. Header-only by default, or
// linked: see wb_host.hpp (this half's definitions are in workbook_impl.cuh, its object
// is built from wb_harness.cu).
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "wb_host.hpp"

namespace wb {
namespace detail {
// Records the failed call (file:line, the CUDA error) and exits 4: WB_CHECK's slow path.
[[noreturn]] WB_API void cuda_fail(cudaError_t err, const char* what, const char* file, int line);
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
WB_API void device_info();

// wb::init for CUDA labs: parses the arguments, writes `start`, creates the CUDA
// context (so a missing GPU is reported here, as an error with exit 4) and writes the
// `device` record.
WB_API void init_cuda(int argc, char** argv, const char* lab);

// Sets every byte of a device buffer to 0xFF: as float or double that is NaN, so an
// element the kernel leaves unwritten can never pass a comparison.
WB_API void poison(void* dptr, std::size_t bytes);

// ---- output buffers with canary bands ---------------------------------------------------
//
// A kernel whose grid rounds up without a bounds guard, or whose guard is off by one
// (`i <= n`), writes past the end of its output. cudaMalloc rounds allocations up, so
// such a write rarely faults: it lands in memory nobody checks. An output allocated with
// alloc_output() sits between two canary bands (kCanaryBytes each, filled with the byte
// 0xA5); check_bounds() reads them back and records a failed check that says how many
// elements were written before the start or past the end.
//
//   float* d_c = wb::alloc_output<float>(n);   // interior poisoned (NaN), bands armed
//   launch(d_c, n);  WB_CHECK_LAUNCH();
//   wb::check_bounds("c_in_bounds", d_c);      // PASS, or "wrote 31 elements past the end"
//   wb::free_output(d_c);

constexpr std::size_t kCanaryBytes = 64 * 1024;
constexpr unsigned char kCanaryByte = 0xA5;

namespace detail {
WB_API void* alloc_output_bytes(std::size_t bytes, std::size_t elem);
}  // namespace detail

// Allocates n elements of T on the device between two canary bands; the interior is
// poisoned. Free with free_output().
template <class T>
T* alloc_output(std::size_t n) {
  return static_cast<T*>(detail::alloc_output_bytes(n * sizeof(T), sizeof(T)));
}

// Re-poisons an output's interior (NaN) and re-arms its bands, e.g. before a second
// kernel writes into the same buffer.
WB_API void poison_output(void* interior);

WB_API void free_output(void* interior);

// Turns a checked output into an input that shows reads past its ends: fills both bands
// with 0xFF bytes (NaN as float, double, half or bfloat16). A later kernel that reads
// the buffer one element too far reads NaN, and a NaN never passes a comparison; call it
// after the writer's check_bounds (a check_bounds after it reports the bands damaged;
// poison_output arms them for writing again).
WB_API void nan_bands(void* interior);

// Records a check named `name`: passes when both canary bands of the output are intact.
// Waits for the device first. Returns pass.
WB_API bool check_bounds(const char* name, const void* interior);

// ---- L2 flush ------------------------------------------------------------------------------

// Evicts the L2 cache: a kernel reads a buffer four times the L2's size (allocated and
// zeroed once, kept until the process exits). Reading, not writing: a flush by memset
// leaves the L2 full of dirty lines, and writing them back would land inside the next
// timed kernel. Enqueued on `stream`; returns without waiting.
WB_API void flush_l2(cudaStream_t stream = 0);

// ---- timing --------------------------------------------------------------------------------

// How time_kernel samples. The defaults suit kernels from microseconds to ~100 ms.
struct TimingOptions {
  int warmup = 3;             // untimed launches first (module load, clocks, caches)
  int min_samples = 10;       // never judge the noise on fewer samples than this
  int max_samples = 1000;     // hard cap on the number of samples
  double max_noise = 0.005;   // stop once the relative noise is at most this (0.5 %)
  double max_time_s = 1.0;    // ...or once this much kernel time has been sampled
  bool flush_l2 = true;       // cold: each sample is one launch right after an L2 flush
  double settle_us = 0.0;     // after the flush, leave the GPU idle this long before the
                              // launch (WB_SETTLE_US overrides it, for timing studies)
  double min_batch_ms = 0.5;  // warm (no flush): back-to-back launches per sample, enough
                              // to last this long, so per-launch gaps average out
  bool kernel_clock = true;   // time the kernels' own durations from CUPTI when it loads
                              // (what Nsight reports; no launch gaps); false, or no CUPTI:
                              // CUDA events around the region. Set false when the region's
                              // cost is more than its kernels: copies, kernels overlapping on
                              // several streams, or the launch overhead being taught.
  bool hold = true;           // enqueue each sample behind a hold kernel, so the time
                              // the host takes to launch is never inside the events.
                              // Set false when launch() waits for the GPU itself (a
                              // pageable cudaMemcpyAsync, a synchronizing library call);
                              // time_kernel also notices that and turns it off.
  cudaStream_t stream = 0;    // the stream `launch` enqueues its work on
};

namespace detail {
// The timers' loops, compiled once: `callable` is the lab's launch, called through `fn`.
using LaunchFn = void (*)(void* callable);
using GraphLaunchFn = void (*)(void* callable, int k, cudaStream_t stream);
WB_API Stats time_region(LaunchFn fn, void* callable, TimingOptions opt);
WB_API Stats time_graph(GraphLaunchFn fn, void* callable, TimingOptions opt);
template <class F>
void* callable_address(F& f) {
  return const_cast<void*>(static_cast<const void*>(&f));
}
}  // namespace detail

// Times `launch` (a callable that enqueues the work to time on opt.stream, e.g. a
// lambda with a <<<...>>> launch); returns milliseconds per launch.
//
//   1. opt.warmup untimed launches, timed together to size the batches.
//   2. Each sample:
//      - cold (opt.flush_l2): flush the L2 first, then ONE launch;
//      - warm: a batch of back-to-back launches, as many as fill opt.min_batch_ms; the
//        sample is the batch's time over its launch count.
//      The clock: with opt.kernel_clock and CUPTI available (wb_kernel_clock.hpp), the
//      summed GPU durations of the kernels the launches ran, as Nsight reports them;
//      otherwise CUDA events around the launches, with opt.hold queuing them behind a
//      hold kernel that is released once all are enqueued, so the host's launch latency
//      is not between the events (nvbench's blocking kernel). A hold that times out
//      (launch() waited for the GPU) is detected; that sample is dropped and the rest
//      are taken without the hold. Stats::clock says which clock was used.
//   Under a profiler (WB_PROFILER set by the runner) one warm-up and one sample only.
//   3. Stop when (a) opt.max_samples samples were taken, or (b) the sampled time reached
//      opt.max_time_s (this wins over min_samples, so a slow kernel cannot stall the
//      lab), or (c) at least opt.min_samples were taken and their relative noise is at
//      most opt.max_noise.
//
// Launch and execution errors are checked on every sample (exit 4 with an `error`).
// Returns median / min / max / spread, the sample count and the clock.
template <class F>
Stats time_kernel(F&& launch, TimingOptions opt = {}) {
  using Callable = std::remove_reference_t<F>;
  const detail::LaunchFn call = [](void* f) { (*static_cast<Callable*>(f))(); };
  return detail::time_region(call, detail::callable_address(launch), opt);
}

// ---- short kernels: timing a captured graph of back-to-back launches ------------------------

// How many copies of a `bytes`-sized input to rotate through so that no launch finds its
// input still in the L2: between two uses of one copy the others stream at least twice
// the L2's size through it. At least 2.
WB_API int copies_past_l2(std::size_t bytes);

// Times a kernel too short for one launch's clock (under ~50 us, where the CUPTI record's
// fixed ~0.5 us and an event pair's ~1-2 us are several percent of the figure): `launch(k,
// stream)` enqueues launch number k on `stream`, and should read input copy k % copies
// (copies_past_l2) so that every launch streams its input from DRAM, as a cold launch does.
// K launches are captured once into a CUDA graph; each sample is one replay between a pair
// of CUDA events over K, with K chosen so a replay lasts at least opt.min_batch_ms. In a
// graph the launches follow each other with almost no gap (on the H200: about 1 us per
// launch of an empty kernel), so the per-launch period is the kernel's duration: module15's
// warp matvec read 18.79-19.04 us in 3 runs against Nsight Compute's 18.91 us, its cuBLAS
// gemv 22.37-22.47 against 22.37, where a single cold launch's CUPTI record reads ~0.6 us
// more (docs/validation/timing.md, study 7).
// Warm-up replays first; the noise-aware stop of time_kernel. Stats::clock is "graph".
template <class F>
Stats time_kernel_graph(F&& launch, TimingOptions opt = {}) {
  using Callable = std::remove_reference_t<F>;
  const detail::GraphLaunchFn call = [](void* f, int k, cudaStream_t s) { (*static_cast<Callable*>(f))(k, s); };
  return detail::time_graph(call, detail::callable_address(launch), opt);
}

}  // namespace wb

#if !defined(WB_HARNESS_LINKED)
#include "workbook_impl.cuh"
#endif
