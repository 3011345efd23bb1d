/*
Module 21 lab: watch rounding happen. STARTER: complete the four TODOs.

The experiment: add 0.0001 to itself 1,000,000 times on the GPU. The exact answer is 100.
Two orders of addition, each in three number formats:

  running sum   one thread, one accumulator: s = s + x[i] for i = 0, 1, 2, ...
                Late in the loop s is large and x[i] is tiny, so every addition rounds
                away part of x[i], or all of it.
  tree          pairwise: each block of 256 threads folds 512 neighbouring values into
                one (the Module 13 reduction with sequential addressing), and the level is
                repeated on the block results until one value is left. Every addition
                combines two partial sums of about the same size.

  formats       FP32 (float), FP16 (__half, cuda_fp16.h), BF16 (__nv_bfloat16,
                cuda_bf16.h); every addition is rounded to the format (round to nearest,
                ties to even). For comparison: the FP32 running sum with Kahan's
                compensation, and the running sum in FP64.

The inputs are float values (0.0001f) converted to each format on the GPU, so what each
format adds is its own nearest value to 0.0001.

Predict every value before you run it (workbook run asks); the reading derives them.

Every GPU result is compared BITWISE with a CPU emulation of the same additions in the
same order: round_to_format() rounds a double to a format's significand width and
smallest exponent, round to nearest, ties to even, and each emulated addition is done
exactly in double, then rounded. (The sum of two FP32, FP16 or BF16 numbers of the sizes
used here is exact in double, so there is one rounding per addition, as on the GPU.)

What is checked:
  - round_to_format against CUDA's own host conversions (__float2half_rn,
    __float2bfloat16_rn) on random floats of every size and on exact ties
    (rounding_fp16, rounding_bf16);
  - every sum on fresh random values in [0.001, 1] at N_ODD (70,001 by default: not a
    multiple of the tree's 512-value segment), the FP16, BF16 and FP64 copies and the
    first tree level's output between canary bands (*_odd, convert_*_odd_bounds,
    tree_*_odd_bounds); every input's bands are NaN while the sums read it, so a sum
    that reads one element past the end gives NaN;
  - every sum of the 1,000,000 copies of 0.0001f (running_*, kahan_fp32, tree_*), and
    the two running sums that stall, against the value derived from the format's
    spacing (fp16_stall, bf16_stall).

Build flags: no -use_fast_math (it would let the compiler change how float additions
round). FMA contraction cannot touch these loops: there are no multiplies.

Your TODOs, in order:
  1. round_to_format (CPU): the emulated rounding every check relies on
  2. running_sum and kahan_sum (GPU): one thread, one accumulator
  3. tree_block (GPU): one level of the pairwise tree
  4. gpu_tree (host): how many blocks each level needs
Until then the checks fail (the outputs stay NaN).

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module21/rounding.cu -o rounding && ./rounding

Parameters (NAME=VALUE): N_ODD (size of the random check, default 70,001; at most
100,000 so that an FP16 tree total stays below 65,504), seed, quick=1 (the same sizes:
the whole lab takes well under a second of GPU time).
*/

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int kAdds = 1000000;         // the workbook's experiment: 1,000,000 additions...
constexpr float kIncrement = 0.0001f;  // ...of 0.0001 (as a float: 9.99999974737875e-05)
constexpr int kThreads = 256;          // threads of a tree block; a block folds 2 x 256 values

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// ----------------------------------------------------------------------------
// CPU reference: emulated rounding

// A binary floating-point format, as far as rounding is concerned: the width of the
// significand (leading bit included) and the smallest normal exponent (below it the
// spacing stops shrinking: the subnormals). Overflow is not modelled: the lab's sums
// stay far below each format's largest value.
struct Format {
  const char* name;
  int bits;
  int min_exp;
};
constexpr Format kFP64{"fp64", 53, -1022};
constexpr Format kFP32{"fp32", 24, -126};
constexpr Format kFP16{"fp16", 11, -14};
constexpr Format kBF16{"bf16", 8, -126};

