/*
Probe: calibration micro-benchmarks, measured the way the project's method asks (warm-up
first, CUDA events, many samples, the median, fresh random inputs, working sets far
larger than the L2 so nothing is served from cache).

`workbook device --calibrate` compiles this like a lab, runs it, and stores the figures
in the journal for this GPU; expected ranges then use them instead of the spec sheet.
It is not a lab: no manifest names it, and `workbook dev check` never sees it.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/common/probes/calibrate.cu -o calibrate && ./calibrate

Parameters (NAME=VALUE):
  l2_multiple  device buffers are this many times the L2 size (default 8, quick 2), and at
               least 256 MiB each (16 MiB with quick=1)
  host_mb      host<->device transfer size in MiB (default 256, quick 16)
  fma_iters    loop trips of the FMA kernels (default 8192, quick 256)
  launches     empty-kernel launches per sample (default 1000, quick 100)

Metrics:
  d2d_gbps          copy kernel (float4 grid-stride), bytes read + bytes written per second
  memcpy_d2d_gbps   cudaMemcpy device-to-device on the same buffers, read + written: the
                    independent cross-check of d2d_gbps
  d2d_crosscheck_pct  |d2d - memcpy_d2d| / memcpy_d2d in %
  fp32_tflops       FMA chains, 16 independent accumulators a thread, every SM full
  fp64_tflops       the same in double (8 accumulators)
  h2d_pageable_gbps h2d_pinned_gbps d2h_pageable_gbps d2h_pinned_gbps   cudaMemcpy rates
  launch_us         back-to-back launches of an empty kernel, time per launch (a launch
                    rate, not the latency of one isolated launch)
  sm_count, sm_clock_khz, l2_bytes  the device figures the sizes were derived from
  and the raw times behind each rate (*_ms, with samples, min, max and spread).

Checks: copy_ok (the copy kernel and cudaMemcpy copied every element), fma_finite
(the FMA results are finite, so the chains really ran), figures_valid (every figure is
finite and positive), d2d_crosscheck (copy kernel and cudaMemcpy agree within 10 %).
*/

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "workbook.cuh"

namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n4) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    out[i] = in[i];
  }
}

constexpr int kAcc32 = 16;  // independent FMA chains per thread (float)
constexpr int kAcc64 = 8;   // ... (double)
constexpr int kFmaThreads = 256;

// Each thread runs kAcc independent chains x = x * b + c for `iters` trips: 2 * kAcc * iters
// FLOP a thread. b and c come from the host (random), so nothing folds at compile time,
// and the sum is stored, so nothing is dropped.
template <typename T, int kAcc>
__global__ void __launch_bounds__(kFmaThreads) fma_kernel(T* out, T seed, T b, T c, int iters) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  T x[kAcc];
#pragma unroll
  for (int k = 0; k < kAcc; ++k) x[k] = seed + static_cast<T>(tid % 97) * static_cast<T>(1e-3) + static_cast<T>(k);
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {  // unrolled so loop counting takes few issue slots
#pragma unroll
    for (int k = 0; k < kAcc; ++k) x[k] = fma(x[k], b, c);
  }
  T sum = 0;
#pragma unroll
  for (int k = 0; k < kAcc; ++k) sum += x[k];
  out[tid] = sum;
}

__global__ void empty_kernel() {}

int attribute(cudaDeviceAttr attr, int dev) {
  int v = 0;
  WB_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
  return v;
}

// GB/s (10^9 bytes a second) from bytes moved in a median of `ms` milliseconds.
double gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0; }

