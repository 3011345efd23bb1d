/*
Module 3 lab: device query and derived peaks. SOLUTION.

Part 1 (query_device) reads the Module 3 fields of the device from
cudaGetDeviceProperties: name, compute capability, SM count, warp size, threads per
block and per SM, registers and shared memory per SM, L2 size, global memory. The lab
cross-checks every field against cudaDeviceGetAttribute, a second way to ask the driver
the same thing, and reads the SM clock, the memory clock and the memory bus width
through it (CUDA 13 removed the clock fields from cudaDeviceProp).

Part 2 derives three figures from them (derive_peaks):
  peak FP32     = 2 FLOPs per FMA x SMs x FP32 cores per SM x SM clock
  peak DRAM     = 2 transfers per clock (double data rate) x memory clock x bus width / 8
  machine balance = peak FP32 / peak DRAM, in FLOPs per byte

Part 3 checks the derivation against the hardware: a kernel of independent FMAs measures
the FP32 rate actually reached, and a copy kernel the DRAM bandwidth actually reached
(bytes read + bytes written). A peak must be at least what was measured, and not absurdly
more. CUDA does not report FP32 cores per SM: fp32_cores_per_sm() holds NVIDIA's table.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common solutions/module03/device_query.cu -o device_query && ./device_query

Parameters (NAME=VALUE): ITERS (FMA loop trips per thread, default 65536, 4096 with
quick=1), COPY_MB (size of each copy buffer in MB, default 256, 16 with quick=1), seed
(unused), quick=1.
*/

#include <cmath>
#include <cstdio>
#include <string>

#include "workbook.cuh"

// ----------------------------------------------------------------------------
// Device facts CUDA does not report

// FP32 cores per SM by compute capability (CUDA C++ Programming Guide, "arithmetic
// instructions" throughput table). 0 when the architecture is unknown to this table.
int fp32_cores_per_sm(int major, int minor) {
  switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;                      // 7.0 Volta, 7.2 Xavier, 7.5 Turing
    case 8: return minor == 0 ? 64 : 128;   // 8.0 A100; 8.6 / 8.7 / 8.9 GA10x, Orin, Ada
    case 9: return 128;                     // Hopper
    case 10: case 11: case 12: return 128;  // Blackwell
    default: return 0;
  }
}

// ----------------------------------------------------------------------------
// Part 1: the query

// The Module 3 fields, in the units cudaDeviceProp gives them.
struct DeviceFacts {
  std::string name;
  int major = 0, minor = 0;   // compute capability
  int sms = 0;                // multiprocessors
  int warp_size = 0;          // threads per warp
  int threads_per_block = 0;  // most threads one block may have
  int threads_per_sm = 0;     // most threads resident on one SM
  int regs_per_sm = 0;        // 32-bit registers per SM
  size_t shared_per_sm = 0;   // bytes of shared memory per SM
  size_t l2_bytes = 0;        // bytes of L2 cache
  size_t global_bytes = 0;    // bytes of global memory
};

DeviceFacts query_device(int dev) {
  cudaDeviceProp p;
  WB_CHECK(cudaGetDeviceProperties(&p, dev));
  DeviceFacts f;
  f.name = p.name;
  f.major = p.major;
  f.minor = p.minor;
  f.sms = p.multiProcessorCount;
  f.warp_size = p.warpSize;
  f.threads_per_block = p.maxThreadsPerBlock;
  f.threads_per_sm = p.maxThreadsPerMultiProcessor;
  f.regs_per_sm = p.regsPerMultiprocessor;
  f.shared_per_sm = p.sharedMemPerMultiprocessor;
  f.l2_bytes = static_cast<size_t>(p.l2CacheSize);
  f.global_bytes = p.totalGlobalMem;
  return f;
}

// ----------------------------------------------------------------------------
// Part 2: the derivations

struct Peaks {
  double fp32_flops = 0;      // FLOP/s
  double dram_bytes_s = 0;    // bytes/s
  double balance = 0;         // FLOP/byte
};

