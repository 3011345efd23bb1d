/*
Module 4 lab: vector add against its roofline. SOLUTION.

c[i] = a[i] + b[i] for N = 2^24 floats. Per element the kernel does 1 FLOP and moves
12 bytes (two 4-byte reads, one 4-byte write), so its arithmetic intensity is
1/12 FLOP/byte: far left of any GPU's machine balance. From the roofline, the best it can
do is t_min = max(FLOPs / peak FP32, bytes / peak DRAM bandwidth) = bytes / bandwidth. The lab
measures the kernel (wb::time_kernel: warm-up, then one launch after an L2 flush per
sample, median; the kernel's own duration from CUPTI where it loads) and reports the
time, the bandwidth it reached and the counts behind the model; the runner sets them
against this GPU's figures (t_min and % of bandwidth).

Correctness, before anything is timed (exact: one float addition gives the same bits on
both sides), on fresh random inputs:
  - at N, the size that is timed;
  - at N_ODD = 1000003 elements, which no block size divides, so the last block sticks
    out past the end: a grid that rounds down leaves the tail unwritten (NaN), and a
    missing or off-by-one bounds guard writes past the end, which the canary bands
    around c (wb::alloc_output) report.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common solutions/module04/vecadd_roofline.cu -o vecadd_roofline && ./vecadd_roofline

Parameters (NAME=VALUE): N (elements, default 2^24 = 16777216, 2^20 with quick=1),
BLOCK (threads per block, default 256), seed (random inputs), quick=1.
*/

#include <cstdio>
#include <vector>

#include "workbook.cuh"

// The counts behind the model, per element.
constexpr double kFlopsPerElement = 1.0;   // one addition
constexpr double kBytesPerElement = 12.0;  // loads of a[i], b[i], store of c[i]: 3 x 4 bytes

// The correctness size no block size divides (1000003 is prime).
constexpr size_t kOddN = 1000003;
// Inputs get this many spare elements past their end, so a kernel without its guard
// reads junk there instead of faulting; the canary check on c then names the mistake.
constexpr size_t kInputSlack = 1024;

// ----------------------------------------------------------------------------
// CPU reference

void vecadd_cpu(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// ----------------------------------------------------------------------------
// GPU kernel

// One thread per element; the bounds check only bites in the last block.
__global__ void vecadd(const float* a, const float* b, float* c, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// ----------------------------------------------------------------------------
// Launcher (enqueue only; the caller checks and synchronizes)

void launch_vecadd(const float* a, const float* b, float* c, size_t n, int block) {
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  vecadd<<<grid, block>>>(a, b, c, n);
}

// ----------------------------------------------------------------------------
// main

// Device copies of two random input vectors of n elements (streams s, s + 1), their
// CPU sum, and an output c between canary bands.
struct Problem {
  size_t n = 0;
  std::vector<float> ref;
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
};

Problem make_problem(size_t n, std::uint64_t stream) {
  Problem p;
  p.n = n;
  std::vector<float> a(n), b(n);
  wb::fill_uniform(a.data(), n, -1.0f, 1.0f, stream);
  wb::fill_uniform(b.data(), n, -1.0f, 1.0f, stream + 1);
  p.ref.resize(n);
  vecadd_cpu(a.data(), b.data(), p.ref.data(), n);
  WB_CHECK(cudaMalloc(&p.d_a, (n + kInputSlack) * sizeof(float)));
  WB_CHECK(cudaMalloc(&p.d_b, (n + kInputSlack) * sizeof(float)));
  WB_CHECK(cudaMemset(p.d_a, 0, (n + kInputSlack) * sizeof(float)));
  WB_CHECK(cudaMemset(p.d_b, 0, (n + kInputSlack) * sizeof(float)));
  WB_CHECK(cudaMemcpy(p.d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(p.d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  p.d_c = wb::alloc_output<float>(n);  // poisoned (NaN), canary bands armed
  return p;
}

void free_problem(Problem& p) {
  WB_CHECK(cudaFree(p.d_a));
  WB_CHECK(cudaFree(p.d_b));
  wb::free_output(p.d_c);
}

// Launches once, then checks the values (exactly: a float addition rounds the same way
// on both sides) and the canary bands. True when both pass.
bool run_and_check(const Problem& p, int block, const char* values_check, const char* bounds_check) {
  launch_vecadd(p.d_a, p.d_b, p.d_c, p.n, block);
  WB_CHECK_LAUNCH();
  std::vector<float> got(p.n);
  WB_CHECK(cudaMemcpy(got.data(), p.d_c, p.n * sizeof(float), cudaMemcpyDeviceToHost));
  const bool values_ok = wb::compare(values_check, got.data(), p.ref.data(), p.n, 0.0, 0.0);
  const bool bounds_ok = wb::check_bounds(bounds_check, p.d_c);
  return values_ok && bounds_ok;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module04/vecadd_roofline");
  const long long n_param = wb::param("N", 1LL << 24, 1LL << 20);
  const long long block_param = wb::param("BLOCK", 256);
  wb::params_done();
  if (n_param < 1 || n_param > (1LL << 30)) wb::bad_argument("N must be between 1 and 2^30");
  if (block_param < 32 || block_param > 1024 || block_param % 32 != 0)
    wb::bad_argument("BLOCK must be a multiple of 32 between 32 and 1024");
  const size_t n = static_cast<size_t>(n_param);
  const int block = static_cast<int>(block_param);

  // The model's counts, reported so the runner can build t_min from this GPU's figures.
  const double flops = kFlopsPerElement * n;
  const double moved = kBytesPerElement * n;
  wb::metric("n", static_cast<double>(n), "count");
  wb::metric("flops", flops, "FLOP");
  wb::metric("bytes_moved", moved, "bytes");
  wb::metric("intensity", flops / moved, "FLOP/byte");

  // Correctness at the odd size first, then at N.
  Problem odd = make_problem(kOddN, 2);
  const bool odd_ok = run_and_check(odd, block, "vecadd_odd_ok", "vecadd_odd_bounds");
  free_problem(odd);
  Problem p = make_problem(n, 0);
  const bool ok = run_and_check(p, block, "vecadd_ok", "vecadd_bounds");

  if (ok && odd_ok) {
    // Each sample is one launch right after an L2 flush, at every N. Small arrays would
    // otherwise be served from the L2; and even at 2^24 (201 MB, several times any L2)
    // back-to-back launches are not cold: the lines of c that one launch leaves dirty in
    // the L2 are written back to DRAM while the next launch runs, which made it 8 %
    // slower than Nsight Compute's figure on an H200 (63.4 vs 58.3 us). The flush reads
    // a buffer 4x the L2, so those write-backs happen before the timed launch.
    const wb::Stats st = wb::time_kernel([&] { launch_vecadd(p.d_a, p.d_b, p.d_c, n, block); });
    wb::Stats us = st;
    us.median *= 1e3;
    us.min *= 1e3;
    us.max *= 1e3;
    wb::metric("kernel_us", us, "us");
    wb::metric("achieved_gbps", moved / (st.median * 1e-3) / 1e9, "GB/s");
    wb::metric("achieved_gflops", flops / (st.median * 1e-3) / 1e9, "GFLOP/s");
  } else {
    std::printf("the kernel failed a check: not timed\n");
  }

  free_problem(p);
  return wb::finish();
}
