/*
Module 12 lab: coalesced and strided access in a matrix copy. STARTER:
copy_col_wise, effective_gbps and time_once_ms below are yours to write (see their
TODOs); everything else is complete.

An N x N float matrix (row-major, element (r, c) at r*N + c) is copied from `in` to
`out` by two kernels that do exactly the same work and differ only in which index
threadIdx.x walks along:

  copy_row_wise  x runs along the columns: the 32 lanes of a warp touch 32 neighbouring
                 floats (128 bytes, 4 sectors of 32 B): coalesced
  copy_col_wise  x runs along the rows: neighbouring lanes are N*4 bytes apart
                 (32 KB at N = 8192), so every lane needs a sector of its own: strided

First both kernels are checked at an odd size, 1021 x 1021 (1021 is prime: no block
edge divides it), with block (32,8) and the output between canary bands, so a missing
or off-by-one guard fails a check. Then each kernel runs at N x N with three block
shapes, (32,1), (32,8) and (8,32): every copy is checked bit for bit against the input
(fresh random floats, output poisoned with NaN first) and timed by the harness (warm-up,
L2 flushed before each sample, median). The effective bandwidth counts what a copy must
move: N*N*4 bytes read plus N*N*4 bytes written, over the median time.

The workbook's lab asks for two things besides the column-wise kernel: CUDA-event timers
around a kernel, and the effective bandwidth. Both are yours in the starter:
time_once_ms (one launch between two events) and effective_gbps. The lab checks the
formula on a known case, and times one cold launch of every copy with your timer,
which must agree with the harness's median.

One more kernel is timed for comparison: `empty`, which does nothing, launched with the
same grid of 32-thread blocks as the (32,1) copies (N*N/32 blocks, 2,097,152 at
N = 8192). Its time is what merely launching and retiring that many blocks costs; a
copy can never be faster than it, whatever its access pattern.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module12/coalescing.cu -o coalescing && ./coalescing

Parameters (NAME=VALUE): N (matrix edge, default 8192, 1024 with quick=1), seed (random
inputs), quick=1 (small sizes, for a smoke run).
*/

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// The edge of the odd-size check: prime, so no block edge (32 or 8) divides it, and the
// grid of block (32,8) sticks out past the matrix in both directions (3 rows or columns
// along x, 3 along y: 3,066 elements at most, well inside the 16,384-float canary band).
constexpr int kOddN = 1021;
// The odd-size input gets this many spare elements past its end, so a kernel without
// its guard reads junk there instead of faulting; the canary check on out names it.
constexpr size_t kInputSlack = 4096;

// ----------------------------------------------------------------------------
// CPU reference
//
// A copy has an obvious reference: the output must equal the input, bit for bit. The
// host keeps its copy of `in` and every result is compared with it (rtol = atol = 0).

// ----------------------------------------------------------------------------
// GPU kernels

// Coalesced: threadIdx.x (and blockIdx.x) pick the column, y picks the row.
__global__ void copy_row_wise(const float* in, float* out, int rows, int cols) {
  const int c = threadIdx.x + blockDim.x * blockIdx.x;  // row-wise: x picks the column
  const int r = threadIdx.y + blockDim.y * blockIdx.y;  // row-wise: y picks the row
  if (r < rows && c < cols) {
    const size_t i = static_cast<size_t>(r) * cols + c;
    out[i] = in[i];
  }
}

// Strided: the same copy with the roles swapped, threadIdx.x (and blockIdx.x) pick
// the row, y picks the column. Lanes of a warp are `cols` floats apart.
__global__ void copy_col_wise(const float* in, float* out, int rows, int cols) {
  // TODO (Module 12.4): the same copy of the rows x cols row-major matrix as
  // copy_row_wise above, every element once, but laid out the slow way on purpose: the
  // thread's x position picks the row and its y position the column, so that the
  // lanes of a warp walk down a column (that is the experiment). The launch is the one
  // copy_row_wise gets. Checks: an odd-sized matrix whose grid sticks out past it, with
  // canary bands after out (col_odd_copy, col_odd_bounds); until you write it out stays
  // poisoned (NaN) and every col_* check fails. Pitfalls: threads outside the matrix in
  // either dimension; an int element offset overflows on larger matrices. Before you
  // run it: how far apart in bytes are two neighbouring lanes' addresses, and how many
  // 32-byte sectors does one warp's load touch?
  (void)in, (void)out, (void)rows, (void)cols;
}

// Does nothing: launching it still costs the block scheduler one dispatch per block.
__global__ void empty_kernel() {}

// ----------------------------------------------------------------------------
// Launchers (enqueue only)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The grid always covers the dimension that x walks along with grid.x.
void launch_row(const float* in, float* out, int n, dim3 block) {
  const dim3 grid(ceil_div(n, block.x), ceil_div(n, block.y));  // x: columns, y: rows
  copy_row_wise<<<grid, block>>>(in, out, n, n);
}

