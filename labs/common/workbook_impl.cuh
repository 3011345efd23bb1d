// workbook_impl.cuh: the definitions behind workbook.cuh's declarations, and the harness's
// own kernels (the L2 flush, the hold and settle kernels) and CUPTI kernel clock.
//
// Not included by labs: workbook.cuh includes it at its end (header-only), unless the lab
// is compiled with WB_HARNESS_LINKED and linked with wb_harness.cu's object (wb_host.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "wb_kernel_clock.hpp"
#include "workbook.cuh"

namespace wb {
namespace detail {

WB_API const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

[[noreturn]] WB_API void cuda_fail(cudaError_t err, const char* what, const char* file, int line) {
  const std::string where = std::string(base_name(file)) + ":" + std::to_string(line);
  fatal(where, std::string(what) + ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

}  // namespace detail

WB_API void device_info() {
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

WB_API void init_cuda(int argc, char** argv, const char* lab) {
  init(argc, argv, lab);
  WB_CHECK(cudaFree(nullptr));  // forces context creation
  device_info();
}

WB_API void poison(void* dptr, std::size_t bytes) {
  WB_CHECK(cudaMemset(dptr, 0xFF, bytes));
  WB_CHECK(cudaDeviceSynchronize());
}

// ---- output buffers with canary bands ---------------------------------------------------

namespace detail {
struct Output {
  unsigned char* base = nullptr;  // the allocation: band, interior, band
  std::size_t bytes = 0;          // interior bytes
  std::size_t elem = 1;           // element size, to count elements rather than bytes
};
WB_API std::vector<Output>& outputs() {
  static std::vector<Output> list;
  return list;
}
WB_API Output* find_output(const void* interior) {
  for (Output& o : outputs())
    if (o.base + kCanaryBytes == interior) return &o;
  return nullptr;
}
WB_API Output& output_or_die(const char* api, const void* interior) {
  Output* o = find_output(interior);
  if (!o) fatal("harness", std::string(api) + ": the pointer was not allocated with wb::alloc_output");
  return *o;
}
// Number of elements (of size elem) in a band that differ from the canary byte, and
// the distance (in elements, 1-based from the interior) of the farthest one.
WB_API std::size_t damaged(const std::vector<unsigned char>& band, std::size_t elem, bool after,
                           std::size_t& farthest) {
  std::size_t count = 0;
  const std::size_t n = band.size() / elem;
  for (std::size_t e = 0; e < n; ++e) {
    bool hit = false;
    for (std::size_t b = 0; b < elem; ++b) hit = hit || band[e * elem + b] != kCanaryByte;
    if (!hit) continue;
    ++count;
    const std::size_t distance = after ? e + 1 : n - e;
    farthest = std::max(farthest, distance);
  }
  return count;
}
}  // namespace detail

WB_API void poison_output(void* interior) {
  detail::Output& o = detail::output_or_die("wb::poison_output", interior);
  WB_CHECK(cudaMemset(o.base, kCanaryByte, kCanaryBytes));
  WB_CHECK(cudaMemset(o.base + kCanaryBytes, 0xFF, o.bytes));
  WB_CHECK(cudaMemset(o.base + kCanaryBytes + o.bytes, kCanaryByte, kCanaryBytes));
  WB_CHECK(cudaDeviceSynchronize());
}

namespace detail {
WB_API void* alloc_output_bytes(std::size_t bytes, std::size_t elem) {
  Output o;
  o.bytes = bytes;
  o.elem = elem;
  void* p = nullptr;
  WB_CHECK(cudaMalloc(&p, o.bytes + 2 * kCanaryBytes));
  o.base = static_cast<unsigned char*>(p);
  outputs().push_back(o);
  poison_output(o.base + kCanaryBytes);
  return o.base + kCanaryBytes;
}
}  // namespace detail

WB_API void free_output(void* interior) {
  auto& list = detail::outputs();
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->base + kCanaryBytes != interior) continue;
    WB_CHECK(cudaFree(it->base));
    list.erase(it);
    return;
  }
  fatal("harness", "wb::free_output: the pointer was not allocated with wb::alloc_output");
}

WB_API void nan_bands(void* interior) {
  detail::Output& o = detail::output_or_die("wb::nan_bands", interior);
  WB_CHECK(cudaMemset(o.base, 0xFF, kCanaryBytes));
  WB_CHECK(cudaMemset(o.base + kCanaryBytes + o.bytes, 0xFF, kCanaryBytes));
  WB_CHECK(cudaDeviceSynchronize());
}

WB_API bool check_bounds(const char* name, const void* interior) {
  const detail::Output& o = detail::output_or_die("wb::check_bounds", interior);
  WB_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> before(kCanaryBytes), after(kCanaryBytes);
  WB_CHECK(cudaMemcpy(before.data(), o.base, kCanaryBytes, cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(after.data(), o.base + kCanaryBytes + o.bytes, kCanaryBytes, cudaMemcpyDeviceToHost));
  std::size_t far_before = 0, far_after = 0;
  const std::size_t n_before = detail::damaged(before, o.elem, false, far_before);
  const std::size_t n_after = detail::damaged(after, o.elem, true, far_after);
  const bool pass = n_before == 0 && n_after == 0;
  std::string text;
  if (pass) {
    text = detail::format("no element written outside the %zu-element output (%zu canary bytes checked either side)",
                          o.bytes / o.elem, kCanaryBytes);
  } else {
    if (n_after)
      text += detail::format("wrote %zu elements past the end (the farthest %zu after it)", n_after, far_after);
    if (n_before)
      text += detail::format("%swrote %zu elements before the start (the farthest %zu before it)",
                             text.empty() ? "" : "; ", n_before, far_before);
    text += ": a missing or off-by-one bounds guard (i < n), or a grid larger than the data";
  }
  return detail::record_check(name, pass, true, static_cast<double>(n_before + n_after), 0.0, text);
}

// ---- L2 flush and the hold kernel ---------------------------------------------------------

namespace detail {
// Reads the flush buffer; the store never happens (the buffer holds zeros), but the
// compiler cannot know that, so every load is kept.
__global__ void flush_read_kernel(const int4* buf, std::size_t n, int* sink) {
  int acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x5EEDBEEF) *sink = acc;
}

// Spins until the host sets *flag, or until timeout_ns have passed (then sets *timed_out).
__global__ void hold_kernel(volatile int* flag, unsigned long long timeout_ns, volatile int* timed_out) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*flag == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

// Spins for ns nanoseconds of the GPU's global timer: a quiet gap on the stream.
__global__ void settle_kernel(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

struct Hold {
  int* flags = nullptr;  // pinned, mapped: [0] release, [1] timed out
};
WB_API Hold& hold_state() {
  static Hold h;
  if (!h.flags) WB_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&h.flags), 2 * sizeof(int), cudaHostAllocMapped));
  return h;
}
}  // namespace detail