// sm_clock_khz and mem_clock_khz are what cudaDeviceGetAttribute reports (kHz).
Peaks derive_peaks(int sms, int cores_per_sm, double sm_clock_khz, double mem_clock_khz, int bus_width_bits) {
  Peaks p;
  // One FMA per core per clock, and an FMA counts as two FLOPs.
  p.fp32_flops = 2.0 * sms * cores_per_sm * (sm_clock_khz * 1e3);
  // Double data rate: two transfers per memory clock, each bus_width_bits wide.
  p.dram_bytes_s = 2.0 * (mem_clock_khz * 1e3) * bus_width_bits / 8.0;
  // FLOPs the GPU can do in the time it takes to move one byte.
  p.balance = p.dram_bytes_s > 0 ? p.fp32_flops / p.dram_bytes_s : 0.0;
  return p;
}

// ----------------------------------------------------------------------------
// Part 3: measuring kernels (complete; they check the derivation, they are not the exercise)

constexpr int kChains = 8;  // independent FMA chains per thread, to hide FMA latency

// Every thread runs kChains independent chains a = a * b + c, iters times. b and c are
// kernel arguments, so the compiler cannot fold the loop away; the sum is stored so the
// work is not dead code.
__global__ void fma_burn(float* out, int iters, float b, float c) {
  float a[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) a[k] = threadIdx.x * 1e-3f + k;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = fmaf(a[k], b, c);
  }
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kChains; ++k) sum += a[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Grid-stride copy in 16-byte pieces.
__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// ----------------------------------------------------------------------------
// main

int attribute(cudaDeviceAttr attr, int dev) {
  int v = 0;
  WB_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
  return v;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module03/device_query");
  const long long iters = wb::param("ITERS", 65536, 4096);
  const long long copy_mb = wb::param("COPY_MB", 256, 16);
  wb::params_done();
  if (iters < 1 || iters > (1 << 24)) wb::bad_argument("ITERS must be between 1 and 2^24");
  if (copy_mb < 1 || copy_mb > 8192) wb::bad_argument("COPY_MB must be between 1 and 8192");

  // ---- Part 1: the query, and a cross-check of every field through a second API
  int dev = 0;
  WB_CHECK(cudaGetDevice(&dev));
  const DeviceFacts f = query_device(dev);
  std::printf("%s  cc %d.%d\n", f.name.c_str(), f.major, f.minor);
  std::printf("%d SMs, warp %d, %d threads/block, %d threads/SM (%d warps)\n", f.sms, f.warp_size,
              f.threads_per_block, f.threads_per_sm, f.warp_size > 0 ? f.threads_per_sm / f.warp_size : 0);
  std::printf("%d registers/SM, %zu KB shared/SM, L2 %.1f MB, %.2f GB global\n", f.regs_per_sm,
              f.shared_per_sm / 1024, f.l2_bytes / 1048576.0, f.global_bytes / 1e9);

  // The driver answers the same questions through cudaDeviceGetAttribute.
  auto driver = [&](cudaDeviceAttr attr) { return static_cast<double>(attribute(attr, dev)); };
  struct Field {
    const char* what;
    double got, want;
  };
  const Field fields[] = {
      {"major", double(f.major), driver(cudaDevAttrComputeCapabilityMajor)},
      {"minor", double(f.minor), driver(cudaDevAttrComputeCapabilityMinor)},
      {"multiProcessorCount", double(f.sms), driver(cudaDevAttrMultiProcessorCount)},
      {"warpSize", double(f.warp_size), driver(cudaDevAttrWarpSize)},
      {"maxThreadsPerBlock", double(f.threads_per_block), driver(cudaDevAttrMaxThreadsPerBlock)},
      {"maxThreadsPerMultiProcessor", double(f.threads_per_sm), driver(cudaDevAttrMaxThreadsPerMultiProcessor)},
      {"regsPerMultiprocessor", double(f.regs_per_sm), driver(cudaDevAttrMaxRegistersPerMultiprocessor)},
      {"sharedMemPerMultiprocessor", double(f.shared_per_sm), driver(cudaDevAttrMaxSharedMemoryPerMultiprocessor)},
      {"l2CacheSize", double(f.l2_bytes), driver(cudaDevAttrL2CacheSize)},
  };
  size_t global_free = 0, global_total = 0;
  WB_CHECK(cudaMemGetInfo(&global_free, &global_total));
  std::string wrong;
  for (const Field& x : fields)
    if (x.got != x.want)
      wrong += wb::detail::format("%s%s is %.0f, the driver says %.0f", wrong.empty() ? "" : "; ", x.what, x.got, x.want);
  // cudaMemGetInfo's total can differ from totalGlobalMem by what the driver reserves:
  // 2 % slack, far tighter than any other field would miss by.
  if (std::fabs(static_cast<double>(f.global_bytes) - static_cast<double>(global_total)) > 0.02 * global_total)
    wrong += wb::detail::format("%stotalGlobalMem is %zu, cudaMemGetInfo says %zu", wrong.empty() ? "" : "; ",
                                f.global_bytes, global_total);
  if (f.name.empty()) wrong += std::string(wrong.empty() ? "" : "; ") + "the name is empty";
  const int n_fields = static_cast<int>(sizeof fields / sizeof fields[0]) + 2;
  wb::check("query_fields_match", wrong.empty(), wrong.empty() ? 0 : 1, 0,
            wrong.empty() ? wb::detail::format("all %d fields agree with cudaDeviceGetAttribute / cudaMemGetInfo", n_fields)
                          : wrong);

  const double sm_clock_khz = attribute(cudaDevAttrClockRate, dev);
  const double mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, dev);
  const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev);
  const int cores = fp32_cores_per_sm(f.major, f.minor);
  std::printf("%d FP32 cores per SM; SM clock %.0f MHz, memory clock %.0f MHz, bus %d bits\n", cores,
              sm_clock_khz / 1e3, mem_clock_khz / 1e3, bus_bits);
  if (cores == 0) std::printf("note: compute capability %d.%d is not in fp32_cores_per_sm's table\n", f.major, f.minor);

  wb::metric("compute_capability", f.major + f.minor / 10.0, "cc");
  wb::metric("sms", f.sms, "count");
  wb::metric("warp_size", f.warp_size, "threads");
  wb::metric("threads_per_block", f.threads_per_block, "threads");
  wb::metric("threads_per_sm", f.threads_per_sm, "threads");
  wb::metric("registers_per_sm", f.regs_per_sm, "registers");
  wb::metric("shared_kb_sm", f.shared_per_sm / 1024.0, "KB");
  wb::metric("l2_cache_mb", f.l2_bytes / 1048576.0, "MB");
  wb::metric("global_mem_gb", f.global_bytes / 1e9, "GB");
  wb::metric("sm_clock_mhz", sm_clock_khz / 1e3, "MHz");
  wb::metric("mem_clock_mhz", mem_clock_khz / 1e3, "MHz");
  wb::metric("bus_width_bits", bus_bits, "bits");
  wb::metric("cores_per_sm", cores, "count");

  // ---- Part 2: the derivations
  const Peaks peaks = derive_peaks(f.sms, cores, sm_clock_khz, mem_clock_khz, bus_bits);
  wb::metric("peak_fp32_tflops", peaks.fp32_flops / 1e12, "TFLOP/s");
  wb::metric("peak_dram_gbps", peaks.dram_bytes_s / 1e9, "GB/s");
  wb::metric("balance", peaks.balance, "FLOP/byte");

  // ---- Part 3: what the hardware actually reaches (sized from the driver's figures,
  // not from the query above, so that a wrong query cannot break the measurement)
  const int sms = attribute(cudaDevAttrMultiProcessorCount, dev);
  const int threads_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  const int l2 = attribute(cudaDevAttrL2CacheSize, dev);
  const int block = 256;
  const int blocks = sms * std::max(1, threads_sm / block);  // one full wave at full occupancy
  float* d_sink = nullptr;
  WB_CHECK(cudaMalloc(&d_sink, static_cast<size_t>(blocks) * block * sizeof(float)));
  const int it = static_cast<int>(iters);
  wb::TimingOptions fma_opt;
  fma_opt.flush_l2 = false;
  fma_opt.max_time_s = 0.3;
  const wb::Stats fma = wb::time_kernel([&] { fma_burn<<<blocks, block>>>(d_sink, it, 0.999f, 0.001f); }, fma_opt);
  const double fma_flops = 2.0 * kChains * static_cast<double>(iters) * blocks * block;
  const double measured_flops = fma_flops / (fma.median * 1e-3);
  wb::metric("fma_ms", fma, "ms");
  wb::metric("measured_fp32_tflops", measured_flops / 1e12, "TFLOP/s");

  const size_t bytes = static_cast<size_t>(copy_mb) * 1000000 / 16 * 16;
  float *d_a = nullptr, *d_b = nullptr;
  WB_CHECK(cudaMalloc(&d_a, bytes));
  WB_CHECK(cudaMalloc(&d_b, bytes));
  WB_CHECK(cudaMemset(d_a, 0x3F, bytes));  // any finite pattern: copies do not care
  const size_t n4 = bytes / 16;
  const int copy_blocks = sms * std::max(1, threads_sm / block) * 4;
  wb::TimingOptions copy_opt;
  copy_opt.max_time_s = 0.3;
  // Flush the L2 only when the buffers could sit in it: after a flush the L2 is full of
  // dirty lines whose write-back would be timed with the copy.
  copy_opt.flush_l2 = 2.0 * bytes < 2.0 * l2;
  const wb::Stats cp = wb::time_kernel(
      [&] { copy_kernel<<<copy_blocks, block>>>(reinterpret_cast<const float4*>(d_a), reinterpret_cast<float4*>(d_b), n4); },
      copy_opt);
  const double measured_bw = 2.0 * bytes / (cp.median * 1e-3);
  wb::metric("copy_ms", cp, "ms");
  wb::metric("measured_dram_gbps", measured_bw / 1e9, "GB/s");

  // A derived peak must bound what the hardware did (2 % slack for timer noise), and a
  // measurement under a quarter of it means the formula is off by a factor (or the GPU
  // is throttled: check nvidia-smi -q -d CLOCK).
  const double fp32_ratio = peaks.fp32_flops > 0 ? measured_flops / peaks.fp32_flops : 0.0;
  const double bw_ratio = peaks.dram_bytes_s > 0 ? measured_bw / peaks.dram_bytes_s : 0.0;
  if (const char* tool = wb::under_profiler()) {
    // The profiler slows the measuring kernels (memcheck: the copy ran at 2 % of the H200's
    // peak), so a measured rate says nothing about the derived peaks here.
    const std::string why = std::string("measured under ") + tool + ", which slows the measuring kernels";
    wb::skip_check("peak_fp32_bounds_measured", why);
    wb::skip_check("peak_dram_bounds_measured", why);
  } else {
    wb::check("peak_fp32_bounds_measured", fp32_ratio >= 0.25 && fp32_ratio <= 1.02, fp32_ratio, 1.02,
              wb::detail::format("measured %.2f TFLOP/s is %.0f%% of the derived peak; expected 25-102%%",
                                 measured_flops / 1e12, 100 * fp32_ratio));
    wb::check("peak_dram_bounds_measured", bw_ratio >= 0.25 && bw_ratio <= 1.02, bw_ratio, 1.02,
              wb::detail::format("measured %.0f GB/s is %.0f%% of the derived peak; expected 25-102%%", measured_bw / 1e9,
                                 100 * bw_ratio));
  }
  const double want_balance = peaks.dram_bytes_s > 0 ? peaks.fp32_flops / peaks.dram_bytes_s : 0.0;
  const bool balance_ok = peaks.balance > 0 && std::fabs(peaks.balance - want_balance) <= 1e-9 * want_balance;
  wb::check("balance_consistent", balance_ok, peaks.balance, want_balance,
            "balance must be the derived FP32 peak over the derived DRAM peak (FLOP/byte)");

  WB_CHECK(cudaFree(d_sink));
  WB_CHECK(cudaFree(d_a));
  WB_CHECK(cudaFree(d_b));
  return wb::finish();
}
