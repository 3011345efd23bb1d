/*
Module 14 lab: tiled matrix multiplication (square tiles, TILE = 16). STARTER:
matmul_tiled below is yours to write (see its TODO); everything else is complete.

C = A * B with A of size M x N, B of size N x P and C of size M x P, all float32 and
row-major. Two kernels are compared:

  matmul_naive  one thread per element of C, reading a row of A and a column of B
                straight from global memory (Module 9)
  matmul_tiled  a TILE x TILE block computes a TILE x TILE tile of C in phases along
                the shared dimension N: each phase stages one tile of A and one of B in
                shared memory, so each global element is read TILE times less often

Both are checked against a CPU reference that accumulates in double, on fresh random
inputs in [-1, 1], at 64 x 64 x 64, at 100 x 50 x 70 (sizes that are not multiples of
TILE: this tests the zero padding, and C sits between two canary bands, so a store past
its end is caught) and at N x N x N; then both are timed at N^3.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module14/tiled_gemm.cu -o tiled_gemm && ./tiled_gemm

Parameters (NAME=VALUE): N (big square size, default 1024, 512 with quick=1: a missing
second barrier showed on an H200 from N = 384 up, never at 256 or 320), seed (random
inputs), quick=1 (small sizes, for a smoke run).
*/

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// Edge of the square tile, fixed at compile time so the shared arrays are static.
constexpr int TILE = 16;

// ----------------------------------------------------------------------------
// CPU reference

// The reference product in double, C = A B (A: M by N, B: N by P, C: M by P).
// The i-k-j loop order walks B and C along rows (unit stride), which keeps the cache happy and lets the compiler vectorize the
// inner loop; at 1024^3 (1e9 multiply-adds) it takes a second or two.
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

// ----------------------------------------------------------------------------
// GPU kernels

// One thread per element of C; every operand comes from global memory.
__global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= P) return;  // safe: this kernel has no barrier
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) sum += A[row * N + k] * B[k * P + col];
  C[row * P + col] = sum;
}

// A TILE x TILE block computes the TILE x TILE tile of C at (blockIdx.y, blockIdx.x).
// Phase ph covers columns [ph*TILE, ph*TILE + TILE) of A and the same rows of B.
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  // TODO (Module 14.3): write the tiled kernel. Until you do, C stays poisoned (NaN)
  // and the tiled_* checks fail while the naive_* checks pass.
  //
  // Goal: the same C = A B as matmul_naive (row-major, A M by N, B N by P), but each
  // element of A and B is read from global memory about N / TILE times instead of N:
  // the block stages the pieces of A and B it needs in shared memory, phase by phase
  // along the shared dimension, and every thread takes its operands from there.
  // Contract: launch_tiled gives one TILE x TILE block per TILE x TILE tile of C
  // (the grid rounded up); each thread owns one element of C and writes it once.
  // Checks: 64^3 and N^3 against a double-precision CPU reference (tiled_64,
  // tiled_n), and 100 x 50 x 70, where no dimension is a multiple of TILE, with C
  // between canary bands (tiled_100x50x70, tiled_100x50x70_bounds).
  // Pitfalls: the loads must stay coalesced (neighbouring threads on neighbouring
  // addresses); the last tiles stick out past the matrices, and what a thread stages
  // there must not change any sum; no thread may read a tile before it is complete, nor
  // overwrite it while others still read it; and every thread of the block, inside C or
  // not, must reach every barrier.
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only; the caller checks and synchronizes)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void launch_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  constexpr int kBlock = 16;  // 256 threads, like the tiled kernel
  const dim3 block(kBlock, kBlock);
  const dim3 grid(ceil_div(P, kBlock), ceil_div(M, kBlock));
  matmul_naive<<<grid, block>>>(A, B, C, M, N, P);
}

void launch_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  const dim3 block(TILE, TILE);
  const dim3 grid(ceil_div(P, TILE), ceil_div(M, TILE));
  matmul_tiled<<<grid, block>>>(A, B, C, M, N, P);
}

using Launcher = void (*)(const float*, const float*, float*, int, int, int);

// ----------------------------------------------------------------------------
// main