WB_API void flush_l2(cudaStream_t stream) {
  static int4* buffer = nullptr;
  static int* sink = nullptr;
  static std::size_t n = 0;
  if (!buffer) {
    int dev = 0, l2 = 0;
    WB_CHECK(cudaGetDevice(&dev));
    WB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    if (l2 <= 0) return;  // no L2 reported: nothing to flush
    n = 4 * static_cast<std::size_t>(l2) / sizeof(int4);
    WB_CHECK(cudaMalloc(&buffer, n * sizeof(int4)));
    WB_CHECK(cudaMalloc(&sink, sizeof(int)));
    WB_CHECK(cudaMemset(buffer, 0, n * sizeof(int4)));
    WB_CHECK(cudaDeviceSynchronize());
  }
  detail::flush_read_kernel<<<1024, 256, 0, stream>>>(buffer, n, sink);
  WB_CHECK(cudaGetLastError());
}

// ---- timing --------------------------------------------------------------------------------

namespace detail {
// Relative noise of the samples: a robust estimate of the standard deviation
// (1.4826 x the median absolute deviation) over the median. Unlike stdev/mean, one
// sample slowed by something else on the machine barely moves it.
WB_API double relative_noise(const std::vector<double>& samples) {
  std::vector<double> v(samples);
  const std::size_t n = v.size(), mid = n / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  const double median = v[mid];
  if (!(median > 0)) return 0.0;
  for (double& x : v) x = std::fabs(x - median);
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  return 1.4826 * v[mid] / median;
}
// Under Nsight Compute or compute-sanitizer (wb::under_profiler) every launch costs the
// tool's replay or instrumentation, and the timings are not graded: one sample is enough,
// and a lab that times thousands of launches still ends.
WB_API void few_samples_under_profiler(TimingOptions& opt) {
  if (!under_profiler()) return;
  opt.warmup = 1;
  opt.min_samples = 1;
  opt.max_samples = 1;
}
}  // namespace detail

