/*
Module 3 lab: device query and derived peaks. STARTER: derive_peaks below is
yours to write (see its TODO); everything else is complete.

Part 1 reads the Module 3 fields of the device: name, compute capability, SM count, warp
size, threads per block and per SM, registers and shared memory per SM, L2 size, global
memory (cudaGetDeviceProperties for the name and memory size, cudaDeviceGetAttribute for
the rest: CUDA 13 removed the clock fields from cudaDeviceProp), plus the SM clock, the
memory clock and the memory bus width.

Part 2 derives three figures from them (derive_peaks):
  peak FP32     = 2 FLOPs per FMA x SMs x FP32 cores per SM x SM clock
  peak DRAM     = 2 transfers per clock (double data rate) x memory clock x bus width / 8
  machine balance = peak FP32 / peak DRAM, in FLOPs per byte

Part 3 checks the derivation against the hardware: a kernel of independent FMAs measures
the FP32 rate actually reached, and a copy kernel the DRAM bandwidth actually reached
(bytes read + bytes written). A peak must be at least what was measured, and not absurdly
more. CUDA does not report FP32 cores per SM: fp32_cores_per_sm() holds NVIDIA's table.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module03/device_query.cu -o device_query && ./device_query

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
// The derivations

struct Peaks {
  double fp32_flops = 0;      // FLOP/s
  double dram_bytes_s = 0;    // bytes/s
  double balance = 0;         // FLOP/byte
};

// sm_clock_khz and mem_clock_khz are what cudaDeviceGetAttribute reports (kHz).
Peaks derive_peaks(int sms, int cores_per_sm, double sm_clock_khz, double mem_clock_khz, int bus_width_bits) {
  Peaks p;
  // TODO (Module 3 worked example): fill in the three figures. Until you do they stay
  // 0 and all three checks fail. Mind the units: the clocks arrive in kHz.
  //
  // 1. p.fp32_flops: every FP32 core can finish one fused multiply-add (FMA) per clock,
  //    and an FMA counts as two FLOPs. Multiply that out over all cores of all SMs at
  //    the SM clock (in Hz).
  // 2. p.dram_bytes_s: the memory moves data on both edges of its clock (double data
  //    rate), bus_width_bits bits at a time. Convert bits to bytes at the end.
  // 3. p.balance: how many FLOPs the GPU can do in the time it moves one byte, i.e. the
  //    first figure over the second (leave it 0 if the bandwidth is 0).
  (void)sms, (void)cores_per_sm, (void)sm_clock_khz, (void)mem_clock_khz, (void)bus_width_bits;
  return p;
}

// ----------------------------------------------------------------------------
// Measuring kernels (complete; they check the derivation, they are not the exercise)

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

  // ---- Part 1: the query
  int dev = 0;
  WB_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  WB_CHECK(cudaGetDeviceProperties(&prop, dev));
  const int major = attribute(cudaDevAttrComputeCapabilityMajor, dev);
  const int minor = attribute(cudaDevAttrComputeCapabilityMinor, dev);
  const int sms = attribute(cudaDevAttrMultiProcessorCount, dev);
  const int warp = attribute(cudaDevAttrWarpSize, dev);
  const int threads_block = attribute(cudaDevAttrMaxThreadsPerBlock, dev);
  const int threads_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  const int regs_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, dev);
  const int shared_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
  const int l2 = attribute(cudaDevAttrL2CacheSize, dev);
  const double sm_clock_khz = attribute(cudaDevAttrClockRate, dev);
  const double mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, dev);
  const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev);
  const int cores = fp32_cores_per_sm(major, minor);

  std::printf("%s  cc %d.%d\n", prop.name, major, minor);
  std::printf("%d SMs x %d FP32 cores, warp %d, %d threads/block, %d threads/SM (%d warps)\n", sms, cores, warp,
              threads_block, threads_sm, warp > 0 ? threads_sm / warp : 0);
  std::printf("%d registers/SM, %d KB shared/SM, L2 %.1f MB, %.2f GB global\n", regs_sm, shared_sm / 1024,
              l2 / 1048576.0, static_cast<double>(prop.totalGlobalMem) / 1e9);
  std::printf("SM clock %.0f MHz, memory clock %.0f MHz, bus %d bits\n", sm_clock_khz / 1e3, mem_clock_khz / 1e3,
              bus_bits);
  if (cores == 0) std::printf("note: compute capability %d.%d is not in fp32_cores_per_sm's table\n", major, minor);

  wb::metric("compute_capability", major + minor / 10.0, "cc");
  wb::metric("sms", sms, "count");
  wb::metric("warp_size", warp, "threads");
  wb::metric("threads_per_block", threads_block, "threads");
  wb::metric("threads_per_sm", threads_sm, "threads");
  wb::metric("registers_per_sm", regs_sm, "registers");
  wb::metric("shared_kb_sm", shared_sm / 1024.0, "KB");
  wb::metric("l2_cache_mb", l2 / 1048576.0, "MB");
  wb::metric("global_mem_gb", static_cast<double>(prop.totalGlobalMem) / 1e9, "GB");
  wb::metric("sm_clock_mhz", sm_clock_khz / 1e3, "MHz");
  wb::metric("mem_clock_mhz", mem_clock_khz / 1e3, "MHz");
  wb::metric("bus_width_bits", bus_bits, "bits");
  wb::metric("cores_per_sm", cores, "count");

  // ---- Part 2: the derivations
  const Peaks peaks = derive_peaks(sms, cores, sm_clock_khz, mem_clock_khz, bus_bits);
  wb::metric("peak_fp32_tflops", peaks.fp32_flops / 1e12, "TFLOP/s");
  wb::metric("peak_dram_gbps", peaks.dram_bytes_s / 1e9, "GB/s");
  wb::metric("balance", peaks.balance, "FLOP/byte");

  // ---- Part 3: what the hardware actually reaches
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
  wb::check("peak_fp32_bounds_measured", fp32_ratio >= 0.25 && fp32_ratio <= 1.02, fp32_ratio, 1.02,
            wb::detail::format("measured %.2f TFLOP/s is %.0f%% of the derived peak; expected 25-102%%",
                               measured_flops / 1e12, 100 * fp32_ratio));
  const double bw_ratio = peaks.dram_bytes_s > 0 ? measured_bw / peaks.dram_bytes_s : 0.0;
  wb::check("peak_dram_bounds_measured", bw_ratio >= 0.25 && bw_ratio <= 1.02, bw_ratio, 1.02,
            wb::detail::format("measured %.0f GB/s is %.0f%% of the derived peak; expected 25-102%%", measured_bw / 1e9,
                               100 * bw_ratio));
  const double want_balance = peaks.dram_bytes_s > 0 ? peaks.fp32_flops / peaks.dram_bytes_s : 0.0;
  const bool balance_ok = peaks.balance > 0 && std::fabs(peaks.balance - want_balance) <= 1e-9 * want_balance;
  wb::check("balance_consistent", balance_ok, peaks.balance, want_balance,
            "balance must be the derived FP32 peak over the derived DRAM peak (FLOP/byte)");

  WB_CHECK(cudaFree(d_sink));
  WB_CHECK(cudaFree(d_a));
  WB_CHECK(cudaFree(d_b));
  return wb::finish();
}
