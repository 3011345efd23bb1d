/*
Module 15 lab: three matrix-vector designs, and the price of a naive port. STARTER:
matvec_cpu, matvec_row, matvec_warp and launch_cublas below are yours to write (see their
TODOs); the reference, the launchers, the ports and main are complete.

y = W x with W of size D x N (row-major float32, like llama2.c's weights) and x of N
entries: the hotspot of LLM token generation. Each weight is used exactly once (2 FLOPs
per 4-byte load), so the product is memory-bound and its floor is the time to stream W.

  cpu            single-threaded loop on the host (timed with a host clock)
  matvec_row     one thread per output row: at each step the 32 lanes of a warp read 32
                 different rows, N floats apart (uncoalesced), and only D threads exist
  matvec_warp    one warp per output row: the lanes read consecutive floats of the row
                 (coalesced) and combine their 32 partial sums with __shfl_down_sync
  cublasSgemv    the library; cuBLAS is column-major, so the row-major D x N matrix is
                 passed as a column-major N x D one with CUBLAS_OP_T (the transpose trick)

Then the port itself, both with the warp kernel, CALLS calls each, host-clock timed:
  naive port     every call: cudaMalloc W, x, y; copy W and x in; kernel; copy y out;
                 cudaFree (what a first port of llama2.c's matmul() does)
  resident       W copied once and buffers kept; every call: copy x in, kernel, copy y out

Every result is checked against a double-precision CPU reference on fresh random inputs
in [-1, 1] (relative tolerance 1e-4), at D x N and at an odd 1001 x 999, where D is not a
multiple of the 8 warps (or 256 threads) a block holds and N is not a multiple of 32; the
odd y sits between two canary bands, so a store past its end is caught. W is 67 MB at the
default size, about the size of an H200's L2, so every timed launch must find W outside
the L2. The row kernel (~0.6 ms on an H200) is timed one launch at a time after an L2
flush. The warp kernel and cuBLAS take ~19 us there, too short for one launch's clock (a
fixed ~0.5 us is 3 %): they are timed as back-to-back launches in a captured CUDA graph,
each launch reading its own copy of W (enough copies that the others push it out of the
L2), and the figure is the per-launch period (wb::time_kernel_graph).

Build and run by hand (note -lcublas):
  nvcc -O3 -arch=native -I labs/common labs/module15/matvec.cu -o matvec -lcublas && ./matvec

Parameters (NAME=VALUE): D (rows, default 4096), N (columns, default 4096; 512 x 512
with quick=1), CALLS (calls of each port version, default 100, 5 with quick=1), seed,
quick=1.
*/