namespace detail {
WB_API Stats time_region(LaunchFn launch_fn, void* callable, TimingOptions opt) {
  auto launch = [&] { launch_fn(callable); };
  detail::few_samples_under_profiler(opt);
  cudaEvent_t start, stop;
  WB_CHECK(cudaEventCreate(&start));
  WB_CHECK(cudaEventCreate(&stop));

  // Warm-up, timed as a whole for a first estimate of one launch.
  WB_CHECK(cudaEventRecord(start, opt.stream));
  for (int i = 0; i < std::max(1, opt.warmup); ++i) {
    launch();
    WB_CHECK(cudaGetLastError());
  }
  WB_CHECK(cudaEventRecord(stop, opt.stream));
  WB_CHECK(cudaEventSynchronize(stop));
  float warm_ms = 0.0f;
  WB_CHECK(cudaEventElapsedTime(&warm_ms, start, stop));
  const double estimate_ms = std::max(1e-4, static_cast<double>(warm_ms) / std::max(1, opt.warmup));
  int batch = 1;
  if (!opt.flush_l2)
    batch = static_cast<int>(std::min(1000.0, std::max(1.0, std::ceil(opt.min_batch_ms / estimate_ms))));

  // For timing studies (scripts/device/timing_study.sh compares the methods with Nsight
  // Compute): WB_TIMING=single makes warm samples single launches, WB_TIMING=events
  // keeps CUPTI out (CUDA events only), WB_TIMING=events-traced times with events while
  // CUPTI records the kernels anyway (does tracing itself slow a kernel?), and
  // WB_TIMING=concurrent makes CUPTI use its concurrent-kernel records; comma-separated.
  bool traced = false;
  if (const char* mode = std::getenv("WB_TIMING")) {
    if (std::string(mode).find("single") != std::string::npos) batch = 1;
    traced = std::string(mode).find("traced") != std::string::npos;
  }

  // The kernel clock (CUPTI) when asked for and available; a region run without hold
  // is being timed for its launch costs, so it keeps events.
  detail::KernelClock& kernel_clock = detail::KernelClock::get();
  bool use_kernels = !traced && opt.kernel_clock && opt.hold && kernel_clock.available() && kernel_clock.start();
  const bool tracing_only = traced && kernel_clock.available() && kernel_clock.start();
  detail::Hold* hold = opt.hold && !use_kernels ? &detail::hold_state() : nullptr;
  if (const char* s = std::getenv("WB_SETTLE_US")) opt.settle_us = std::atof(s);
  const unsigned long long settle_ns = static_cast<unsigned long long>(std::max(0.0, opt.settle_us) * 1e3);
  const unsigned long long hold_timeout_ns = 200ull * 1000 * 1000;  // far above any batch's enqueue time
  std::vector<double> samples;
  double sampled_ms = 0.0;
  for (;;) {
    if (opt.flush_l2) {
      flush_l2(opt.stream);
      if (settle_ns > 0) detail::settle_kernel<<<1, 1, 0, opt.stream>>>(settle_ns);
    }
    if (use_kernels) {
      for (int i = 0; i < batch; ++i) launch();
      WB_CHECK(cudaGetLastError());
      WB_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel surfaces here
      long long kernels = 0;
      const double ms = kernel_clock.take_ms(kernels);
      if (kernels < batch) {  // CUPTI saw fewer kernels than were launched: do not trust it
        std::printf("  (time_kernel: CUPTI recorded %lld kernels for %d launches; timing with CUDA events)\n",
                    kernels, batch);
        kernel_clock.stop();
        use_kernels = false;
        hold = opt.hold ? &detail::hold_state() : nullptr;
        continue;
      }
      samples.push_back(ms / batch);
      sampled_ms += ms;
    } else {
      if (hold) {
        hold->flags[0] = 0;
        hold->flags[1] = 0;
        detail::hold_kernel<<<1, 1, 0, opt.stream>>>(hold->flags, hold_timeout_ns, hold->flags + 1);
        WB_CHECK(cudaGetLastError());
      }
      WB_CHECK(cudaEventRecord(start, opt.stream));
      for (int i = 0; i < batch; ++i) launch();
      WB_CHECK(cudaGetLastError());
      WB_CHECK(cudaEventRecord(stop, opt.stream));
      if (hold) reinterpret_cast<volatile int*>(hold->flags)[0] = 1;
      WB_CHECK(cudaEventSynchronize(stop));  // a fault inside the kernel surfaces here
      if (hold && reinterpret_cast<volatile int*>(hold->flags)[1] != 0) {
        std::printf("  (time_kernel: the launch waited for the GPU, so it cannot be queued behind a hold "
                    "kernel; timing without one)\n");
        hold = nullptr;
        continue;
      }
      float ms = 0.0f;
      WB_CHECK(cudaEventElapsedTime(&ms, start, stop));
      samples.push_back(static_cast<double>(ms) / batch);
      sampled_ms += ms;
    }

    const int n = static_cast<int>(samples.size());
    if (n >= opt.max_samples) break;
    if (sampled_ms >= opt.max_time_s * 1e3) break;
    if (n >= opt.min_samples && detail::relative_noise(samples) <= opt.max_noise) break;
  }
  if (use_kernels || tracing_only) kernel_clock.stop();
  WB_CHECK(cudaEventDestroy(start));
  WB_CHECK(cudaEventDestroy(stop));
  Stats st = stats_of(samples);
  st.clock = use_kernels ? "kernels" : "events";
  return st;
}
}  // namespace detail


