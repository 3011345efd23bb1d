/*
Module 14 lab: tiled matrix multiplication at three tile sizes and an odd shape. SOLUTION.

C = A * B with A of size M x N, B of size N x P and C of size M x P, float32, row-major.
One kernel template, matmul_tiled<T>, is instantiated for square tiles T = 8, 16 and 32
(T x T threads a block; two T x T shared tiles: 512 B, 2 KB, 8 KB). The lab's own naive
kernel (one thread per element of C, every operand from global memory, 16 x 16 blocks:
the matmul_naive of tiled_gemm.cu) is the baseline each T is measured against. The lab

  1. checks every T (and the naive kernel) against a double-precision CPU reference, on
     fresh random inputs in [-1, 1]:
       - 100 x 50 x 70 (every element; no dimension is a multiple of any T; C sits
         between two canary bands, so a store past its end fails *_100x50x70_bounds),
       - N x N x N (every element; default 1024^3, about 1e9 multiply-adds on the CPU),
       - the odd shape ODD_M x ODD_N x ODD_P, default 513 x 8192 x 1023: every dimension
         leaves a partial tile, so this tests the zero padding at full scale. Its full
         reference would be 4.3e9 multiply-adds, so it is SAMPLED: SAMPLES output
         elements (default 4096) at random positions (fixed by the seed) are each
         computed as a dot product in double and compared; when SAMPLES >= M * P every
         element is checked;
  2. times the naive kernel and every T at N^3 and at the odd shape with CUDA events
     (warm-up, L2 flushed, median of repeats), and reports GFLOP/s (2 M N P over the
     median). The manifest grades each T by its speed-up over the naive kernel of the
     same run, which holds on any GPU.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common solutions/module14/tiled_gemm_sizes.cu -o tiled_gemm_sizes && ./tiled_gemm_sizes

Parameters (NAME=VALUE): N (square size, default 1024, 512 with quick=1), ODD_M, ODD_N,
ODD_P (odd shape, default 513 x 8192 x 1023, 65 x 1000 x 127 with quick=1), SAMPLES
(sampled elements of the odd shape, default 4096), seed, quick=1.
*/

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// ----------------------------------------------------------------------------
// CPU reference

// The reference product in double, C = A B (A: M by N, B: N by P, C: M by P),
// in i-k-j order (unit stride over B and C).
void matmul_cpu(const float* A, const float* B, double* C, int M, int N, int P) {
  std::fill(C, C + static_cast<size_t>(M) * P, 0.0);
  for (int i = 0; i < M; ++i) {
    double* c_row = C + static_cast<size_t>(i) * P;
    for (int k = 0; k < N; ++k) {
      const double a = A[static_cast<size_t>(i) * N + k];
      const float* b_row = B + static_cast<size_t>(k) * P;
      for (int j = 0; j < P; ++j) c_row[j] += a * b_row[j];
    }
  }
}

// One element C[row][col] in double: the sampled reference of the odd shape.
double matmul_cpu_element(const float* A, const float* B, int N, int P, int row, int col) {
  double acc = 0.0;
  for (int k = 0; k < N; ++k)
    acc += static_cast<double>(A[static_cast<size_t>(row) * N + k]) * B[static_cast<size_t>(k) * P + col];
  return acc;
}

// ----------------------------------------------------------------------------
// GPU kernels

// The baseline (complete; not part of the exercise): one thread per element of C, every
// operand straight from global memory, as in tiled_gemm.cu.
__global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= P) return;  // safe: this kernel has no barrier
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) sum += A[static_cast<size_t>(row) * N + k] * B[static_cast<size_t>(k) * P + col];
  C[static_cast<size_t>(row) * P + col] = sum;
}

// A T x T block computes the T x T tile of C at (blockIdx.y, blockIdx.x), in phases of T
// along the shared dimension N. T is a template parameter, so the shared arrays are
// static and the inner loop unrolls completely for every instantiation.
template <int T>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  __shared__ float a_tile[T][T];  // a_tile[r][k] = A[block row + r][phase col + k]
  __shared__ float b_tile[T][T];  // b_tile[k][c] = B[phase row + k][block col + c]

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty;
  const int col = blockIdx.x * T + tx;

  float sum = 0.0f;
  for (int base = 0; base < N; base += T) {
    // One element of each tile per thread, tx on the contiguous index (coalesced);
    // anything outside A or B becomes 0 (zero padding).
    const int a_col = base + tx, b_row = base + ty;
    a_tile[ty][tx] = (row < M && a_col < N) ? A[static_cast<size_t>(row) * N + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < N && col < P) ? B[static_cast<size_t>(b_row) * P + col] : 0.0f;
    __syncthreads();  // tiles complete before use
#pragma unroll
    for (int k = 0; k < T; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();  // tiles no longer read before the next phase overwrites them
  }
  if (row < M && col < P) C[static_cast<size_t>(row) * P + col] = sum;
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only; the caller checks and synchronizes)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void launch_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  constexpr int kBlock = 16;
  const dim3 block(kBlock, kBlock);
  const dim3 grid(ceil_div(P, kBlock), ceil_div(M, kBlock));
  matmul_naive<<<grid, block>>>(A, B, C, M, N, P);
}

