/*
Module 20 lab: a GEMM on Tensor Cores with WMMA, and buying back precision with
residual refinement. STARTER: split_half, wmma_gemm, launch_wmma's grid, gemm_refine_a
and gemm_refine_ab are yours to complete (see their TODOs); the references, the FP32
baseline, the checks and main are complete.

C = A B with A of M x K, B of K x N and C of M x N, all row-major. The inputs are float;
the Tensor Cores take half precision, so each input is rounded to FP16 (11 significant
bits) while every product is summed in FP32.

  gemm_tiled<float>   the FP32 SIMT baseline: 16 x 16 shared-memory tiles (Module 14),
                      one FMA per thread per step on the ordinary FP32 cores
  gemm_tiled<double>  the same kernel summing in double: the accuracy reference
  wmma_gemm           one warp per 16 x 16 tile of C, 4 warps a block stacked along M
                      (a block covers 64 rows x 16 columns); fragments are loaded straight
                      from global memory (no shared-memory staging)
  split_half          x = hi + lo with hi = half(x) and lo = half(x - hi): two halves that
                      together carry about 22 bits of x
  refine_a            hi(A) hi(B) + lo(A) hi(B): two WMMA passes, A's rounding removed
  refine_ab           refine_a + hi(A) lo(B): three passes, both roundings removed (the
                      tiny lo(A) lo(B) term is dropped)

The error of a product is reported as max |C - R| / max |R|, with R the double reference:
one number, immune to the entries of C that happen to be near zero. WMMA needs M, N and K
to be multiples of 16. The odd case, 592 x 304 x 432, is 9.25 blocks of 64 rows: a grid
rounded down leaves its last 16 rows unwritten (NaN, poisoned), and a warp without a
tile guard writes past the end of C into a canary band. There every product is checked
against a double CPU reference; at M x N x K (a CPU reference would take minutes) against
gemm_tiled<double> on the GPU, which the odd case has checked against the CPU.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module20/wmma_gemm.cu -o wmma_gemm && ./wmma_gemm

Parameters (NAME=VALUE): M, N, K (default 4096 each, 512 with quick=1; multiples of 16),
seed, quick=1.
*/

#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

using namespace nvcuda;

constexpr int kTile = 16;                   // WMMA's fragment shape: 16 x 16 x 16
constexpr int kWarps = 4;                   // warps a block, one above the other along M
constexpr int kBlockRows = kTile * kWarps;  // rows of C a block covers (64)
constexpr int kPadRows = kBlockRows;        // zero rows after each A copy (see to_halves)

int ceil_div(long long a, int b) { return static_cast<int>((a + b - 1) / b); }

// ----------------------------------------------------------------------------
// CPU reference: C = A B summed in double (i-k-j order, so B and C are walked along rows)