struct Figure {
  std::string name;
  double value;
};

}  // namespace

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "probes/calibrate");
  const long long l2_multiple = wb::param("l2_multiple", 8, 2);
  const long long host_mb = wb::param("host_mb", 256, 16);
  const long long fma_iters = wb::param("fma_iters", 8192, 256);
  const long long launches = wb::param("launches", 1000, 100);
  wb::params_done();
  if (l2_multiple < 1 || host_mb < 1 || fma_iters < 1 || fma_iters > (1 << 30) || launches < 1) {
    wb::bad_argument("l2_multiple, host_mb, launches and fma_iters (at most 2^30) must be positive");
  }

  int dev = 0;
  WB_CHECK(cudaGetDevice(&dev));
  const int sm_count = attribute(cudaDevAttrMultiProcessorCount, dev);
  const int threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  const int sm_clock_khz = attribute(cudaDevAttrClockRate, dev);
  const int l2_bytes = attribute(cudaDevAttrL2CacheSize, dev);
  wb::metric("sm_count", sm_count, "count");
  wb::metric("sm_clock_khz", sm_clock_khz, "kHz");
  wb::metric("l2_bytes", l2_bytes, "bytes");

  std::vector<Figure> figures;
  wb::TimingOptions big;  // working sets far beyond L2: no flush needed (it would add write-backs)
  big.flush_l2 = false;
  big.warmup = 3;
  big.min_samples = 10;
  big.max_samples = 200;
  big.max_noise = 0.01;
  big.max_time_s = 2.0;

  // ---- device-to-device: copy kernel and cudaMemcpy over the same buffers ----------------
  {
    const std::size_t floor_bytes = std::size_t(wb::quick() ? 16 : 256) << 20;
    std::size_t bytes = std::max<std::size_t>(floor_bytes, static_cast<std::size_t>(l2_multiple) * l2_bytes);
    bytes = (bytes + 4095) / 4096 * 4096;  // a whole number of float4s
    std::size_t free_b = 0, total_b = 0;
    WB_CHECK(cudaMemGetInfo(&free_b, &total_b));
    while (2 * bytes > free_b / 2 && bytes > (std::size_t(16) << 20)) bytes /= 2;  // small or shared (MIG) GPUs
    const std::size_t n = bytes / sizeof(float), n4 = n / 4;
    std::vector<float> host(n);
    wb::fill_uniform(host.data(), n, -1.0f, 1.0f, 1);
    float *in = nullptr, *out = nullptr;
    WB_CHECK(cudaMalloc(&in, bytes));
    WB_CHECK(cudaMalloc(&out, bytes));
    WB_CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
    wb::metric("d2d_buffer_bytes", static_cast<double>(bytes), "bytes");

    const int threads = 256;
    const int blocks = sm_count * (threads_per_sm / threads) * 4;  // grid-stride: a few waves of resident blocks
    wb::poison(out, bytes);
    wb::Stats copy = wb::time_kernel(
        [&] { copy_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out), n4); },
        big);
    std::vector<float> back(n);
    WB_CHECK(cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost));
    bool copy_same = std::memcmp(back.data(), host.data(), bytes) == 0;

    wb::poison(out, bytes);
    wb::TimingOptions by_events = big;
    by_events.kernel_clock = false;  // a copy engine's work, not a kernel: CUDA events
    wb::Stats mc = wb::time_kernel([&] { WB_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, 0)); }, by_events);
    WB_CHECK(cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost));
    const bool memcpy_same = std::memcmp(back.data(), host.data(), bytes) == 0;
    wb::check("copy_ok", copy_same && memcpy_same,
              copy_same && memcpy_same ? "both copies match the input"
                                       : std::string(copy_same ? "" : "the copy kernel ") + (memcpy_same ? "" : "cudaMemcpy ") +
                                             "left elements that differ from the input");
    WB_CHECK(cudaFree(in));
    WB_CHECK(cudaFree(out));

    wb::metric("d2d_copy_ms", copy, "ms");
    wb::metric("d2d_memcpy_ms", mc, "ms");
    const double d2d = gbps(2.0 * static_cast<double>(bytes), copy.median);
    const double mcd = gbps(2.0 * static_cast<double>(bytes), mc.median);
    figures.push_back({"d2d_gbps", d2d});
    figures.push_back({"memcpy_d2d_gbps", mcd});
    const double diff_pct = mcd > 0 ? std::fabs(d2d - mcd) / mcd * 100.0 : 100.0;
    wb::metric("d2d_gbps", d2d, "GB/s");
    wb::metric("memcpy_d2d_gbps", mcd, "GB/s");
    wb::metric("d2d_crosscheck_pct", diff_pct, "%");
    wb::check("d2d_crosscheck", diff_pct <= 10.0, diff_pct, 10.0,
              "copy kernel vs cudaMemcpy device-to-device, relative difference in %");
  }

  // ---- FP32 and FP64 FMA rates -----------------------------------------------------------
  {
    // Exactly one wave: as many blocks as fit on every SM at once (from the occupancy
    // calculator, so the register count decides), never a partial second wave.
    int per_sm32 = 0, per_sm64 = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm32, fma_kernel<float, kAcc32>, kFmaThreads, 0));
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm64, fma_kernel<double, kAcc64>, kFmaThreads, 0));
    const int blocks32 = sm_count * std::max(1, per_sm32), blocks64 = sm_count * std::max(1, per_sm64);
    const std::size_t threads32 = static_cast<std::size_t>(blocks32) * kFmaThreads;
    const std::size_t threads64 = static_cast<std::size_t>(blocks64) * kFmaThreads;
    const std::size_t threads = std::max(threads32, threads64);
    wb::metric("fp32_blocks_per_sm", per_sm32, "blocks");
    wb::metric("fp64_blocks_per_sm", per_sm64, "blocks");
    wb::Rng rng(7);
    const double r1 = rng.uniform(), r2 = rng.uniform(), r3 = rng.uniform();
    // x -> x*b + c with b just under 1 converges to c/(1-b): finite however long it runs.
    const double b = 0.999 + 0.0005 * r1, c = 0.001 + 0.001 * r2, seed = r3;
    wb::TimingOptions fma = big;
    fma.max_time_s = 1.5;

    float* out32 = nullptr;
    double* out64 = nullptr;
    WB_CHECK(cudaMalloc(&out32, threads * sizeof(float)));
    WB_CHECK(cudaMalloc(&out64, threads * sizeof(double)));
    wb::poison(out32, threads * sizeof(float));
    wb::poison(out64, threads * sizeof(double));
    const int it32 = static_cast<int>(fma_iters);
    const int it64 = std::max(1, static_cast<int>(fma_iters / 4));
    wb::Stats t32 = wb::time_kernel(
        [&] {
          fma_kernel<float, kAcc32><<<blocks32, kFmaThreads>>>(out32, static_cast<float>(seed), static_cast<float>(b),
                                                             static_cast<float>(c), it32);
        },
        fma);
    wb::Stats t64 =
        wb::time_kernel([&] { fma_kernel<double, kAcc64><<<blocks64, kFmaThreads>>>(out64, seed, b, c, it64); }, fma);
    std::vector<float> h32(threads);
    std::vector<double> h64(threads);
    WB_CHECK(cudaMemcpy(h32.data(), out32, threads * sizeof(float), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaMemcpy(h64.data(), out64, threads * sizeof(double), cudaMemcpyDeviceToHost));
    bool finite = true;
    for (std::size_t i = 0; i < threads32; ++i) finite = finite && std::isfinite(h32[i]);
    for (std::size_t i = 0; i < threads64; ++i) finite = finite && std::isfinite(h64[i]);
    wb::check("fma_finite", finite, finite ? "every thread stored a finite sum" : "a thread stored NaN or inf");
    WB_CHECK(cudaFree(out32));
    WB_CHECK(cudaFree(out64));

    wb::metric("fp32_fma_ms", t32, "ms");
    wb::metric("fp64_fma_ms", t64, "ms");
    const double flop32 = 2.0 * kAcc32 * static_cast<double>(it32) * static_cast<double>(threads32);
    const double flop64 = 2.0 * kAcc64 * static_cast<double>(it64) * static_cast<double>(threads64);
    const double fp32 = t32.median > 0 ? flop32 / (t32.median * 1e-3) / 1e12 : 0.0;
    const double fp64 = t64.median > 0 ? flop64 / (t64.median * 1e-3) / 1e12 : 0.0;
    figures.push_back({"fp32_tflops", fp32});
    figures.push_back({"fp64_tflops", fp64});
    wb::metric("fp32_tflops", fp32, "TFLOP/s");
    wb::metric("fp64_tflops", fp64, "TFLOP/s");
  }

  // ---- host <-> device, pageable and pinned ----------------------------------------------
  {
    const std::size_t bytes = static_cast<std::size_t>(host_mb) << 20;
    const std::size_t n = bytes / sizeof(float);
    std::vector<float> pageable(n);
    wb::fill_uniform(pageable.data(), n, -1.0f, 1.0f, 2);  // touches every page
    float* pinned = nullptr;
    WB_CHECK(cudaMallocHost(&pinned, bytes));
    std::memcpy(pinned, pageable.data(), bytes);
    float* d = nullptr;
    WB_CHECK(cudaMalloc(&d, bytes));
    wb::TimingOptions xfer = big;
    xfer.kernel_clock = false;  // copies: CUDA events
    xfer.max_time_s = 1.5;
    struct Transfer {
      const char* name;
      const char* ms_name;
      void* dst;
      const void* src;
      cudaMemcpyKind kind;
    };
    const Transfer transfers[] = {
        {"h2d_pageable_gbps", "h2d_pageable_ms", d, pageable.data(), cudaMemcpyHostToDevice},
        {"h2d_pinned_gbps", "h2d_pinned_ms", d, pinned, cudaMemcpyHostToDevice},
        {"d2h_pageable_gbps", "d2h_pageable_ms", pageable.data(), d, cudaMemcpyDeviceToHost},
        {"d2h_pinned_gbps", "d2h_pinned_ms", pinned, d, cudaMemcpyDeviceToHost},
    };
    for (const Transfer& t : transfers) {
      wb::Stats st = wb::time_kernel([&] { WB_CHECK(cudaMemcpyAsync(t.dst, t.src, bytes, t.kind, 0)); }, xfer);
      wb::metric(t.ms_name, st, "ms");
      const double rate = gbps(static_cast<double>(bytes), st.median);
      figures.push_back({t.name, rate});
      wb::metric(t.name, rate, "GB/s");
    }
    WB_CHECK(cudaFree(d));
    WB_CHECK(cudaFreeHost(pinned));
  }

  // ---- launch overhead -------------------------------------------------------------------
  {
    wb::TimingOptions lo;
    lo.flush_l2 = false;
    lo.warmup = 2;
    lo.min_samples = 20;
    lo.max_samples = 100;
    lo.max_noise = 0.01;
    lo.max_time_s = 2.0;
    lo.kernel_clock = false;  // the launch cost is the figure: CUDA events, not kernel durations
    const int count = static_cast<int>(launches);
    wb::Stats st = wb::time_kernel(
        [&] {
          for (int i = 0; i < count; ++i) empty_kernel<<<1, 32>>>();
        },
        lo);
    wb::metric("launch_batch_ms", st, "ms");
    const double us = st.median * 1e3 / count;
    figures.push_back({"launch_us", us});
    wb::metric("launch_us", us, "us");
  }

  std::string bad;
  for (const Figure& f : figures) {
    if (!(std::isfinite(f.value) && f.value > 0)) bad += (bad.empty() ? "" : ", ") + f.name + "=" + wb::detail::human(f.value);
  }
  wb::check("figures_valid", bad.empty(), bad.empty() ? "every figure is finite and positive" : "not finite or not positive: " + bad);
  return wb::finish();
}