template <int T>
void launch_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  const dim3 block(T, T);
  const dim3 grid(ceil_div(P, T), ceil_div(M, T));
  matmul_tiled<T><<<grid, block>>>(A, B, C, M, N, P);
}

using Launcher = void (*)(const float*, const float*, float*, int, int, int);

// The kernels of the lab, by metric prefix: the naive baseline first, then every T.
struct Variant {
  const char* name;  // "naive", "t8", "t16", "t32"
  Launcher launch;
};
const Variant kVariants[] = {
    {"naive", launch_naive}, {"t8", launch_tiled<8>}, {"t16", launch_tiled<16>}, {"t32", launch_tiled<32>}};
constexpr int kKernels = 4;

// ----------------------------------------------------------------------------
// main

struct Problem {
  int M, N, P;
  std::vector<float> A, B;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
};

// Copies a host matrix to a new device buffer followed by a tail of NaN, 32 * (row_sum +
// 1) floats long. A tiled kernel that stages elements past the edge of a matrix instead
// of zeros (no zero padding) then multiplies by NaN: every row of B past row N lies past
// the end of B, so each output's last phase meets the tail. Without it the bytes after a
// small allocation are often zero, which hides the mistake (a product with zero adds
// nothing). The tail covers the overshoot of any tile edge up to 32: fewer than 32 rows
// of at most row_sum floats, plus fewer than 32.
float* upload_with_nan_tail(const std::vector<float>& host, int row_sum) {
  const size_t tail = 32 * (static_cast<size_t>(row_sum) + 1);
  float* d = nullptr;
  WB_CHECK(cudaMalloc(&d, (host.size() + tail) * sizeof(float)));
  wb::poison(d, (host.size() + tail) * sizeof(float));
  WB_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

// Fresh inputs in [-1, 1] from streams `stream` and `stream + 1`, uploaded.
Problem make_problem(int M, int N, int P, unsigned stream) {
  Problem pr{M, N, P, std::vector<float>(static_cast<size_t>(M) * N), std::vector<float>(static_cast<size_t>(N) * P)};
  wb::fill_uniform(pr.A.data(), pr.A.size(), -1.0f, 1.0f, stream);
  wb::fill_uniform(pr.B.data(), pr.B.size(), -1.0f, 1.0f, stream + 1);
  pr.dA = upload_with_nan_tail(pr.A, N + P);
  pr.dB = upload_with_nan_tail(pr.B, N + P);
  pr.dC = wb::alloc_output<float>(static_cast<size_t>(M) * P);  // poisoned, between canary bands
  return pr;
}

void free_problem(Problem& pr) {
  WB_CHECK(cudaFree(pr.dA));
  WB_CHECK(cudaFree(pr.dB));
  wb::free_output(pr.dC);
  pr.dA = pr.dB = pr.dC = nullptr;
}

// Poisons C and re-arms its canary bands, runs one launch and returns C. With a
// bounds_name, also records whether the launch wrote outside C.
std::vector<float> run_once(Launcher launch, const Problem& pr, const char* bounds_name = nullptr) {
  const size_t elems = static_cast<size_t>(pr.M) * pr.P;
  wb::poison_output(pr.dC);
  launch(pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P);
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, pr.dC);
  std::vector<float> got(elems);
  WB_CHECK(cudaMemcpy(got.data(), pr.dC, elems * sizeof(float), cudaMemcpyDeviceToHost));
  return got;
}