// ---- short kernels: timing a captured graph of back-to-back launches ------------------------

WB_API int copies_past_l2(std::size_t bytes) {
  int dev = 0, l2 = 0;
  WB_CHECK(cudaGetDevice(&dev));
  WB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  if (bytes == 0) return 2;
  const std::size_t others = (2 * static_cast<std::size_t>(std::max(l2, 0)) + bytes - 1) / bytes;
  return static_cast<int>(std::max<std::size_t>(2, 1 + others));
}

namespace detail {
WB_API Stats time_graph(GraphLaunchFn launch_fn, void* callable, TimingOptions opt) {
  auto launch = [&](int k, cudaStream_t stream) { launch_fn(callable, k, stream); };
  detail::few_samples_under_profiler(opt);
  cudaStream_t s;
  WB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  WB_CHECK(cudaEventCreate(&start));
  WB_CHECK(cudaEventCreate(&stop));
  // A first estimate of one launch, from a few warm launches outside any graph.
  for (int i = 0; i < std::max(1, opt.warmup); ++i) launch(i, s);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaEventRecord(start, s));
  for (int i = 0; i < 4; ++i) launch(i, s);
  WB_CHECK(cudaEventRecord(stop, s));
  WB_CHECK(cudaEventSynchronize(stop));
  float est_ms = 0.0f;
  WB_CHECK(cudaEventElapsedTime(&est_ms, start, stop));
  const double launches_per_batch = std::ceil(opt.min_batch_ms / std::max(1e-4, est_ms / 4.0));
  const int per_graph = under_profiler() ? 2 : static_cast<int>(std::min(512.0, std::max(8.0, launches_per_batch)));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  WB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));  // a library may allocate
  for (int k = 0; k < per_graph; ++k) launch(k, s);
  WB_CHECK(cudaStreamEndCapture(s, &graph));
  WB_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<double> samples;
  double sampled_ms = 0.0;
  for (int r = 0;; ++r) {
    WB_CHECK(cudaEventRecord(start, s));
    WB_CHECK(cudaGraphLaunch(exec, s));
    WB_CHECK(cudaEventRecord(stop, s));
    WB_CHECK(cudaEventSynchronize(stop));  // a fault inside a kernel surfaces here
    float ms = 0.0f;
    WB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r < 2) continue;  // two warm-up replays (the first uploads the graph)
    samples.push_back(static_cast<double>(ms) / per_graph);
    sampled_ms += ms;
    const int n = static_cast<int>(samples.size());
    if (n >= opt.max_samples || sampled_ms >= opt.max_time_s * 1e3) break;
    if (n >= opt.min_samples && detail::relative_noise(samples) <= opt.max_noise) break;
  }
  WB_CHECK(cudaGraphExecDestroy(exec));
  WB_CHECK(cudaGraphDestroy(graph));
  WB_CHECK(cudaEventDestroy(start));
  WB_CHECK(cudaEventDestroy(stop));
  WB_CHECK(cudaStreamDestroy(s));
  Stats st = stats_of(samples);
  st.clock = "graph";
  return st;
}
}  // namespace detail

}  // namespace wb