void gemm_cpu(const float* A, const float* B, double* C, int m, int n, int k) {
  std::fill(C, C + static_cast<size_t>(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p) {
      const double a = A[static_cast<size_t>(i) * k + p];
      const float* b = B + static_cast<size_t>(p) * n;
      double* c = C + static_cast<size_t>(i) * n;
      for (int j = 0; j < n; ++j) c[j] += a * b[j];
    }
}

// ----------------------------------------------------------------------------
// Kernels

// The Module 14 tiled GEMM, summing in T: float is the SIMT baseline (one FMA per thread
// per step), double is the accuracy reference (every float product is exact in double).
template <class T>
__global__ void gemm_tiled(const float* __restrict__ A, const float* __restrict__ B, T* __restrict__ C, int m, int n,
                           int k) {
  __shared__ T a_tile[kTile][kTile];
  __shared__ T b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  T sum = 0;
  for (int t = 0; t < k; t += kTile) {
    a_tile[ty][tx] = (row < m && t + tx < k) ? static_cast<T>(A[static_cast<size_t>(row) * k + t + tx]) : T(0);
    b_tile[ty][tx] = (t + ty < k && col < n) ? static_cast<T>(B[static_cast<size_t>(t + ty) * n + col]) : T(0);
    __syncthreads();
    for (int i = 0; i < kTile; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = sum;
}

// Splits each float into two halves: hi, the nearest half, and lo, the nearest half to
// what hi missed. x - hi is exact in float, so hi + lo is x to about 2^-22 of |x|.
__global__ void split_half(const float* __restrict__ x, __half* __restrict__ hi, __half* __restrict__ lo, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    // TODO (Module 20.4, the residual): store x[i] as two halves, as the comment above
    // the kernel says: hi[i] as close to x[i] as a half gets, lo[i] as close as a half
    // gets to what hi[i] missed, so that hi[i] + lo[i] carries x[i] to about 2^-22.
    // Checks: split_ok, split_odd, and hi and lo between canary bands at an odd n
    // (split_odd_hi_bounds, split_odd_lo_bounds). Until then hi and lo stay zero.
    // Pitfall: the part hi missed must be worked out in float; in half it is lost.
    (void)hi;
    (void)lo;
  }
}

// One warp computes one 16 x 16 tile of C: it walks K in steps of 16, each step loading
// a 16 x 16 piece of A's row panel and of B's column panel into fragments and adding
// their product into an FP32 accumulator on the Tensor Cores. With accumulate, the
// accumulator starts from the tile C already holds (the second and third refinement
// passes), otherwise from zero.
__global__ void wmma_gemm(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int m,
                          int n, int k, bool accumulate) {
  // TODO (Module 20 lab, step 1):
  //  Each warp computes one 16 x 16 tile of C: a block holds kWarps warps stacked down
  //  the rows, and the grid covers C's columns in x and its row bands in y. A warp whose
  //  tile starts at or past row m has nothing to do and leaves whole (every lane must
  //  take part in each _sync call).
  //  - The operands live in WMMA fragments (16 x 16 x 16): A's and B's pieces in half,
  //    laid out as they are in memory (both matrices are row-major), and an FP32
  //    accumulator.
  //  - The accumulator starts from zero for a fresh product; with accumulate it starts
  //    from the tile C already holds, so a refinement pass adds to the earlier passes.
  //  - Walk along K one 16-wide slice at a time, multiplying A's piece of the warp's row
  //    band by B's piece of the block's column band into the accumulator. Mind each
  //    matrix's leading dimension: the length of its rows.
  //  - Finally the accumulator goes into C's tile.
  //  `workbook hint module20/wmma_gemm` has the index formula and the WMMA calls.
  // Until then C stays poisoned (NaN) and every WMMA check fails.
  (void)A;
  (void)B;
  (void)C;
  (void)m;
  (void)n;
  (void)k;
  (void)accumulate;
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only)

void launch_tiled(const float* A, const float* B, float* C, int m, int n, int k) {
  gemm_tiled<float><<<dim3(ceil_div(n, kTile), ceil_div(m, kTile)), dim3(kTile, kTile)>>>(A, B, C, m, n, k);
}

void launch_reference(const float* A, const float* B, double* C, int m, int n, int k) {
  gemm_tiled<double><<<dim3(ceil_div(n, kTile), ceil_div(m, kTile)), dim3(kTile, kTile)>>>(A, B, C, m, n, k);
}

// Enqueues wmma_gemm over all of C: blocks of kWarps warps, one 16 x 16 tile of C each.
void launch_wmma(const __half* A, const __half* B, float* C, int m, int n, int k, bool accumulate) {
  // TODO (Module 20 lab, step 1): the grid that gives every 16 x 16 tile of the m x n
  // matrix C a warp, in blocks of kWarps warps stacked down the rows (64 rows by 16
  // columns a block), the layout wmma_gemm expects (x across C's columns, y down its
  // row bands). Checks: plain_odd and plain_odd_bounds, where m = 592 is not a multiple
  // of 64 (n always is a multiple of 16). Pitfall: a grid short of the last rows leaves
  // them poisoned.
  const dim3 grid(1, 1);
  wmma_gemm<<<grid, kWarps * 32>>>(A, B, C, m, n, k, accumulate);
}

// A matrix as two halves; hi and lo hold kPadRows zero rows after the matrix, so a warp
// that runs past the last row (a missing tile guard) reads zeros instead of faulting,
// and its stray store is what the canary band after C reports.
struct Halves {
  __half* hi = nullptr;
  __half* lo = nullptr;
};

// A float matrix on the GPU with the same kPadRows zero rows after it as its halves get:
// a split that runs one element past the end (i <= n) then reads a zero instead of
// faulting on one GPU and not on another, and its stray stores are what the odd-size
// split's canary bands report (split_odd_hi_bounds, split_odd_lo_bounds).
float* upload_padded(const std::vector<float>& x, int rows, int cols) {
  const size_t padded = static_cast<size_t>(rows + kPadRows) * cols;
  float* d = nullptr;
  WB_CHECK(cudaMalloc(&d, padded * sizeof(float)));
  WB_CHECK(cudaMemset(d, 0, padded * sizeof(float)));
  WB_CHECK(cudaMemcpy(d, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

Halves to_halves(const float* dx, int rows, int cols) {
  Halves h;
  const size_t n = static_cast<size_t>(rows) * cols, padded = static_cast<size_t>(rows + kPadRows) * cols;
  WB_CHECK(cudaMalloc(&h.hi, padded * sizeof(__half)));
  WB_CHECK(cudaMalloc(&h.lo, padded * sizeof(__half)));
  WB_CHECK(cudaMemset(h.hi, 0, padded * sizeof(__half)));
  WB_CHECK(cudaMemset(h.lo, 0, padded * sizeof(__half)));
  split_half<<<std::min(ceil_div(static_cast<long long>(n), 256), 4096), 256>>>(dx, h.hi, h.lo, n);
  WB_CHECK_LAUNCH();
  return h;
}

void release(Halves& h) {
  WB_CHECK(cudaFree(h.hi));
  WB_CHECK(cudaFree(h.lo));
  h = Halves{};
}

// The three products. Each refinement term is a whole WMMA pass added into C.
void gemm_plain(const Halves& a, const Halves& b, float* c, int m, int n, int k) {
  launch_wmma(a.hi, b.hi, c, m, n, k, false);  // hi(A) hi(B): FP16 inputs
}

void gemm_refine_a(const Halves& a, const Halves& b, float* c, int m, int n, int k) {
  // TODO (Module 20 lab, step 4): C = A B with A's rounding to half put back (Module
  // 20.4): the plain product plus the correction term that involves lo(A), each term a
  // whole WMMA pass. Until then this is the plain product and its error does not shrink
  // (refine_a_odd, refine_a_ok; refine_a_err_ratio out of range). Pitfall: a pass that
  // overwrites c instead of adding to it throws away the passes before it.
  gemm_plain(a, b, c, m, n, k);
}

void gemm_refine_ab(const Halves& a, const Halves& b, float* c, int m, int n, int k) {
  // TODO (Module 20 lab, step 4): refine_a, with B's rounding put back as well: one more
  // term, one more pass. Until then B's rounding stays and refine_ab_odd / refine_ab_ok
  // fail. Pitfall: not every term is worth its pass ("Residual refinement" in the reading
  // says which one is dropped and why).
  gemm_refine_a(a, b, c, m, n, k);
}

// ----------------------------------------------------------------------------
// main

// max |got - ref| / max |ref|; NaN when an element of got is not finite (unwritten: NaN).
template <class G>
double rel_err(const std::vector<G>& got, const std::vector<double>& ref) {
  double worst = 0.0, scale = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(got[i])) return std::nan("");
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - ref[i]));
    scale = std::max(scale, std::fabs(ref[i]));
  }
  return scale > 0 ? worst / scale : worst;
}

bool check_err(const std::string& name, double err, double limit) {
  const bool pass = std::isfinite(err) && err <= limit;
  const std::string text = std::isfinite(err)
                               ? wb::detail::format("max |C - ref| / max |ref| = %.3g (limit %.3g)", err, limit)
                               : std::string("C holds NaN or inf: an element was never written (poisoned) or the sum blew up");
  return wb::check(name.c_str(), pass, err, limit, text);
}

template <class T>
std::vector<T> download(const T* d, size_t n) {
  std::vector<T> h(n);
  WB_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Limits of the checks. FP16 inputs put the error near 2.6e-4 (the format's rounding,
// see the manifest); a wrong kernel is off by 1e-1 or more. With both inputs refined
// what is left is FP32 summation, 1e-6..3e-5; refining A alone leaves ~1.8e-4.
constexpr double kFp16Limit = 2e-3;
constexpr double kRefinedLimit = 1e-4;
constexpr double kFp32Limit = 1e-5;

struct Product {
  const char* name;
  void (*run)(const Halves&, const Halves&, float*, int, int, int);
  double limit;
};
const Product kProducts[] = {
    {"plain", gemm_plain, kFp16Limit},
    {"refine_a", gemm_refine_a, kFp16Limit},
    {"refine_ab", gemm_refine_ab, kRefinedLimit},
};

// The split: hi + lo must give back x to 2^-22 of |x|, or to half of the smallest
// half subnormal (2^-25) where lo is too small to be a normal half. An element never
// written (NaN, poisoned) misses too.
void check_split(const char* name, const std::vector<float>& x, const std::vector<__half>& hi,
                 const std::vector<__half>& lo) {
  size_t bad = 0;
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double sum = static_cast<double>(__half2float(hi[i])) + __half2float(lo[i]);
    const double miss = std::fabs(sum - x[i]), allowed = std::ldexp(std::fabs(x[i]), -22) + std::ldexp(1.0, -25);
    if (!(miss <= allowed)) ++bad;
    if (x[i] != 0.0f) worst = std::max(worst, miss / std::fabs(x[i]));
  }
  wb::check(name, bad == 0, static_cast<double>(bad), 0,
            wb::detail::format("%zu of %zu elements with |x - hi - lo| above 2^-22 |x| + 2^-25; worst relative miss "
                               "%.3g (hi = half(x), lo = half(x - hi))",
                               bad, x.size(), worst));
}

// split_half alone at an odd length, 70,001 floats (273 blocks of 256 and 113 more: the
// matrices' element counts are all multiples of 256), one element a thread, with hi and
// lo between canary bands: a store past the end fails split_odd_hi_bounds or
// split_odd_lo_bounds, an element never written stays NaN and fails split_odd.
void split_odd_case() {
  constexpr size_t n = 70001;
  std::vector<float> x(n);
  wb::fill_uniform(x.data(), n, -1.0f, 1.0f, 3);
  float* dx = nullptr;
  WB_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  WB_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  __half* hi = wb::alloc_output<__half>(n);
  __half* lo = wb::alloc_output<__half>(n);
  split_half<<<ceil_div(static_cast<long long>(n), 256), 256>>>(dx, hi, lo, n);
  WB_CHECK_LAUNCH();
  wb::check_bounds("split_odd_hi_bounds", hi);
  wb::check_bounds("split_odd_lo_bounds", lo);
  check_split("split_odd", x, download(hi, n), download(lo, n));
  wb::free_output(hi);
  wb::free_output(lo);
  WB_CHECK(cudaFree(dx));
}

// The odd case: 592 x 304 x 432 (all multiples of 16; 592 rows are 9.25 blocks of 64).
void odd_case() {
  constexpr int m = 592, n = 304, k = 432;
  std::vector<float> A(static_cast<size_t>(m) * k), B(static_cast<size_t>(k) * n);
  wb::fill_uniform(A.data(), A.size(), -1.0f, 1.0f, 1);
  wb::fill_uniform(B.data(), B.size(), -1.0f, 1.0f, 2);
  std::vector<double> ref(static_cast<size_t>(m) * n);
  gemm_cpu(A.data(), B.data(), ref.data(), m, n, k);

  float *dA = nullptr, *dB = nullptr;
  dA = upload_padded(A, m, k);
  dB = upload_padded(B, k, n);

  // The split of A, which the products below use.
  Halves a = to_halves(dA, m, k), b = to_halves(dB, k, n);
  check_split("split_ok", A, download(a.hi, A.size()), download(a.lo, A.size()));

  // The GPU double reference, which the big case relies on, against the CPU.
  double* dref = nullptr;
  WB_CHECK(cudaMalloc(&dref, ref.size() * sizeof(double)));
  WB_CHECK(cudaMemset(dref, 0xFF, ref.size() * sizeof(double)));
  launch_reference(dA, dB, dref, m, n, k);
  WB_CHECK_LAUNCH();
  check_err("ref64_odd", rel_err(download(dref, ref.size()), ref), 1e-12);
  WB_CHECK(cudaFree(dref));

  float* dc = wb::alloc_output<float>(ref.size());
  launch_tiled(dA, dB, dc, m, n, k);
  WB_CHECK_LAUNCH();
  check_err("simt_odd", rel_err(download(dc, ref.size()), ref), kFp32Limit);

  for (const Product& p : kProducts) {
    wb::poison_output(dc);
    p.run(a, b, dc, m, n, k);
    WB_CHECK_LAUNCH();
    wb::check_bounds((std::string(p.name) + "_odd_bounds").c_str(), dc);
    check_err(std::string(p.name) + "_odd", rel_err(download(dc, ref.size()), ref), p.limit);
  }
  wb::free_output(dc);
  release(a);
  release(b);
  WB_CHECK(cudaFree(dA));
  WB_CHECK(cudaFree(dB));
}

// The big case: errors against the GPU double reference, then the timings.
void big_case(int m, int n, int k) {
  const size_t mk = static_cast<size_t>(m) * k, kn = static_cast<size_t>(k) * n, mn = static_cast<size_t>(m) * n;
  std::vector<float> A(mk), B(kn);
  wb::fill_uniform(A.data(), mk, -1.0f, 1.0f, 11);
  wb::fill_uniform(B.data(), kn, -1.0f, 1.0f, 12);
  float *dA = nullptr, *dB = nullptr;
  double* dref = nullptr;
  dA = upload_padded(A, m, k);
  dB = upload_padded(B, k, n);
  WB_CHECK(cudaMalloc(&dref, mn * sizeof(double)));
  launch_reference(dA, dB, dref, m, n, k);
  WB_CHECK_LAUNCH();
  const std::vector<double> ref = download(dref, mn);
  WB_CHECK(cudaFree(dref));
  Halves a = to_halves(dA, m, k), b = to_halves(dB, k, n);
  float* dc = wb::alloc_output<float>(mn);

  // Errors (each against the double reference).
  launch_tiled(dA, dB, dc, m, n, k);
  WB_CHECK_LAUNCH();
  const double err_fp32 = rel_err(download(dc, mn), ref);
  check_err("simt_ok", err_fp32, kFp32Limit);
  wb::metric("err_fp32", err_fp32, "rel");
  const char* err_names[] = {"err_fp16", "err_refine_a", "err_refine_ab"};
  for (int i = 0; i < 3; ++i) {
    wb::poison_output(dc);
    kProducts[i].run(a, b, dc, m, n, k);
    WB_CHECK_LAUNCH();
    const double err = rel_err(download(dc, mn), ref);
    check_err(std::string(kProducts[i].name) + "_ok", err, kProducts[i].limit);
    wb::metric(err_names[i], err, "rel");
  }

  // Timings: one launch per sample after an L2 flush (default options), median.
  const double flops = 2.0 * m * n * k;
  wb::Stats simt_st = wb::time_kernel([&] { launch_tiled(dA, dB, dc, m, n, k); });
  wb::Stats plain_st = wb::time_kernel([&] { gemm_plain(a, b, dc, m, n, k); });
  wb::Stats refine_a_st = wb::time_kernel([&] { gemm_refine_a(a, b, dc, m, n, k); });
  wb::Stats refine_ab_st = wb::time_kernel([&] { gemm_refine_ab(a, b, dc, m, n, k); });
  wb::metric("simt_ms", simt_st, "ms");
  wb::metric("wmma_ms", plain_st, "ms");
  wb::metric("refine_a_ms", refine_a_st, "ms");
  wb::metric("refine_ab_ms", refine_ab_st, "ms");
  wb::metric("simt_tflops", flops / (simt_st.median * 1e-3) / 1e12, "TFLOP/s");
  wb::metric("wmma_tflops", flops / (plain_st.median * 1e-3) / 1e12, "TFLOP/s");

  wb::free_output(dc);
  release(a);
  release(b);
  WB_CHECK(cudaFree(dA));
  WB_CHECK(cudaFree(dB));
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module20/wmma_gemm");
  const long long m = wb::param("M", 4096, 512);
  const long long n = wb::param("N", 4096, 512);
  const long long k = wb::param("K", 4096, 512);
  wb::params_done();
  for (long long v : {m, n, k})
    if (v < 16 || v > 16384 || v % 16 != 0) wb::bad_argument("M, N and K must be multiples of 16 between 16 and 16384");
  if (m * n > (1LL << 28) || m * k > (1LL << 28) || k * n > (1LL << 28))
    wb::bad_argument("each matrix must hold at most 2^28 elements");

  split_odd_case();
  odd_case();
  big_case(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k));
  return wb::finish();
}