// Same tolerance argument as in tiled_gemm.cu: rtol 1e-4 plus atol = 4 N FLT_EPSILON
// for elements whose products cancel (about 30x the random-walk rounding estimate).
double atol_for(int N) { return 4.0 * N * FLT_EPSILON; }

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module14/tiled_gemm_sizes");
  const long long n_param = wb::param("N", 1024, 512);
  const long long om = wb::param("ODD_M", 513, 65);
  const long long on = wb::param("ODD_N", 8192, 1000);
  const long long op = wb::param("ODD_P", 1023, 127);
  const long long samples_param = wb::param("SAMPLES", 4096);
  wb::params_done();
  if (n_param < 1 || n_param > 4096) wb::bad_argument("N must be between 1 and 4096");
  if (om < 1 || on < 1 || op < 1 || om > 16384 || on > 65536 || op > 16384)
    wb::bad_argument("ODD_M, ODD_P must be 1..16384 and ODD_N 1..65536");
  if (samples_param < 1 || samples_param > (1 << 20)) wb::bad_argument("SAMPLES must be between 1 and 2^20");
  const int n = static_cast<int>(n_param);
  const double rtol = 1e-4;

  // 1a. Small odd problem, every element, and the canary bands around C: every T.
  {
    Problem pr = make_problem(100, 50, 70, 0);
    std::vector<double> ref(static_cast<size_t>(100) * 70);
    matmul_cpu(pr.A.data(), pr.B.data(), ref.data(), 100, 50, 70);
    for (int i = 1; i < kKernels; ++i) {
      const Variant& v = kVariants[i];
      const std::string name = std::string(v.name) + "_100x50x70";
      const std::vector<float> got = run_once(v.launch, pr, (name + "_bounds").c_str());
      wb::compare(name.c_str(), got.data(), ref.data(), got.size(), rtol, atol_for(50), 70);
    }
    free_problem(pr);
  }

  // 1b + 2a. Square N^3: full check, then timing of every T that passed.
  std::printf("computing the CPU reference at %d^3 ...\n", n);
  std::fflush(stdout);
  {
    Problem pr = make_problem(n, n, n, 2);
    std::vector<double> ref(static_cast<size_t>(n) * n);
    matmul_cpu(pr.A.data(), pr.B.data(), ref.data(), n, n, n);
    bool ok[kKernels];
    for (int i = 0; i < kKernels; ++i) {
      const Variant& v = kVariants[i];
      const std::vector<float> got = run_once(v.launch, pr);
      const std::string name = std::string(v.name) + "_square";
      ok[i] = wb::compare(name.c_str(), got.data(), ref.data(), got.size(), rtol, atol_for(n), n);
    }
    const double flops = 2.0 * n * static_cast<double>(n) * n;
    for (int i = 0; i < kKernels; ++i) {
      const Variant& v = kVariants[i];
      if (!ok[i]) {
        std::printf("%s failed its check at N=%d: not timed\n", v.name, n);
        continue;
      }
      const wb::Stats st = wb::time_kernel([&] { v.launch(pr.dA, pr.dB, pr.dC, n, n, n); });
      const std::string base = v.name;
      wb::metric((base + "_ms").c_str(), st, "ms");
      wb::metric((base + "_gflops").c_str(), flops / (st.median * 1e6), "GFLOP/s");
    }
    free_problem(pr);
  }

  // 1c + 2b. The odd shape: sampled check, then timing.
  {
    const int M = static_cast<int>(om), N = static_cast<int>(on), P = static_cast<int>(op);
    std::printf("odd shape %d x %d x %d: sampled CPU reference ...\n", M, N, P);
    std::fflush(stdout);
    Problem pr = make_problem(M, N, P, 4);

    // Positions to check: every element when SAMPLES covers C, else random ones.
    const size_t elems = static_cast<size_t>(M) * P;
    std::vector<size_t> where;
    if (static_cast<size_t>(samples_param) >= elems) {
      for (size_t e = 0; e < elems; ++e) where.push_back(e);
    } else {
      wb::Rng rng(6);
      for (long long s = 0; s < samples_param; ++s) where.push_back(rng.next() % elems);
    }
    std::vector<double> ref(where.size());
    for (size_t s = 0; s < where.size(); ++s)
      ref[s] = matmul_cpu_element(pr.A.data(), pr.B.data(), N, P, static_cast<int>(where[s] / P),
                                  static_cast<int>(where[s] % P));

    bool ok[kKernels];
    for (int i = 0; i < kKernels; ++i) {
      const Variant& v = kVariants[i];
      const std::vector<float> full = run_once(v.launch, pr);
      std::vector<float> got(where.size());
      for (size_t s = 0; s < where.size(); ++s) got[s] = full[where[s]];
      const std::string name = std::string(v.name) + "_odd";
      ok[i] = wb::compare(name.c_str(), got.data(), ref.data(), got.size(), rtol, atol_for(N));
    }
    const double flops = 2.0 * M * static_cast<double>(N) * P;
    for (int i = 0; i < kKernels; ++i) {
      const Variant& v = kVariants[i];
      if (!ok[i]) {
        std::printf("%s failed its check at the odd shape: not timed\n", v.name);
        continue;
      }
      const wb::Stats st = wb::time_kernel([&] { v.launch(pr.dA, pr.dB, pr.dC, M, N, P); });
      const std::string base = std::string("odd_") + v.name;
      wb::metric((base + "_ms").c_str(), st, "ms");
      wb::metric((base + "_gflops").c_str(), flops / (st.median * 1e6), "GFLOP/s");
    }
    free_problem(pr);
  }

  return wb::finish();
}
