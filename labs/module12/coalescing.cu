/*
Module 12 lab: coalesced and strided access in a matrix copy. STARTER:
copy_col_wise and effective_gbps below are yours to write (see their TODOs); everything
else is complete.

An N x N float matrix (row-major, element (r, c) at r*N + c) is copied from `in` to
`out` by two kernels that do exactly the same work and differ only in which index
threadIdx.x walks along:

  copy_row_wise  x runs along the columns: the 32 lanes of a warp touch 32 neighbouring
                 floats (128 bytes, 4 sectors of 32 B): coalesced
  copy_col_wise  x runs along the rows: neighbouring lanes are N*4 bytes apart
                 (32 KB at N = 8192), so every lane needs a sector of its own: strided

Each kernel runs with three block shapes, (32,1), (32,8) and (8,32). Every copy is
checked bit for bit against the input (fresh random floats, output poisoned with NaN
first) and timed with CUDA events (warm-up, L2 flushed before each sample, median).
The effective bandwidth counts what a copy must move: N*N*4 bytes read plus N*N*4
bytes written, over the median time.

One more kernel is timed for comparison: `empty`, which does nothing, launched with the
same grid of 32-thread blocks as the (32,1) copies (N*N/32 blocks, 2,097,152 at
N = 8192). Its time is what merely launching and retiring that many blocks costs; a
copy can never be faster than it, whatever its access pattern.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module12/coalescing.cu -o coalescing && ./coalescing

Parameters (NAME=VALUE): N (matrix edge, default 8192, 1024 with quick=1), seed (random
inputs), quick=1 (small sizes, for a smoke run).
*/

#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// ----------------------------------------------------------------------------
// CPU reference
//
// A copy has an obvious reference: the output must equal the input, bit for bit. The
// host keeps its copy of `in` and every result is compared with it (rtol = atol = 0).

// ----------------------------------------------------------------------------
// GPU kernels

// Coalesced: threadIdx.x (and blockIdx.x) pick the column, y picks the row.
__global__ void copy_row_wise(const float* in, float* out, int rows, int cols) {
  const int c = threadIdx.x + blockDim.x * blockIdx.x;
  const int r = threadIdx.y + blockDim.y * blockIdx.y;
  if (r < rows && c < cols) {
    const size_t i = static_cast<size_t>(r) * cols + c;
    out[i] = in[i];
  }
}

// Strided: the same copy with the roles swapped, threadIdx.x (and blockIdx.x) pick
// the row, y picks the column. Lanes of a warp are `cols` floats apart.
__global__ void copy_col_wise(const float* in, float* out, int rows, int cols) {
  // TODO (Module 12.4): copy in to out like copy_row_wise above, but with the roles of
  // x and y swapped: the row r comes from blockIdx.x, blockDim.x and threadIdx.x, the
  // column c from the y components. Guard r < rows and c < cols, then copy the element
  // at r * cols + c (compute the index as a size_t, like copy_row_wise, so that
  // larger matrices cannot overflow an int). Until you write it, out stays poisoned (NaN) and every col_*
  // check fails. Before you run it: how far apart in bytes are the addresses of two
  // neighbouring lanes, and how many 32-byte sectors does one warp's load touch?
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

// Effective bandwidth in GB/s (1 GB = 1e9 B) of a copy that read `bytes_read` and wrote
// `bytes_written` in `ms` milliseconds.
double effective_gbps(double bytes_read, double bytes_written, double ms) {
  // TODO (Module 12 lab, step 1): bytes moved (read + written) over the time in
  // seconds, in units of 1e9 bytes per second. Until you do, every *_gbps is 0.
  (void)bytes_read, (void)bytes_written, (void)ms;
  return 0.0;
}

// ----------------------------------------------------------------------------
// main

struct Variant {
  const char* prefix;  // "row", "col", "row_32x8", ...: the names of its metrics and check
  Launcher launch;
  dim3 block;
};

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module12/coalescing");
  const long long n_param = wb::param("N", 8192, 1024);
  wb::params_done();
  if (n_param < 32 || n_param > 16384) wb::bad_argument("N must be between 32 and 16384");
  const int n = static_cast<int>(n_param);
  const size_t elems = static_cast<size_t>(n) * n;
  const size_t bytes = elems * sizeof(float);
  wb::metric("n", n, "count");
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
    std::printf("%-9s block(%2u,%2u)  %8.3f ms  %7.0f GB/s\n", v.prefix, v.block.x, v.block.y, st.median, gbps);
    medians.push_back(st.median);
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