void launch_col(const float* in, float* out, int n, dim3 block) {
  const dim3 grid(ceil_div(n, block.x), ceil_div(n, block.y));  // x: rows, y: columns
  copy_col_wise<<<grid, block>>>(in, out, n, n);
}

using Launcher = void (*)(const float*, float*, int, dim3);

// ----------------------------------------------------------------------------
// Measuring: the workbook lab's step 1

// Effective bandwidth in GB/s (1 GB = 1e9 B) of a copy that read `bytes_read` and wrote
// `bytes_written` in `ms` milliseconds.
double effective_gbps(double bytes_read, double bytes_written, double ms) {
  // TODO (Module 12 lab, step 1): the effective bandwidth in GB/s (1e9 bytes a second)
  // of a kernel that read bytes_read and wrote bytes_written bytes in ms milliseconds.
  // Until you do, every *_gbps is 0 and the gbps_formula check fails. Pitfall: the time
  // arrives in milliseconds.
  (void)bytes_read, (void)bytes_written, (void)ms;
  return 0.0;
}

// Times ONE call of `launch` (which enqueues a kernel on the default stream) with a
// pair of CUDA events and returns the elapsed milliseconds. WB_CHECK is the CHECK macro
// the workbook asks for: it reports the file, the line and the CUDA error, and exits.
template <class F>
float time_once_ms(F&& launch) {
  // TODO (Module 12 lab, step 1): return the GPU time in milliseconds of what launch()
  // enqueues on the default stream, measured on the GPU with CUDA events (Module 8), every
  // CUDA call wrapped in WB_CHECK, nothing leaked. Until you do, this returns 0 and the
  // event_timer check fails: the harness times every copy too, and your one-launch time
  // must land near its median. Pitfalls: a kernel launch returns before the kernel
  // has run, so the host must not read the time too early; a timer read on the host
  // clock measures the launch, not the copy.
  (void)launch;
  return 0.0f;
}

// ----------------------------------------------------------------------------
// main

struct Variant {
  const char* prefix;  // "row", "col", "row_32x8", ...: the names of its metrics and check
  Launcher launch;
  dim3 block;
};

