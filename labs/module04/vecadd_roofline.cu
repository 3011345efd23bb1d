/*
Module 4 lab: vector add against its roofline. STARTER: the kernel vecadd below is
yours to write (see its TODO); everything else is complete.

c[i] = a[i] + b[i] for N = 2^24 floats. Per element the kernel does 1 FLOP and moves
12 bytes (two 4-byte reads, one 4-byte write), so its arithmetic intensity is
1/12 FLOP/byte: far left of any GPU's machine balance. From the roofline, the best it can
do is t_min = max(FLOPs / peak FP32, bytes / peak DRAM bandwidth) = bytes / bandwidth. The lab
measures the kernel (CUDA events, warm-up, median; the L2 is flushed first only
when the arrays could fit in it) and reports the time,
the bandwidth it reached and the counts behind the model; the runner sets them against
this GPU's figures (t_min and % of bandwidth).

The result is checked against a CPU reference on fresh random inputs (exact: one float
addition gives the same bits on both sides).

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module04/vecadd_roofline.cu -o vecadd_roofline && ./vecadd_roofline

Parameters (NAME=VALUE): N (elements, default 2^24 = 16777216, 2^20 with quick=1),
BLOCK (threads per block, default 256), seed (random inputs), quick=1.
*/

#include <cstdio>
#include <vector>

#include "workbook.cuh"

// The counts behind the model, per element.
constexpr double kFlopsPerElement = 1.0;   // one addition
constexpr double kBytesPerElement = 12.0;  // loads of a[i], b[i], store of c[i]: 3 x 4 bytes

// ----------------------------------------------------------------------------
// CPU reference

void vecadd_cpu(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// ----------------------------------------------------------------------------
// GPU kernel

// One thread per element; the bounds check only bites in the last block.
__global__ void vecadd(const float* a, const float* b, float* c, size_t n) {
  // TODO (Module 4.2): one thread per element. Until you write it, c stays poisoned
  // (NaN), vecadd_ok fails and nothing is timed.
  //
  // 1. Compute this thread's global index from blockIdx.x, blockDim.x and threadIdx.x
  //    (as size_t, so very large N cannot overflow).
  // 2. Only if the index is below n (the last block may stick out past the end), store
  //    the sum of a and b at that index into c.
  //
  // Before you run it: with 12 bytes and 1 FLOP per element, what does the roofline
  // say the time at N = 2^24 should be on your GPU?
}

// ----------------------------------------------------------------------------
// Launcher (enqueue only; the caller checks and synchronizes)

void launch_vecadd(const float* a, const float* b, float* c, size_t n, int block) {
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  vecadd<<<grid, block>>>(a, b, c, n);
}

// ----------------------------------------------------------------------------
// main

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
  const size_t bytes = n * sizeof(float);

  // The model's counts, reported so the runner can build t_min from this GPU's figures.
  const double flops = kFlopsPerElement * n;
  const double moved = kBytesPerElement * n;
  wb::metric("n", static_cast<double>(n), "count");
  wb::metric("flops", flops, "FLOP");
  wb::metric("bytes_moved", moved, "bytes");
  wb::metric("intensity", flops / moved, "FLOP/byte");

  // Fresh inputs in [-1, 1], the reference, device copies; c poisoned (NaN).
  std::vector<float> a(n), b(n), ref(n), got(n);
  wb::fill_uniform(a.data(), n, -1.0f, 1.0f, 0);
  wb::fill_uniform(b.data(), n, -1.0f, 1.0f, 1);
  vecadd_cpu(a.data(), b.data(), ref.data(), n);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  WB_CHECK(cudaMalloc(&d_a, bytes));
  WB_CHECK(cudaMalloc(&d_b, bytes));
  WB_CHECK(cudaMalloc(&d_c, bytes));
  WB_CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));
  wb::poison(d_c, bytes);

  launch_vecadd(d_a, d_b, d_c, n, block);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(got.data(), d_c, bytes, cudaMemcpyDeviceToHost));
  // A float addition rounds the same way on both sides: the result must match exactly.
  const bool ok = wb::compare("vecadd_ok", got.data(), ref.data(), n, 0.0, 0.0);

  if (ok) {
    // At 2^24 the three arrays (201 MB) are several times any L2, so every byte comes
    // from DRAM without help. Flushing the L2 would then cost accuracy: the flush leaves
    // the L2 full of dirty lines, and writing those back (up to the L2's size) would land
    // inside the timed kernel. So flush only when the arrays could sit in the L2.
    int dev = 0, l2_bytes = 0;
    WB_CHECK(cudaGetDevice(&dev));
    WB_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, dev));
    wb::TimingOptions opt;
    opt.flush_l2 = moved < 2.0 * l2_bytes;
    const wb::Stats st = wb::time_kernel([&] { launch_vecadd(d_a, d_b, d_c, n, block); }, opt);
    wb::Stats us = st;
    us.median *= 1e3;
    us.min *= 1e3;
    us.max *= 1e3;
    wb::metric("kernel_us", us, "us");
    wb::metric("achieved_gbps", moved / (st.median * 1e-3) / 1e9, "GB/s");
    wb::metric("achieved_gflops", flops / (st.median * 1e-3) / 1e9, "GFLOP/s");
  } else {
    std::printf("the kernel failed its check: not timed\n");
  }

  WB_CHECK(cudaFree(d_a));
  WB_CHECK(cudaFree(d_b));
  WB_CHECK(cudaFree(d_c));
  return wb::finish();
}