// One problem: random inputs, the CPU reference, and device copies.
struct Problem {
  int M, N, P;
  std::vector<double> ref;  // M x P, from matmul_cpu
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

// Draws fresh inputs in [-1, 1] (streams `stream` and `stream + 1` of the run's seed),
// computes the reference and uploads A and B.
Problem make_problem(int M, int N, int P, unsigned stream) {
  Problem pr{M, N, P, {}};
  std::vector<float> A(static_cast<size_t>(M) * N), B(static_cast<size_t>(N) * P);
  wb::fill_uniform(A.data(), A.size(), -1.0f, 1.0f, stream);
  wb::fill_uniform(B.data(), B.size(), -1.0f, 1.0f, stream + 1);
  pr.ref.resize(static_cast<size_t>(M) * P);
  matmul_cpu(A.data(), B.data(), pr.ref.data(), M, N, P);

  pr.dA = upload_with_nan_tail(A, N + P);
  pr.dB = upload_with_nan_tail(B, N + P);
  pr.dC = wb::alloc_output<float>(pr.ref.size());  // poisoned, between two canary bands
  return pr;
}

void free_problem(Problem& pr) {
  WB_CHECK(cudaFree(pr.dA));
  WB_CHECK(cudaFree(pr.dB));
  wb::free_output(pr.dC);
  pr.dA = pr.dB = pr.dC = nullptr;
}

// Poisons C (and re-arms its canary bands), runs one kernel, copies C back and compares
// it with the reference. With bounds_check set, also records whether anything was
// written outside C (a check named check_name + "_bounds").
bool run_and_check(const std::string& check_name, Launcher launch, const Problem& pr, bool bounds_check = false) {
  const size_t elems = pr.ref.size();
  wb::poison_output(pr.dC);
  launch(pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P);
  WB_CHECK_LAUNCH();
  if (bounds_check) wb::check_bounds((check_name + "_bounds").c_str(), pr.dC);
  std::vector<float> got(elems);
  WB_CHECK(cudaMemcpy(got.data(), pr.dC, elems * sizeof(float), cudaMemcpyDeviceToHost));

  // Tolerances. Each element of C is a float32 sum of N products of numbers in
  // [-1, 1]. The running sum grows like sqrt(k)/3 and each of the N additions rounds
  // it by up to half an ulp, so the accumulated error is of order
  // FLT_EPSILON * N / 8 (random-walk estimate). Where the products cancel, |ref| is
  // close to 0 and rtol alone would demand more accuracy than float32 has, so we add
  // atol = 4 * N * FLT_EPSILON (~30x that estimate; 4.9e-4 at N = 1024). A real bug
  // (wrong index, missing tile, missing barrier) is off by O(0.1) or more.
  const double rtol = 1e-4;
  const double atol = 4.0 * pr.N * FLT_EPSILON;
  return wb::compare(check_name.c_str(), got.data(), pr.ref.data(), elems, rtol, atol, pr.P);
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module14/tiled_gemm");
  const long long n_param = wb::param("N", 1024, 512);
  wb::params_done();
  if (n_param < 1 || n_param > 8192) wb::bad_argument("N must be between 1 and 8192");
  const int n = static_cast<int>(n_param);
  wb::metric("n", n, "count");

  // Correctness: two fixed small problems (always run), then the big square one. At
  // 100 x 50 x 70 no dimension is a multiple of TILE: the last block row and column are
  // partial, so that is where the canary bands around C are checked as well.
  struct Case {
    const char* suffix;
    int M, N, P;
    bool odd;
  };
  const Case small_cases[] = {{"64", 64, 64, 64, false}, {"100x50x70", 100, 50, 70, true}};
  unsigned stream = 0;
  for (const Case& c : small_cases) {
    Problem pr = make_problem(c.M, c.N, c.P, stream);
    stream += 2;
    run_and_check(std::string("naive_") + c.suffix, launch_naive, pr, c.odd);
    run_and_check(std::string("tiled_") + c.suffix, launch_tiled, pr, c.odd);
    free_problem(pr);
  }

  std::printf("computing the CPU reference at %d^3 ...\n", n);
  std::fflush(stdout);
  Problem big = make_problem(n, n, n, stream);
  const bool naive_ok = run_and_check("naive_n", launch_naive, big);
  const bool tiled_ok = run_and_check("tiled_n", launch_tiled, big);

  // Timing at N^3, L2 flushed before each sample. A kernel that failed its check is
  // not timed: the time of a wrong answer means nothing.
  const double flops = 2.0 * n * static_cast<double>(n) * n;
  double naive_median = 0.0, tiled_median = 0.0;
  if (naive_ok) {
    const wb::Stats st = wb::time_kernel([&] { launch_naive(big.dA, big.dB, big.dC, n, n, n); });
    wb::metric("naive_ms", st, "ms");
    wb::metric("naive_gflops", flops / (st.median * 1e6), "GFLOP/s");
    naive_median = st.median;
  } else {
    std::printf("naive kernel failed its check at N=%d: not timed\n", n);
  }
  if (tiled_ok) {
    const wb::Stats st = wb::time_kernel([&] { launch_tiled(big.dA, big.dB, big.dC, n, n, n); });
    wb::metric("tiled_ms", st, "ms");
    wb::metric("tiled_gflops", flops / (st.median * 1e6), "GFLOP/s");
    tiled_median = st.median;
  } else {
    std::printf("tiled kernel failed its check at N=%d: not timed\n", n);
  }
  if (naive_median > 0 && tiled_median > 0)
    std::printf("tiled vs naive at N=%d: %.2fx faster\n", n, naive_median / tiled_median);
  free_problem(big);

  return wb::finish();
}