// v rounded to the nearest number of format f, ties to the even neighbour.
double round_to_format(double v, const Format& f) {
  if (v == 0.0 || !std::isfinite(v)) return v;
  // TODO 1: return the number of format f (f.bits significand bits, smallest normal
  // exponent f.min_exp) nearest to v, a tie going to the neighbour whose last bit is
  // even: IEEE round to nearest, computed in double (the reading, section 1). Every CPU
  // model of the lab rests on it; rounding_fp16 and rounding_bf16 test it against the
  // GPU's own conversions. Pitfalls: the spacing
  // depends on where v lies, and below the smallest normal number it stops shrinking
  // (subnormals); a tie must not round away from zero.
  return v;  // placeholder: no rounding at all
}

// One thread's running sum, rounded to f after every addition.
double emulate_running(const std::vector<float>& x, const Format& f) {
  double s = 0.0;
  for (float v : x) s = round_to_format(s + round_to_format(v, f), f);
  return s;
}

// Kahan's compensated sum in float arithmetic.
double emulate_kahan(const std::vector<float>& x) {
  float s = 0.0f, c = 0.0f;
  for (float v : x) {
    const float y = v - c;
    const float t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

// The GPU tree, addition for addition: segments of 2 x kThreads values (missing values
// count as zero, and adding zero is exact), first value i + value i + kThreads, then
// strides kThreads/2, ..., 1; then the same on the segment results until one is left.
double emulate_tree(const std::vector<float>& x, const Format& f) {
  std::vector<double> level(x.size());
  for (size_t i = 0; i < x.size(); ++i) level[i] = round_to_format(x[i], f);
  std::vector<double> s(kThreads);
  while (level.size() > 1) {
    const size_t n = level.size(), blocks = (n + 2 * kThreads - 1) / (2 * kThreads);
    std::vector<double> next(blocks);
    for (size_t b = 0; b < blocks; ++b) {
      for (size_t t = 0; t < kThreads; ++t) {
        const size_t i = b * 2 * kThreads + t, j = i + kThreads;
        s[t] = round_to_format((i < n ? level[i] : 0.0) + (j < n ? level[j] : 0.0), f);
      }
      for (size_t stride = kThreads / 2; stride > 0; stride /= 2)
        for (size_t t = 0; t < stride; ++t) s[t] = round_to_format(s[t] + s[t + stride], f);
      next[b] = s[0];
    }
    level.swap(next);
  }
  return level[0];
}

// The running sum of increment in format f stops growing at the first power of two
// 2^e whose half-spacing 2^(e - bits) is larger than the increment: from there on,
// s + increment is nearer to s than to the next number up.
double derived_stall(double increment, const Format& f) {
  const int e = static_cast<int>(std::floor(std::log2(increment))) + 1 + f.bits;
  return std::ldexp(1.0, e);
}

// ----------------------------------------------------------------------------
// Kernels

// The format's operations: conversion from float (round to nearest) and one addition
// rounded to the format. __fadd_rn / __dadd_rn are plain IEEE additions that the
// compiler may never merge with a multiply.
__device__ float from_float(float v, float*) { return v; }
__device__ double from_float(float v, double*) { return v; }
__device__ __half from_float(float v, __half*) { return __float2half_rn(v); }
__device__ __nv_bfloat16 from_float(float v, __nv_bfloat16*) { return __float2bfloat16_rn(v); }

__device__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __half add(__half a, __half b) { return __hadd(a, b); }
__device__ __nv_bfloat16 add(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }

__device__ float to_float(float v) { return v; }
__device__ float to_float(double v) { return static_cast<float>(v); }
__device__ float to_float(__half v) { return __half2float(v); }
__device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

// y[i] = x[i] rounded to format T.
template <class T>
__global__ void convert(const float* x, int n, T* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = from_float(x[i], static_cast<T*>(nullptr));
}

// One thread adds x[0], x[1], ... into one accumulator of format T. Each addition
// depends on the one before, so the order is fixed and every step is rounded to T.
template <class T>
__global__ void running_sum(const T* x, int n, T* out) {
  // TODO 2a: *out = x[0] + x[1] + ... + x[n-1], added in that order, each partial sum
  // rounded to T (the helpers above convert and add in T). The running_* checks compare
  // the bits with the CPU's emulation, at an odd n too. Pitfall: an accumulator kept in
  // a wider format and converted at the end is a different experiment, and other bits.
}

// Kahan's compensated running sum in FP32: c holds the part of the last addition that
// rounding threw away (with the opposite sign), and the next addition puts it back.
__global__ void kahan_sum(const float* x, int n, float* out) {
  // TODO 2b: the running sum of x[0..n-1] in FP32 with Kahan's compensation (the
  // comment above; the reading, section 3), stored in *out. kahan_fp32_odd
  // compares your bits with emulate_kahan's on the CPU, so do the same operations in
  // the same order. Pitfall: the compensation only works in that exact order, and an
  // optimisation that reassociates the float operations would cancel it.
}

// One tree level: block b folds in[2*256*b .. 2*256*b + 511] (values past n count as
// zero) into out[b]. Thread t first adds the two values 256 apart, then the block halves
// the number of active threads each round (sequential addressing, Module 13).
template <class T>
__global__ void tree_block(const T* in, int n, T* out) {
  // TODO 3: one level of the tree as the comment above describes, adding in T and in
  // the very order emulate_tree follows (the tree_* checks compare bits), the block's
  // total stored in out[blockIdx.x] and nowhere else (tree_fp32_odd_bounds). Pitfalls:
  // the last block of a level runs past n (those values count as zero); no thread may
  // read a partial sum before it is stored; every thread reaches every barrier.
}

// ----------------------------------------------------------------------------
// Launchers (each returns the sum as a double, read back from the GPU)

double host_value(float v) { return v; }
double host_value(double v) { return v; }
double host_value(__half v) { return __half2float(v); }
double host_value(__nv_bfloat16 v) { return __bfloat162float(v); }

// x converted to format T, between canary bands (free with wb::free_output); with
// bounds_check set, the bands are checked under that name, so a conversion that writes
// past the end of y fails. Then the bands turn NaN (wb::nan_bands): a sum that reads y
// past its end gets NaN and fails its check.
template <class T>
T* to_format(const float* d_x, int n, const char* bounds_check) {
  T* d_y = wb::alloc_output<T>(static_cast<size_t>(n));
  convert<T><<<ceil_div(n, 256), 256>>>(d_x, n, d_y);
  WB_CHECK_LAUNCH();
  if (bounds_check) wb::check_bounds(bounds_check, d_y);
  wb::nan_bands(d_y);
  return d_y;
}

template <class T>
double gpu_running(const T* d_x, int n) {
  T* d_out = wb::alloc_output<T>(1);
  running_sum<T><<<1, 1>>>(d_x, n, d_out);
  WB_CHECK_LAUNCH();
  T h;
  WB_CHECK(cudaMemcpy(&h, d_out, sizeof(T), cudaMemcpyDeviceToHost));
  wb::free_output(d_out);
  return host_value(h);
}

double gpu_kahan(const float* d_x, int n) {
  float* d_out = wb::alloc_output<float>(1);
  kahan_sum<<<1, 1>>>(d_x, n, d_out);
  WB_CHECK_LAUNCH();
  float h;
  WB_CHECK(cudaMemcpy(&h, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  wb::free_output(d_out);
  return h;
}

// The tree: one launch a level, each block's result written to its own element of the
// next level, until one value is left. With bounds_check set, the first level's output
// (between canary bands) is checked under that name.
template <class T>
double gpu_tree(const T* d_x, int n, const char* bounds_check) {
  std::vector<T*> levels;
  const T* in = d_x;
  int count = n;
  while (count > 1) {
    // TODO 4: the blocks this level needs, so that every one of its count values lands
    // in a block of tree_block (2 * kThreads values each); count is rarely a multiple
    // (tree_fp32_odd). Pitfall: a level with too few blocks drops its last values.
    const int blocks = 1;
    T* out = wb::alloc_output<T>(blocks);
    tree_block<T><<<blocks, kThreads>>>(in, count, out);
    WB_CHECK_LAUNCH();
    levels.push_back(out);
    in = out;
    count = blocks;
  }
  T h;
  WB_CHECK(cudaMemcpy(&h, in, sizeof(T), cudaMemcpyDeviceToHost));
  if (bounds_check) {
    if (levels.empty()) wb::fatal("rounding.cu", "the tree needs at least two values");
    wb::check_bounds(bounds_check, levels[0]);
  }
  for (T* p : levels) wb::free_output(p);
  return host_value(h);
}

// ----------------------------------------------------------------------------
// main

// Records a check that the GPU's value equals the emulated one, bit for bit.
bool same(const char* name, double gpu, double cpu) {
  const bool pass = gpu == cpu;  // NaN (an unwritten output) never passes
  return wb::check(name, pass, gpu, cpu,
                   wb::detail::format("GPU %.9g, CPU emulation %.9g%s", gpu, cpu,
                                      pass ? " (identical)" : ": the additions or their order differ"));
}

// Compares round_to_format with CUDA's host conversion on random floats spread over the
// format's whole range (subnormals included) and on exact ties between two neighbours.
template <class Convert>
void check_rounding(const char* name, const Format& f, int min_e, int max_e, Convert cuda_round,
                    unsigned long long stream) {
  wb::Rng rng(stream);
  int bad = 0, total = 0;
  double first_v = 0, first_ours = 0, first_cuda = 0;
  auto test = [&](float v) {
    const double ours = round_to_format(v, f), cuda = cuda_round(v);
    ++total;
    if (ours == cuda) return;
    if (bad++ == 0) first_v = v, first_ours = ours, first_cuda = cuda;
  };
  for (int k = 0; k < 100000; ++k) {
    const int e = min_e + static_cast<int>(rng.uniform() * (max_e - min_e + 1));
    const double sign = rng.uniform() < 0.5 ? -1.0 : 1.0;
    test(static_cast<float>(sign * std::ldexp(1.0 + rng.uniform(), e)));
    // a tie: halfway between two neighbours of the format in [2^e, 2^(e+1))
    const long long m = (1LL << (f.bits - 1)) + static_cast<long long>(rng.uniform() * (1LL << (f.bits - 1)));
    test(static_cast<float>(sign * std::ldexp(2.0 * m + 1.0, e - f.bits)));
  }
  wb::check(name, bad == 0, bad, 0,
            bad == 0 ? wb::detail::format("%d values rounded as CUDA rounds them (ties included)", total)
                     : wb::detail::format("%d of %d differ; first: %.9g -> yours %.9g, CUDA %.9g", bad, total,
                                          first_v, first_ours, first_cuda));
}

struct Sums {
  double run32, run16, runbf, run64, kahan, tree32, tree16, treebf;
};

// Every sum of x on the GPU; with odd set, the conversions' and the tree's canary bands
// are checked (convert_*_odd_bounds, tree_*_odd_bounds).
Sums gpu_sums(const std::vector<float>& x, bool odd) {
  const int n = static_cast<int>(x.size());
  float* d_x = wb::alloc_output<float>(static_cast<size_t>(n));
  wb::nan_bands(d_x);  // an input: reading past its end gives NaN
  WB_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  __half* d_h = to_format<__half>(d_x, n, odd ? "convert_fp16_odd_bounds" : nullptr);
  __nv_bfloat16* d_b = to_format<__nv_bfloat16>(d_x, n, odd ? "convert_bf16_odd_bounds" : nullptr);
  double* d_d = to_format<double>(d_x, n, odd ? "convert_fp64_odd_bounds" : nullptr);
  Sums s;
  s.run32 = gpu_running(static_cast<const float*>(d_x), n);
  s.run16 = gpu_running(static_cast<const __half*>(d_h), n);
  s.runbf = gpu_running(static_cast<const __nv_bfloat16*>(d_b), n);
  s.run64 = gpu_running(static_cast<const double*>(d_d), n);
  s.kahan = gpu_kahan(d_x, n);
  s.tree32 = gpu_tree(static_cast<const float*>(d_x), n, odd ? "tree_fp32_odd_bounds" : nullptr);
  s.tree16 = gpu_tree(static_cast<const __half*>(d_h), n, odd ? "tree_fp16_odd_bounds" : nullptr);
  s.treebf = gpu_tree(static_cast<const __nv_bfloat16*>(d_b), n, odd ? "tree_bf16_odd_bounds" : nullptr);
  wb::free_output(d_x);
  wb::free_output(d_h);
  wb::free_output(d_b);
  wb::free_output(d_d);
  return s;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module21/rounding");
  const long long n_odd = wb::param("N_ODD", 70001, 70001);
  wb::params_done();
  if (n_odd < 2 || n_odd > 100000) wb::bad_argument("N_ODD must be in 2..100000 (an FP16 total must stay below 65,504)");

  // 1. The emulation itself, against CUDA's conversions.
  check_rounding("rounding_fp16", kFP16, -26, 14,
                 [](float v) { return static_cast<double>(__half2float(__float2half_rn(v))); }, 1);
  check_rounding("rounding_bf16", kBF16, -136, 120,
                 [](float v) { return static_cast<double>(__bfloat162float(__float2bfloat16_rn(v))); }, 2);

  // 2. Fresh random values at an odd size: every kernel against the emulation.
  std::vector<float> r(static_cast<size_t>(n_odd));
  wb::fill_uniform(r.data(), r.size(), 0.001f, 1.0f, 3);
  const Sums o = gpu_sums(r, true);
  same("running_fp32_odd", o.run32, emulate_running(r, kFP32));
  same("running_fp16_odd", o.run16, emulate_running(r, kFP16));
  same("running_bf16_odd", o.runbf, emulate_running(r, kBF16));
  same("running_fp64_odd", o.run64, emulate_running(r, kFP64));
  same("kahan_fp32_odd", o.kahan, emulate_kahan(r));
  same("tree_fp32_odd", o.tree32, emulate_tree(r, kFP32));
  same("tree_fp16_odd", o.tree16, emulate_tree(r, kFP16));
  same("tree_bf16_odd", o.treebf, emulate_tree(r, kBF16));

  // 3. The experiment: 1,000,000 x 0.0001.
  std::printf("\n1,000,000 additions of 0.0001 (exact answer 100):\n");
  const std::vector<float> x(kAdds, kIncrement);
  const Sums s = gpu_sums(x, false);
  same("running_fp32_exact", s.run32, emulate_running(x, kFP32));
  same("running_fp16_exact", s.run16, emulate_running(x, kFP16));
  same("running_bf16_exact", s.runbf, emulate_running(x, kBF16));
  same("running_fp64_exact", s.run64, emulate_running(x, kFP64));
  same("kahan_fp32_exact", s.kahan, emulate_kahan(x));
  same("tree_fp32_exact", s.tree32, emulate_tree(x, kFP32));
  same("tree_fp16_exact", s.tree16, emulate_tree(x, kFP16));
  same("tree_bf16_exact", s.treebf, emulate_tree(x, kBF16));

  const double stall16 = derived_stall(round_to_format(kIncrement, kFP16), kFP16);
  const double stallbf = derived_stall(round_to_format(kIncrement, kBF16), kBF16);
  wb::check("fp16_stall", s.run16 == stall16, s.run16, stall16,
            wb::detail::format("the FP16 running sum stops at %.9g; half the spacing above %g is %g > 0.0001", s.run16,
                               stall16, stall16 / 2048));
  wb::check("bf16_stall", s.runbf == stallbf, s.runbf, stallbf,
            wb::detail::format("the BF16 running sum stops at %.9g; half the spacing above %g is %g > 0.0001", s.runbf,
                               stallbf, stallbf / 256));

  wb::metric("running_fp32", s.run32, "");
  wb::metric("running_fp16", s.run16, "");
  wb::metric("running_bf16", s.runbf, "");
  wb::metric("running_fp64", s.run64, "");
  wb::metric("kahan_fp32", s.kahan, "");
  wb::metric("tree_fp32", s.tree32, "");
  wb::metric("tree_fp16", s.tree16, "");
  wb::metric("tree_bf16", s.treebf, "");
  return wb::finish();
}