#include <cublas_v2.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// Checks a cuBLAS status; on failure records an error and exits 4.
#define CUBLAS_CHECK(call)                                                                         \
  do {                                                                                             \
    const cublasStatus_t st_ = (call);                                                             \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                              \
      wb::fatal(std::string("matvec.cu:") + std::to_string(__LINE__),                              \
                std::string(#call) + ": cuBLAS status " + std::to_string(static_cast<int>(st_))); \
  } while (0)

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// ----------------------------------------------------------------------------
// CPU versions

// The reference, accumulated in double.
void matvec_ref(const float* W, const float* x, double* y, int d, int n) {
  for (int i = 0; i < d; ++i) {
    double acc = 0.0;
    const float* row = W + static_cast<size_t>(i) * n;
    for (int j = 0; j < n; ++j) acc += static_cast<double>(row[j]) * x[j];
    y[i] = acc;
  }
}

// The CPU baseline that is timed: float, one core, like llama2.c's matmul without OpenMP.
void matvec_cpu(const float* W, const float* x, float* y, int d, int n) {
  // TODO (Module 15 lab, step 1): until you write this loop, y stays NaN and the `cpu`
  // check fails.
  // For every output i in 0 .. d-1: walk row i of W (it starts at W + (size_t)i * n),
  // add up row[j] * x[j] for j in 0 .. n-1 in a float accumulator (float on purpose:
  // this is the program you are porting, not the double reference above), and store the
  // total in y[i]. One core, no OpenMP: this is the baseline the GPU is compared with.
}

// ----------------------------------------------------------------------------
// GPU kernels

// Design 1: thread i computes y[i] alone.
__global__ void matvec_row(const float* W, const float* x, float* y, int d, int n) {
  // TODO (Module 15.2, design 1): until you write this kernel, y stays poisoned (NaN)
  // and row_ok and row_odd fail.
  //
  // The launcher starts ceil(d / 256) blocks of 256 threads: one thread per output row.
  // 1. i = global thread index. Threads with i >= d have no row: let them return (this
  //    kernel has no barrier, so an early return is safe). The odd check (d = 1001)
  //    leaves 23 such threads in the last block; row_odd_bounds catches a store of any.
  // 2. Thread i adds up W[i][j] * x[j] over the whole row (W is row-major: the row
  //    starts at W + (size_t)i * n) in a float, and stores the total in y[i].
  // Afterwards, ask yourself which addresses the 32 lanes of a warp read at one step j.
}

// Design 2: a warp for each row of W.
__global__ void matvec_warp(const float* W, const float* x, float* y, int d, int n) {
  // TODO (Module 15.2): until you write this kernel, y stays poisoned (NaN), warp_ok
  // fails and the two port versions (which call this kernel) are not run.
  //
  // Contract: the same y = W x as matvec_row (W row-major, d x n; y has d elements), but
  // one warp per output row: the launcher starts d warps, 8 per 256-thread block, and
  // the grid rounded up leaves whole warps with no row. The 32 lanes of a warp share the
  // row's work so that at every step they read neighbouring floats of W (coalesced), and
  // their 32 partial sums are combined inside the warp, without shared memory or a
  // barrier; the row's total is stored once. Checks: d = 1001 with y between canary
  // bands (warp_odd, warp_odd_bounds) and the default size (warp_ok).
  // Pitfalls: warp-wide operations need every lane of the warp still running, so a
  // warp without a row must leave as a whole, never lane by lane; only one lane
  // stores; the row offset is the product of two sizes.
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only)

constexpr int kBlock = 256;
int ceil_div(long long a, int b) { return static_cast<int>((a + b - 1) / b); }

void launch_row(const float* W, const float* x, float* y, int d, int n, cudaStream_t s = 0) {
  matvec_row<<<ceil_div(d, kBlock), kBlock, 0, s>>>(W, x, y, d, n);
}

void launch_warp(const float* W, const float* x, float* y, int d, int n, cudaStream_t s = 0) {
  matvec_warp<<<ceil_div(32LL * d, kBlock), kBlock, 0, s>>>(W, x, y, d, n);  // d warps, 8 a block
}

// cuBLAS reads a column-major matrix. The bytes of a row-major D x N matrix are those of a
// column-major N x D matrix (leading dimension N), which is W transposed; asking for the
// transposed product (CUBLAS_OP_T) of that gives W x.
void launch_cublas(cublasHandle_t handle, const float* W, const float* x, float* y, int d, int n) {
  // TODO (Module 15.2): one cublasSgemv call, wrapped in CUBLAS_CHECK(...). Until you
  // write it, y stays poisoned and cublas_ok fails.
  //   cublasSgemv(handle, trans, rows, cols, &alpha, A, lda, x, incx, &beta, y, incy)
  // computes y = alpha * op(A) x + beta * y for a COLUMN-major rows x cols matrix A.
  // Work out which rows, cols, lda and trans make cuBLAS read the row-major D x N
  // matrix W correctly (hint: its bytes are a column-major N x D matrix). alpha = 1,
  // beta = 0 (pointers to host floats), increments 1.
}

// ----------------------------------------------------------------------------
// The two ports (synchronous, like a function called from a CPU program)

// Naive: everything inside the call.
void matvec_port_naive(const float* hW, const float* hx, float* hy, int d, int n) {
  float *dW = nullptr, *dx = nullptr, *dy = nullptr;
  WB_CHECK(cudaMalloc(&dW, static_cast<size_t>(d) * n * sizeof(float)));
  WB_CHECK(cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float)));
  WB_CHECK(cudaMalloc(&dy, static_cast<size_t>(d) * sizeof(float)));
  WB_CHECK(cudaMemcpy(dW, hW, static_cast<size_t>(d) * n * sizeof(float), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(dx, hx, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  launch_warp(dW, dx, dy, d, n);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaMemcpy(hy, dy, static_cast<size_t>(d) * sizeof(float), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaFree(dW));
  WB_CHECK(cudaFree(dx));
  WB_CHECK(cudaFree(dy));
}

// Resident: W already on the device, buffers reused; only the vectors travel.
void matvec_port_resident(const float* dW, float* dx, float* dy, const float* hx, float* hy, int d, int n) {
  WB_CHECK(cudaMemcpy(dx, hx, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  launch_warp(dW, dx, dy, d, n);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaMemcpy(hy, dy, static_cast<size_t>(d) * sizeof(float), cudaMemcpyDeviceToHost));
}

// ----------------------------------------------------------------------------
// main

// Tolerance: each y is a float sum of N products of values in [-1, 1]; rtol 1e-4 plus
// atol = 4 N FLT_EPSILON for sums that cancel (see tiled_gemm.cu for the argument).
bool check_y(const char* name, const std::vector<float>& got, const std::vector<double>& ref, int n) {
  return wb::compare(name, got.data(), ref.data(), ref.size(), 1e-4, 4.0 * n * FLT_EPSILON);
}

// Poisons y and re-arms its canary bands (dy comes from wb::alloc_output), runs one
// launch, checks. With a bounds_name, also records whether the launch wrote outside y.
template <class Launch>
bool run_and_check(const char* name, Launch launch, float* dy, const std::vector<double>& ref, int n,
                   const char* bounds_name = nullptr) {
  wb::poison_output(dy);
  launch();
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, dy);
  std::vector<float> got(ref.size());
  WB_CHECK(cudaMemcpy(got.data(), dy, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return check_y(name, got, ref, n);
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module15/matvec");
  const long long d_param = wb::param("D", 4096, 512);
  const long long n_param = wb::param("N", 4096, 512);
  const long long calls_param = wb::param("CALLS", 100, 5);
  wb::params_done();
  if (d_param < 1 || d_param > 65536 || n_param < 1 || n_param > 65536)
    wb::bad_argument("D and N must be between 1 and 65536");
  if (calls_param < 1 || calls_param > 10000) wb::bad_argument("CALLS must be between 1 and 10000");
  const int d = static_cast<int>(d_param), n = static_cast<int>(n_param), calls = static_cast<int>(calls_param);
  const size_t w_elems = static_cast<size_t>(d) * n;
  const size_t w_size = w_elems * sizeof(float);
  const double w_bytes = static_cast<double>(w_size);
  std::printf("W is %d x %d floats = %.1f MB\n", d, n, w_bytes / 1e6);

  // Inputs (pageable host memory, as in a CPU program) and the reference.
  std::vector<float> W(w_elems), x(n), y(d);
  wb::fill_uniform(W.data(), W.size(), -1.0f, 1.0f, 0);
  wb::fill_uniform(x.data(), x.size(), -1.0f, 1.0f, 1);
  std::vector<double> ref(d);
  matvec_ref(W.data(), x.data(), ref.data(), d, n);

  // CPU baseline: median of 5 runs (y is NaN before each, so an unwritten y fails).
  {
    std::vector<double> t;
    for (int rep = 0; rep < 5; ++rep) {
      std::fill(y.begin(), y.end(), std::nanf(""));
      const auto t0 = Clock::now();
      matvec_cpu(W.data(), x.data(), y.data(), d, n);
      t.push_back(ms_since(t0));
    }
    check_y("cpu", y, ref, n);
    wb::metric("cpu_ms", wb::stats_of(t), "ms");
  }

  float *dW = nullptr, *dx = nullptr;
  WB_CHECK(cudaMalloc(&dW, w_size));
  WB_CHECK(cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float)));
  float* dy = wb::alloc_output<float>(static_cast<size_t>(d));
  WB_CHECK(cudaMemcpy(dW, W.data(), w_size, cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(dx, x.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));

  // The odd shape, every design: D = 1001 rows leave a partial last block for both
  // launchers (23 threads past the end with 256-thread blocks, 7 warps with 8-warp blocks),
  // N = 999 columns leave a partial last step of 32 lanes, and D != N catches a cuBLAS
  // call whose sizes or leading dimension are swapped (at D = N that still passes).
  {
    constexpr int od = 1001, on = 999;
    std::vector<float> Wo(static_cast<size_t>(od) * on), xo(on);
    wb::fill_uniform(Wo.data(), Wo.size(), -1.0f, 1.0f, 2);
    wb::fill_uniform(xo.data(), xo.size(), -1.0f, 1.0f, 3);
    std::vector<double> ref_o(od);
    matvec_ref(Wo.data(), xo.data(), ref_o.data(), od, on);
    float *dWo = nullptr, *dxo = nullptr;
    WB_CHECK(cudaMalloc(&dWo, Wo.size() * sizeof(float)));
    WB_CHECK(cudaMalloc(&dxo, xo.size() * sizeof(float)));
    float* dyo = wb::alloc_output<float>(od);
    WB_CHECK(cudaMemcpy(dWo, Wo.data(), Wo.size() * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(dxo, xo.data(), xo.size() * sizeof(float), cudaMemcpyHostToDevice));
    run_and_check("row_odd", [&] { launch_row(dWo, dxo, dyo, od, on); }, dyo, ref_o, on, "row_odd_bounds");
    run_and_check("warp_odd", [&] { launch_warp(dWo, dxo, dyo, od, on); }, dyo, ref_o, on, "warp_odd_bounds");
    run_and_check("cublas_odd", [&] { launch_cublas(handle, dWo, dxo, dyo, od, on); }, dyo, ref_o, on,
                  "cublas_odd_bounds");
    WB_CHECK(cudaFree(dWo));
    WB_CHECK(cudaFree(dxo));
    wb::free_output(dyo);
  }

  // Resident kernels: check, then time. The least traffic is W plus the two vectors.
  const double min_bytes = w_bytes + 4.0 * (static_cast<double>(n) + d);
  struct Design {
    const char* name;
    bool ok;
  };
  Design designs[] = {
      {"row", run_and_check("row_ok", [&] { launch_row(dW, dx, dy, d, n); }, dy, ref, n)},
      {"warp", run_and_check("warp_ok", [&] { launch_warp(dW, dx, dy, d, n); }, dy, ref, n)},
      {"cublas", run_and_check("cublas_ok", [&] { launch_cublas(handle, dW, dx, dy, d, n); }, dy, ref, n)},
  };
  // Copies of W for the graph-timed kernels: launch k reads copy k % copies.
  std::vector<float*> w_copies{dW};
  for (int c = 1; c < std::min(64, wb::copies_past_l2(w_size)); ++c) {
    float* p = nullptr;
    WB_CHECK(cudaMalloc(&p, w_size));
    WB_CHECK(cudaMemcpy(p, dW, w_size, cudaMemcpyDeviceToDevice));
    w_copies.push_back(p);
  }
  auto w_copy = [&](int k) { return w_copies[static_cast<size_t>(k) % w_copies.size()]; };
  for (const Design& ds : designs) {
    if (!ds.ok) {
      std::printf("%s failed its check: not timed\n", ds.name);
      continue;
    }
    const std::string base(ds.name);
    wb::Stats st;
    if (base == "row") st = wb::time_kernel([&] { launch_row(dW, dx, dy, d, n); });
    if (base == "warp")
      st = wb::time_kernel_graph([&](int k, cudaStream_t s) { launch_warp(w_copy(k), dx, dy, d, n, s); });
    if (base == "cublas")
      st = wb::time_kernel_graph([&](int k, cudaStream_t s) {
        CUBLAS_CHECK(cublasSetStream(handle, s));
        launch_cublas(handle, w_copy(k), dx, dy, d, n);
      });
    wb::metric((base + "_ms").c_str(), st, "ms");
    wb::metric((base + "_gbps").c_str(), min_bytes / (st.median * 1e6), "GB/s");
  }
  CUBLAS_CHECK(cublasSetStream(handle, 0));
  for (size_t c = 1; c < w_copies.size(); ++c) WB_CHECK(cudaFree(w_copies[c]));
  const bool warp_ok = designs[1].ok;

  // The port, CALLS calls of each version (both use the warp kernel).
  if (warp_ok) {
    std::vector<double> t_naive, t_res;
    std::vector<float> y_naive(d), y_res(d);
    matvec_port_naive(W.data(), x.data(), y_naive.data(), d, n);  // warm-up (context, module)
    for (int c = 0; c < calls; ++c) {
      std::fill(y_naive.begin(), y_naive.end(), std::nanf(""));
      const auto t0 = Clock::now();
      matvec_port_naive(W.data(), x.data(), y_naive.data(), d, n);
      t_naive.push_back(ms_since(t0));
    }
    matvec_port_resident(dW, dx, dy, x.data(), y_res.data(), d, n);  // warm-up
    for (int c = 0; c < calls; ++c) {
      std::fill(y_res.begin(), y_res.end(), std::nanf(""));
      const auto t0 = Clock::now();
      matvec_port_resident(dW, dx, dy, x.data(), y_res.data(), d, n);
      t_res.push_back(ms_since(t0));
    }
    check_y("naive_port_ok", y_naive, ref, n);
    check_y("resident_ok", y_res, ref, n);
    double sum_naive = 0, sum_res = 0;
    for (double v : t_naive) sum_naive += v;
    for (double v : t_res) sum_res += v;
    const wb::Stats sn = wb::stats_of(t_naive), sr = wb::stats_of(t_res);
    wb::metric("naive_port_ms", sn, "ms");
    wb::metric("resident_ms", sr, "ms");
    wb::metric("naive_port_total_ms", sum_naive, "ms");
    wb::metric("resident_total_ms", sum_res, "ms");
    std::printf("%d calls: naive port %.1f ms, resident %.1f ms (%.1fx)\n", calls, sum_naive, sum_res,
                sum_naive / sum_res);
  } else {
    std::printf("the warp kernel failed its check: the port versions are not run\n");
    wb::check("naive_port_ok", false, "not run: matvec_warp failed its check");
    wb::check("resident_ok", false, "not run: matvec_warp failed its check");
  }

  CUBLAS_CHECK(cublasDestroy(handle));
  WB_CHECK(cudaFree(dW));
  WB_CHECK(cudaFree(dx));
  wb::free_output(dy);
  return wb::finish();
}