// Copies the odd-size matrix once with `launch` and block (32,8) into an output between
// canary bands; checks the values (bit for bit) and the bands.
void check_odd(const char* prefix, Launcher launch, const std::vector<float>& host_in, const float* d_in, float* d_out) {
  const size_t elems = static_cast<size_t>(kOddN) * kOddN;
  wb::poison_output(d_out);
  launch(d_in, d_out, kOddN, dim3(32, 8));
  WB_CHECK_LAUNCH();
  std::vector<float> got(elems);
  WB_CHECK(cudaMemcpy(got.data(), d_out, elems * sizeof(float), cudaMemcpyDeviceToHost));
  const std::string name = prefix;
  wb::compare((name + "_odd_copy").c_str(), got.data(), host_in.data(), elems, 0.0, 0.0, kOddN);
  wb::check_bounds((name + "_odd_bounds").c_str(), d_out);
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module12/coalescing");
  const long long n_param = wb::param("N", 8192, 1024);
  wb::params_done();
  if (n_param < 32 || n_param > 16384) wb::bad_argument("N must be between 32 and 16384");
  const int n = static_cast<int>(n_param);
  const size_t elems = static_cast<size_t>(n) * n;
  const size_t bytes = elems * sizeof(float);
  wb::metric("n", n, "count");

  // ---- 1. Both kernels at 1021 x 1021, block (32,8), between canary bands -------------
  {
    const size_t odd_elems = static_cast<size_t>(kOddN) * kOddN;
    std::vector<float> odd_in(odd_elems);
    wb::fill_uniform(odd_in.data(), odd_elems, -1.0f, 1.0f, 1);
    float* d_odd_in = nullptr;
    WB_CHECK(cudaMalloc(&d_odd_in, (odd_elems + kInputSlack) * sizeof(float)));
    WB_CHECK(cudaMemset(d_odd_in, 0, (odd_elems + kInputSlack) * sizeof(float)));
    WB_CHECK(cudaMemcpy(d_odd_in, odd_in.data(), odd_elems * sizeof(float), cudaMemcpyHostToDevice));
    float* d_odd_out = wb::alloc_output<float>(odd_elems);
    check_odd("row", launch_row, odd_in, d_odd_in, d_odd_out);
    check_odd("col", launch_col, odd_in, d_odd_in, d_odd_out);
    wb::free_output(d_odd_out);
    WB_CHECK(cudaFree(d_odd_in));
  }

  // ---- 2. The bandwidth formula on a case with a known answer -------------------------
  // 1 GB read and 1 GB written in 1000 ms is 2 GB/s.
  const double known = effective_gbps(1e9, 1e9, 1000.0);
  wb::check("gbps_formula", std::fabs(known - 2.0) <= 1e-9, known, 2.0,
            "effective_gbps(1e9 bytes read, 1e9 bytes written, 1000 ms) must be 2 GB/s");

  // ---- 3. Six copies at N x N: correct, timed by the harness and by your timer ---------
  std::printf("matrix %d x %d floats: %.1f MiB each way, %.1f MB read + written per copy\n", n, n,
              bytes / 1048576.0, 2.0 * bytes / 1e6);
  std::vector<float> host_in(elems), host_out(elems);
  wb::fill_uniform(host_in.data(), elems, -1.0f, 1.0f, 0);
  float *d_in = nullptr, *d_out = nullptr;
  WB_CHECK(cudaMalloc(&d_in, bytes));
  WB_CHECK(cudaMalloc(&d_out, bytes));
  WB_CHECK(cudaMemcpy(d_in, host_in.data(), bytes, cudaMemcpyHostToDevice));

  const Variant variants[] = {
      {"row", launch_row, dim3(32, 1)},          {"col", launch_col, dim3(32, 1)},
      {"row_32x8", launch_row, dim3(32, 8)},     {"col_32x8", launch_col, dim3(32, 8)},
      {"row_8x32", launch_row, dim3(8, 32)},     {"col_8x32", launch_col, dim3(8, 32)},
  };

  wb::TimingOptions timing;
  timing.max_time_s = 0.5;  // a slow strided copy on a small GPU still ends quickly
  std::vector<double> medians;  // of the variants that passed, in order
  // Your timer against the harness: one cold launch (after an L2 flush, like each of the
  // harness's samples) must land within [0.5, 2] x the median, plus 5 us for the launch
  // latency a lone event pair may include at small sizes.
  int timer_bad = 0, timer_runs = 0;
  double timer_worst = 1.0;  // the ratio furthest from 1 (your time / the median)
  for (const Variant& v : variants) {
    const std::string name = v.prefix;
    // Correctness first: poison the output, copy once, compare bit for bit.
    wb::poison(d_out, bytes);
    v.launch(d_in, d_out, n, v.block);
    WB_CHECK_LAUNCH();
    WB_CHECK(cudaMemcpy(host_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    const bool ok = wb::compare((name + "_copy").c_str(), host_out.data(), host_in.data(), elems, 0.0, 0.0, n);
    if (!ok) {
      std::printf("%s (block %u x %u) copied wrongly: not timed\n", v.prefix, v.block.x, v.block.y);
      continue;
    }
    const wb::Stats st = wb::time_kernel([&] { v.launch(d_in, d_out, n, v.block); }, timing);
    const double gbps = effective_gbps(static_cast<double>(bytes), static_cast<double>(bytes), st.median);
    wb::metric((name + "_ms").c_str(), st, "ms");
    wb::metric((name + "_gbps").c_str(), gbps, "GB/s");
    medians.push_back(st.median);

    wb::flush_l2();  // enqueued: your timer's start event waits behind it
    const double mine = time_once_ms([&] { v.launch(d_in, d_out, n, v.block); });
    WB_CHECK(cudaGetLastError());
    const bool agrees = mine >= 0.5 * st.median && mine <= 2.0 * st.median + 0.005;
    ++timer_runs;
    if (!agrees) ++timer_bad;
    const double ratio = st.median > 0 ? mine / st.median : 0.0;
    if (std::fabs(std::log(std::max(ratio, 1e-9))) > std::fabs(std::log(timer_worst))) timer_worst = std::max(ratio, 1e-9);
    std::printf("%-9s block(%2u,%2u)  %8.3f ms  %7.0f GB/s   (your timer, one launch: %.3f ms)\n", v.prefix, v.block.x,
                v.block.y, st.median, gbps, mine);
  }
  if (timer_runs > 0) {
    wb::check("event_timer", timer_bad == 0, timer_worst, 2.0,
              wb::detail::format("%d of %d copies timed by time_once_ms outside [0.5, 2] x the harness median (+5 us); "
                                 "worst ratio %.3g",
                                 timer_bad, timer_runs, timer_worst));
  } else {
    wb::check("event_timer", false, "no copy passed its check, so nothing was timed");
  }
  if (medians.size() == 6)
    std::printf("column-wise / row-wise: %.2fx with (32,1), %.2fx with (32,8), %.2fx with (8,32)\n",
                medians[1] / medians[0], medians[3] / medians[2], medians[5] / medians[4]);

  // The launch floor of the (32,1) grid: the same number of 32-thread blocks, no work.
  const wb::Stats empty = wb::time_kernel([&] { empty_kernel<<<dim3(ceil_div(n, 32), n), 32>>>(); }, timing);
  wb::metric("empty_ms", empty, "ms");
  std::printf("empty     block(32, 1)  %8.3f ms  (%.0f blocks, nothing copied)\n", empty.median,
              static_cast<double>(ceil_div(n, 32)) * n);

  WB_CHECK(cudaFree(d_in));
  WB_CHECK(cudaFree(d_out));
  return wb::finish();
}
