/*
Module 22 lab: your GEMM against cuBLAS (FP32, TF32, FP16 Tensor Cores), and Monte Carlo
pi with cuRAND. STARTER: complete the five // TODO sections.

Part 1. C = A * B, all matrices row-major: A is M x N, B is N x P, C is M x P. Five ways:

  naive     one thread per element of C, operands straight from global memory (Module 9)
  tiled     16 x 16 shared-memory tiles (the Module 14 kernel)
  sgemm     cublasSgemm, FP32 math, called with the row-major trick: cuBLAS reads our
            row-major B and A as the column-major B^T and A^T, so asking it for
            B^T * A^T = (A B)^T produces C^T in column-major order, which is C row-major
  tf32      the same call with the handle in CUBLAS_TF32_TENSOR_OP_MATH: the inputs are
            rounded to TF32 (10-bit mantissa) and multiplied on Tensor Cores
  fp16      cublasGemmEx with A and B converted to half (CUDA_R_16F), C in float
            (CUDA_R_32F), CUBLAS_COMPUTE_32F: half products, float accumulation

Checked: every version against a double CPU reference at 1000 x 600 x 700 (no dimension
a multiple of 16, and not square, so an operand order or a leading dimension that is only
right for square matrices shows; C between canary bands), and against a double GPU
reference (a plain FP64 kernel) at N^3. The relative L2 error against the FP64 result is
reported for each. Then each version is timed at N^3 and NB^3 (GFLOP/s = 2 M N P / time).

Part 2. Monte Carlo pi: THREADS threads each draw TRIALS points in the unit square with
their own cuRAND state (one seed, subsequence = thread id) and count those inside the
quarter circle; pi ~ 4 hits / samples. Then the same states draw TRIALS * 100 points more.
The standard error of the estimate is 4 sqrt(p (1 - p) / samples) with p = pi / 4; each
estimate must lie within 4.5 standard errors of pi, so the second, 100 times larger run
must be about 10 times closer. First, 1,000 threads (not a multiple of the 256-thread
block) initialise and draw from states that lie between canary bands, so a generator
kernel without its bounds guard writes past the end and fails.

Build and run by hand (note -lcublas -lcurand):
  nvcc -O3 -arch=native -I labs/common labs/module22/cublas_vs_mine.cu -o cublas_vs_mine -lcublas -lcurand && ./cublas_vs_mine

Parameters (NAME=VALUE): N (checked and timed square size, default 1024, 512 with
quick=1), NB (the large timed size, default 4096, 1024 with quick=1), THREADS (default
65536), TRIALS (points per thread in the first pi run, default 1000), seed, quick=1.
*/

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <curand_kernel.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int TILE = 16;
constexpr double kPi = 3.14159265358979323846;

// cuBLAS set-up calls (create, stream, math mode): a failure is a harness error, exit 4.
#define CUBLAS_SETUP(call)                                                                          \
  do {                                                                                              \
    const cublasStatus_t st_ = (call);                                                              \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                               \
      wb::fatal(std::string(__FILE__) + ":" + std::to_string(__LINE__),                             \
                std::string(#call) + ": " + cublasGetStatusString(st_));                            \
  } while (0)

// ----------------------------------------------------------------------------
// CPU reference

// The reference product in double, C = A B (A: M by N, B: N by P, C: M by P),
// in i-k-j order (unit stride through B and C).
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

// The FP64 reference on the GPU: one thread per element, float inputs widened to double.
__global__ void matmul_fp64(const float* A, const float* B, double* C, int M, int N, int P) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= P) return;
  double sum = 0.0;
  for (int k = 0; k < N; ++k)
    sum += static_cast<double>(A[static_cast<size_t>(row) * N + k]) * B[static_cast<size_t>(k) * P + col];
  C[static_cast<size_t>(row) * P + col] = sum;
}

__global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= P) return;
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) sum += A[static_cast<size_t>(row) * N + k] * B[static_cast<size_t>(k) * P + col];
  C[static_cast<size_t>(row) * P + col] = sum;
}

// Module 14's tiled kernel: each phase stages a TILE x TILE tile of A and of B.
__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int ph = 0; ph < (N + TILE - 1) / TILE; ++ph) {
    const int a_col = ph * TILE + tx, b_row = ph * TILE + ty;
    a_tile[ty][tx] = (row < M && a_col < N) ? A[static_cast<size_t>(row) * N + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < N && col < P) ? B[static_cast<size_t>(b_row) * P + col] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();  // nobody still reads them when the next phase overwrites
  }
  if (row < M && col < P) C[static_cast<size_t>(row) * P + col] = sum;
}

__global__ void to_half(const float* x, __half* y, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    y[i] = __float2half_rn(x[i]);
}

// One state per thread: the same seed everywhere, the thread's id as its subsequence,
// so the streams never overlap. curand_init is slow (it jumps ahead 2^67 draws per
// subsequence), so it runs once, here, and the states are kept.
__global__ void rng_init(curandState* states, unsigned long long seed, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  // TODO 4: initialize states[id] with curand_init: the same seed for every thread, the
  // thread's id as the subsequence, offset 0.
  (void)seed;
}

// Each thread draws `trials` points in (0, 1]^2, counts those with x^2 + y^2 <= 1 and
// adds its count to *hits with one atomic. The state lives in registers meanwhile and is
// stored back, so a later launch continues each stream where this one stopped.
__global__ void mc_pi(curandState* states, int n, long long trials, unsigned long long* hits) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  // TODO 5: copy states[id] into a local curandState, draw `trials` pairs (x, y) with
  // curand_uniform, count the pairs with x*x + y*y <= 1, store the state back, and add
  // the count to *hits with a single atomicAdd.
  (void)states;
  (void)trials;
  (void)hits;
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void launch_fp64(const float* A, const float* B, double* C, int M, int N, int P) {
  const dim3 block(16, 16), grid(ceil_div(P, 16), ceil_div(M, 16));
  matmul_fp64<<<grid, block>>>(A, B, C, M, N, P);
}

void launch_naive(const float* A, const float* B, float* C, int M, int N, int P) {
  const dim3 block(16, 16), grid(ceil_div(P, 16), ceil_div(M, 16));
  matmul_naive<<<grid, block>>>(A, B, C, M, N, P);
}

void launch_tiled(const float* A, const float* B, float* C, int M, int N, int P) {
  const dim3 block(TILE, TILE), grid(ceil_div(P, TILE), ceil_div(M, TILE));
  matmul_tiled<<<grid, block>>>(A, B, C, M, N, P);
}

// The handle's math mode: CUBLAS_DEFAULT_MATH keeps cublasSgemm in full FP32;
// CUBLAS_TF32_TENSOR_OP_MATH lets it round the inputs to TF32 and use Tensor Cores
// (ignored on GPUs without TF32, such as the T4).
void use_tf32(cublasHandle_t h, bool tf32) {
  // TODO 2: one cublasSetMathMode call: CUBLAS_TF32_TENSOR_OP_MATH when tf32 is true,
  // CUBLAS_DEFAULT_MATH otherwise (wrap it in CUBLAS_SETUP).
  (void)h;
  (void)tf32;
}

// All three row-major: A is M by N, B N by P, C = A B M by P. cuBLAS sees each
// row-major matrix as its column-major transpose, so it is asked for the column-major P x M product
// C^T = B^T * A^T: B goes first (P x N, leading dimension P), then A (N x M, leading
// dimension N), and C^T has leading dimension P.
cublasStatus_t sgemm_rowmajor(cublasHandle_t h, const float* A, const float* B, float* C, int M, int N, int P) {
  // TODO 1: one cublasSgemm call (alpha = 1, beta = 0, CUBLAS_OP_N twice) that computes
  // the column-major P x M product C^T = B^T * A^T; return its status.
  (void)h; (void)A; (void)B; (void)C; (void)M; (void)N; (void)P;
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

// The same product from half inputs into a float C, accumulated in float.
cublasStatus_t gemm_fp16_rowmajor(cublasHandle_t h, const __half* A, const __half* B, float* C, int M, int N, int P) {
  // TODO 3: the same trick with cublasGemmEx: A and B of type CUDA_R_16F, C of type
  // CUDA_R_32F, compute type CUBLAS_COMPUTE_32F (so alpha and beta are floats),
  // algorithm CUBLAS_GEMM_DEFAULT; return its status.
  (void)h; (void)A; (void)B; (void)C; (void)M; (void)N; (void)P;
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

// ----------------------------------------------------------------------------
// main

// A GEMM problem on the device: A and B in float (each followed by a NaN tail as long as
// the matrix itself, so a leading dimension that walks past the end reads NaN instead of
// faulting), their half copies, and C between canary bands.
struct Problem {
  int M, N, P;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  __half *hA = nullptr, *hB = nullptr;
};

float* upload_with_nan_tail(const std::vector<float>& host) {
  float* d = nullptr;
  WB_CHECK(cudaMalloc(&d, 2 * host.size() * sizeof(float)));
  wb::poison(d, 2 * host.size() * sizeof(float));
  WB_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

// d converted to half, between canary bands: with bounds_name set, the bands are checked
// under that name (a conversion that writes past the end fails), then they turn NaN
// (wb::nan_bands), so a GEMM that reads the half copy past its end reads NaN, as it does
// past the float copies' NaN tails.
__half* half_copy(const float* d, size_t n, const char* bounds_name) {
  __half* h = wb::alloc_output<__half>(n);
  to_half<<<1024, 256>>>(d, h, n);
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, h);
  wb::nan_bands(h);
  return h;
}

Problem make_problem(int M, int N, int P, const std::vector<float>& A, const std::vector<float>& B,
                     bool check_halves) {
  Problem pr{M, N, P};
  pr.dA = upload_with_nan_tail(A);
  pr.dB = upload_with_nan_tail(B);
  pr.hA = half_copy(pr.dA, A.size(), check_halves ? "half_a_odd_bounds" : nullptr);
  pr.hB = half_copy(pr.dB, B.size(), check_halves ? "half_b_odd_bounds" : nullptr);
  pr.dC = wb::alloc_output<float>(static_cast<size_t>(M) * P);
  return pr;
}

Problem random_problem(int M, int N, int P, unsigned stream, std::vector<float>* keepA = nullptr,
                       std::vector<float>* keepB = nullptr, bool check_halves = false) {
  std::vector<float> A(static_cast<size_t>(M) * N), B(static_cast<size_t>(N) * P);
  wb::fill_uniform(A.data(), A.size(), -1.0f, 1.0f, stream);
  wb::fill_uniform(B.data(), B.size(), -1.0f, 1.0f, stream + 1);
  Problem pr = make_problem(M, N, P, A, B, check_halves);
  if (keepA) *keepA = std::move(A);
  if (keepB) *keepB = std::move(B);
  return pr;
}

void free_problem(Problem& pr) {
  WB_CHECK(cudaFree(pr.dA));
  WB_CHECK(cudaFree(pr.dB));
  wb::free_output(pr.hA);
  wb::free_output(pr.hB);
  wb::free_output(pr.dC);
}

enum class Way { naive, tiled, sgemm, tf32, fp16 };
const char* way_name(Way w) {
  switch (w) {
    case Way::naive: return "naive";
    case Way::tiled: return "tiled";
    case Way::sgemm: return "sgemm";
    case Way::tf32: return "tf32";
    default: return "fp16";
  }
}

// Enqueues one product the given way into pr.dC; returns the cuBLAS status (success for
// the two kernels). Sets the handle's math mode first for the two cublasSgemm ways.
cublasStatus_t run_way(cublasHandle_t h, Way w, const Problem& pr) {
  switch (w) {
    case Way::naive: launch_naive(pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P); return CUBLAS_STATUS_SUCCESS;
    case Way::tiled: launch_tiled(pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P); return CUBLAS_STATUS_SUCCESS;
    case Way::sgemm: return sgemm_rowmajor(h, pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P);
    case Way::tf32: return sgemm_rowmajor(h, pr.dA, pr.dB, pr.dC, pr.M, pr.N, pr.P);
    default: return gemm_fp16_rowmajor(h, pr.hA, pr.hB, pr.dC, pr.M, pr.N, pr.P);
  }
}

// Runs one way on a freshly poisoned C, checks the canary bands (when bounds_name is
// given) and compares C with the double reference. Tolerances: FP32 ways as in Module
// 14 (rtol 1e-4, atol 4 N FLT_EPSILON); TF32 and FP16 round every input to a 10-bit
// mantissa, an error of about 3e-4 of |C| (7e-4 if the hardware truncates), so atol is
// sqrt(N) / 128, 6x above the largest such error in a million elements. A wrong operand
// order or leading dimension is off by O(sqrt(N)), or leaves NaN. Returns the relative
// L2 error (NaN when the check fails).
double run_and_check(cublasHandle_t h, Way w, const Problem& pr, const std::vector<double>& ref,
                     const std::string& check_name, const char* bounds_name) {
  wb::poison_output(pr.dC);
  if (w == Way::sgemm || w == Way::tf32) use_tf32(h, w == Way::tf32);
  const cublasStatus_t st = run_way(h, w, pr);
  if (st != CUBLAS_STATUS_SUCCESS)
    std::printf("  %s: the cuBLAS call returned %s (C is left unwritten)\n", check_name.c_str(),
                cublasGetStatusString(st));
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, pr.dC);
  const size_t elems = ref.size();
  std::vector<float> got(elems);
  WB_CHECK(cudaMemcpy(got.data(), pr.dC, elems * sizeof(float), cudaMemcpyDeviceToHost));
  const bool low = (w == Way::tf32 || w == Way::fp16);
  const double rtol = low ? 1e-3 : 1e-4;
  const double atol = low ? std::sqrt(static_cast<double>(pr.N)) / 128.0 : 4.0 * pr.N * FLT_EPSILON;
  const bool ok = wb::compare(check_name.c_str(), got.data(), ref.data(), elems, rtol, atol, pr.P);
  double diff = 0.0, norm = 0.0;
  for (size_t i = 0; i < elems; ++i) {
    const double d = got[i] - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  return ok ? std::sqrt(diff / norm) : std::nan("");
}

// Times one way at its problem's size and reports <name><suffix>_ms and _gflops.
void time_way(cublasHandle_t h, Way w, const Problem& pr, const char* suffix) {
  if (w == Way::sgemm || w == Way::tf32) use_tf32(h, w == Way::tf32);
  const wb::Stats st = wb::time_kernel([&] { run_way(h, w, pr); });
  const std::string base = std::string(way_name(w)) + suffix;
  const double flops = 2.0 * pr.M * static_cast<double>(pr.N) * pr.P;
  wb::metric((base + "_ms").c_str(), st, "ms");
  wb::metric((base + "_gflops").c_str(), flops / (st.median * 1e6), "GFLOP/s");
}

// One Monte Carlo run of `trials` points a thread: returns the estimate and checks it.
double pi_run(curandState* states, int threads, long long trials, unsigned long long* d_hits, const char* name,
              double* ms_out) {
  WB_CHECK(cudaMemset(d_hits, 0, sizeof(unsigned long long)));
  cudaEvent_t t0, t1;
  WB_CHECK(cudaEventCreate(&t0));
  WB_CHECK(cudaEventCreate(&t1));
  WB_CHECK(cudaEventRecord(t0));
  mc_pi<<<ceil_div(threads, 256), 256>>>(states, threads, trials, d_hits);
  WB_CHECK(cudaEventRecord(t1));
  WB_CHECK_LAUNCH();
  float ms = 0.0f;
  WB_CHECK(cudaEventElapsedTime(&ms, t0, t1));
  WB_CHECK(cudaEventDestroy(t0));
  WB_CHECK(cudaEventDestroy(t1));
  *ms_out = ms;
  unsigned long long hits = 0;
  WB_CHECK(cudaMemcpy(&hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost));
  const double samples = static_cast<double>(threads) * static_cast<double>(trials);
  const double estimate = 4.0 * static_cast<double>(hits) / samples;
  const double p = kPi / 4.0;
  const double sigma = 4.0 * std::sqrt(p * (1.0 - p) / samples);
  const double err = std::fabs(estimate - kPi);
  wb::check(name, err <= 4.5 * sigma, err, 4.5 * sigma,
            wb::detail::format("pi ~ %.8f from %.4g samples: |error| %.3g, %.2f standard errors (%.3g each)",
                               estimate, samples, err, err / sigma, sigma));
  return estimate;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module22/cublas_vs_mine");
  const long long n_param = wb::param("N", 1024, 512);
  const long long nb_param = wb::param("NB", 4096, 1024);
  const long long threads_param = wb::param("THREADS", 65536);
  const long long trials_param = wb::param("TRIALS", 1000);
  wb::params_done();
  if (n_param < 16 || n_param > 8192) wb::bad_argument("N must be between 16 and 8192");
  if (nb_param < 16 || nb_param > 16384) wb::bad_argument("NB must be between 16 and 16384");
  if (threads_param < 1 || threads_param > (1 << 24)) wb::bad_argument("THREADS must be between 1 and 2^24");
  if (trials_param < 1 || trials_param > 10000000) wb::bad_argument("TRIALS must be between 1 and 10^7");
  const int n = static_cast<int>(n_param), nb = static_cast<int>(nb_param);
  const int threads = static_cast<int>(threads_param);
  wb::metric("n", n, "count");
  wb::metric("n_big", nb, "count");
  // TF32 exists on every GPU of compute capability 8.0 or newer, whether or not its TF32
  // Tensor Cores are faster than its FP32 units (an RTX 3050's are not): there a TF32 run
  // carries a 10-bit mantissa's error, and tf32_err is held to it.
  {
    int dev = 0, cc_major = 0;
    WB_CHECK(cudaGetDevice(&dev));
    WB_CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, dev));
    wb::metric("tf32_capable", cc_major >= 8 ? 1 : 0, "");
  }

  cublasHandle_t h;
  CUBLAS_SETUP(cublasCreate(&h));  // once: creating a handle is expensive
  const Way ways[] = {Way::naive, Way::tiled, Way::sgemm, Way::tf32, Way::fp16};

  // 1. The odd, non-square problem against the CPU (also the FP64 GPU kernel).
  {
    const int M = 1000, N = 600, P = 700;
    std::vector<float> A, B;
    Problem pr = random_problem(M, N, P, 0, &A, &B, true);
    std::vector<double> ref(static_cast<size_t>(M) * P);
    matmul_cpu(A.data(), B.data(), ref.data(), M, N, P);
    double* d64 = nullptr;
    WB_CHECK(cudaMalloc(&d64, ref.size() * sizeof(double)));
    launch_fp64(pr.dA, pr.dB, d64, M, N, P);
    WB_CHECK_LAUNCH();
    std::vector<double> got64(ref.size());
    WB_CHECK(cudaMemcpy(got64.data(), d64, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
    wb::compare("fp64_odd", got64.data(), ref.data(), ref.size(), 1e-12, 1e-12, P);
    WB_CHECK(cudaFree(d64));
    for (Way w : ways) {
      const std::string name = std::string(way_name(w)) + "_odd";
      run_and_check(h, w, pr, ref, name, (name + "_bounds").c_str());
    }
    free_problem(pr);
  }

  bool passed[5] = {};
  // 2. N^3 against the FP64 GPU kernel: checks, errors, then times.
  {
    Problem pr = random_problem(n, n, n, 2);
    double* d64 = nullptr;
    const size_t elems = static_cast<size_t>(n) * n;
    WB_CHECK(cudaMalloc(&d64, elems * sizeof(double)));
    launch_fp64(pr.dA, pr.dB, d64, n, n, n);
    WB_CHECK_LAUNCH();
    std::vector<double> ref(elems);
    WB_CHECK(cudaMemcpy(ref.data(), d64, elems * sizeof(double), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaFree(d64));
    for (Way w : ways) {
      const std::string name = way_name(w);
      passed[static_cast<int>(w)] = false;
      const double err = run_and_check(h, w, pr, ref, name + "_n", nullptr);
      if (std::isnan(err)) {
        std::printf("%s failed its check at N = %d: not timed\n", name.c_str(), n);
        continue;
      }
      passed[static_cast<int>(w)] = true;
      wb::metric((name + "_err").c_str(), err, "rel L2");
      time_way(h, w, pr, "");
    }
    free_problem(pr);
  }

  // 3. NB^3: timing only, of the ways that passed at N.
  {
    Problem pr = random_problem(nb, nb, nb, 4);
    for (Way w : ways)
      if (passed[static_cast<int>(w)]) time_way(h, w, pr, "_big");
    free_problem(pr);
  }
  CUBLAS_SETUP(cublasDestroy(h));

  // 4. The generator at an odd thread count: 1,000 threads are not a multiple of the
  // 256-thread block, so the last block has 24 spare threads, and the states lie between
  // canary bands: an rng_init or mc_pi without its bounds guard writes states past the
  // end (rng_states_odd_bounds). pi_odd checks the 1,000 x 100 points like the big runs.
  {
    const int odd = 1000;
    curandState* states = wb::alloc_output<curandState>(odd);
    unsigned long long* d_hits = nullptr;
    WB_CHECK(cudaMalloc(&d_hits, sizeof(unsigned long long)));
    rng_init<<<ceil_div(odd, 256), 256>>>(states, wb::seed() ^ 0x5A5A5A5AULL, odd);
    WB_CHECK_LAUNCH();
    double ms_odd = 0.0;
    pi_run(states, odd, 100, d_hits, "pi_odd", &ms_odd);
    wb::check_bounds("rng_states_odd_bounds", states);
    wb::free_output(states);
    WB_CHECK(cudaFree(d_hits));
  }

  // 5. Monte Carlo pi: TRIALS points a thread, then 100 times as many from the same states.
  {
    curandState* states = nullptr;
    unsigned long long* d_hits = nullptr;
    WB_CHECK(cudaMalloc(&states, static_cast<size_t>(threads) * sizeof(curandState)));
    WB_CHECK(cudaMalloc(&d_hits, sizeof(unsigned long long)));
    rng_init<<<ceil_div(threads, 256), 256>>>(states, wb::seed(), threads);
    WB_CHECK_LAUNCH();
    double ms_small = 0.0, ms_big = 0.0;
    const double est_small = pi_run(states, threads, trials_param, d_hits, "pi_small", &ms_small);
    const double est_big = pi_run(states, threads, 100 * trials_param, d_hits, "pi_big", &ms_big);
    const double samples = static_cast<double>(threads) * trials_param;
    wb::metric("pi_samples_small", samples, "count");
    wb::metric("pi_err_small", std::fabs(est_small - kPi), "abs");
    wb::metric("pi_err_big", std::fabs(est_big - kPi), "abs");
    wb::metric("pi_sigma_small", 4.0 * std::sqrt(kPi / 4 * (1 - kPi / 4) / samples), "abs");
    wb::metric("pi_big_ms", ms_big, "ms");
    wb::metric("pi_big_gsamples", 100.0 * samples / (ms_big * 1e6), "Gsample/s");
    WB_CHECK(cudaFree(states));
    WB_CHECK(cudaFree(d_hits));
  }
  return wb::finish();
}
