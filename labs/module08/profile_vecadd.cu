/*
Module 8 lab: where does a vector add spend its time? STARTER: vec_add, alloc_pinned
and free_pinned in the section YOUR CODE are yours to complete (see the TODOs).

c = a + b on N = 2^24 floats (64 MiB per array), in three phases, each timed on its
own with CUDA events:

  H2D     copy a and b to the GPU       2 x 4N bytes over PCIe
  kernel  c[i] = a[i] + b[i]            3 x 4N bytes through DRAM (read a, b; write c)
  D2H     copy c back                   4N bytes over PCIe

once from ordinary (pageable) host memory and once from page-locked (pinned) host
memory. From the medians it reports the effective PCIe bandwidth of each copy, the
share of the total that is copying, and the kernel's DRAM bandwidth; the runner turns
that into a percentage of your GPU's DRAM bandwidth.

You write the kernel (vec_add) and the pinned allocation (alloc_pinned / free_pinned)
in the section YOUR CODE. Checks: the result of each path equals a + b exactly (IEEE-754
rounds a single float addition identically on the two processors, Module 7.3), and the pinned
path's buffers really are page-locked.

Method: fresh random inputs in [-1, 1] from the seed; the device output is poisoned
(NaN) before the checked run and the host output filled with NaN before it is copied
back; one untimed round first (warm-up, module load, first touch of every page); then
REPS timed rounds, median per phase. The kernel is timed separately with
wb::time_kernel (warm-up, L2 flushed before each sample, median). The phases are also
marked with NVTX ranges, so nsys shows them by name.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module08/profile_vecadd.cu -o profile_vecadd -ldl && ./profile_vecadd
Profile it (Module 8.2, 8.3):
  nsys profile --trace=cuda,nvtx --stats=true ./profile_vecadd
  ncu --section SpeedOfLight -k vec_add ./profile_vecadd REPS=1

Parameters (NAME=VALUE): N (elements, default 16777216 = 2^24, 1048576 with quick=1),
REPS (timed rounds per memory kind, 10; 3 with quick=1), seed, quick=1.
*/

#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "workbook.cuh"

constexpr int kThreadsPerBlock = 256;

// ============================================================================
// YOUR CODE
// ============================================================================

// c[i] = a[i] + b[i] for i < n, one element per thread.
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  // TODO (Module 6): compute this thread's global index, return when it is >= n (the
  // launch below rounds the block count up), and store a[i] + b[i] into c[i]. Until
  // then c keeps its poison (NaN), both vecadd_* checks fail and the kernel is not
  // timed.
}

void launch_vec_add(const float* a, const float* b, float* c, int n) {
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  vec_add<<<blocks, kThreadsPerBlock>>>(a, b, c, n);
}

// Page-locked host memory: the GPU's copy engine can read and write it directly (DMA),
// so a copy needs no staging through a driver buffer.
float* alloc_pinned(size_t bytes) {
  // TODO (Module 8): this is ordinary pageable memory, so the "pinned" timings are
  // really pageable ones and the pinned_buffers check fails. Allocate page-locked
  // memory with cudaMallocHost (check its result with WB_CHECK) ...
  return static_cast<float*>(std::malloc(bytes));
}

// ... and release it with the matching cudaFreeHost.
void free_pinned(float* p) { std::free(p); }

// ============================================================================
// Harness
// ============================================================================

struct Device {
  float *a = nullptr, *b = nullptr, *c = nullptr;
};

struct PhaseStats {
  wb::Stats h2d, d2h;
};

// One memory kind: check the result once, then time REPS rounds of the two copies.
// Returns whether the result was right.
bool run_kind(const char* kind, float* ha, float* hb, float* hc, const Device& d, int n, int reps, unsigned stream,
              PhaseStats& out) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  wb::fill_uniform(ha, n, -1.0f, 1.0f, stream);
  wb::fill_uniform(hb, n, -1.0f, 1.0f, stream + 1);
  std::vector<float> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = ha[i] + hb[i];

  // Untimed, checked round (also the warm-up: first touch of every page, module load).
  wb::poison(d.c, bytes);
  std::memset(hc, 0xFF, bytes);  // NaN on the host too, until the copy back lands
  WB_CHECK(cudaMemcpy(d.a, ha, bytes, cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(d.b, hb, bytes, cudaMemcpyHostToDevice));
  launch_vec_add(d.a, d.b, d.c, n);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(hc, d.c, bytes, cudaMemcpyDeviceToHost));
  const std::string name = std::string("vecadd_") + kind;
  const bool ok = wb::compare(name.c_str(), hc, ref.data(), n, 0.0, 0.0);

  // Timed rounds: events around each copy phase, on the default stream. The kernel
  // runs between them (so the rounds are the whole program) but is timed on its own.
  cudaEvent_t ev[4];
  for (cudaEvent_t& e : ev) WB_CHECK(cudaEventCreate(&e));
  std::vector<double> h2d, d2h;
  for (int r = 0; r < reps; ++r) {
    nvtxRangePushA("H2D copy");
    WB_CHECK(cudaEventRecord(ev[0]));
    WB_CHECK(cudaMemcpy(d.a, ha, bytes, cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(d.b, hb, bytes, cudaMemcpyHostToDevice));
    WB_CHECK(cudaEventRecord(ev[1]));
    nvtxRangePop();
    nvtxRangePushA("kernel");
    launch_vec_add(d.a, d.b, d.c, n);
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaDeviceSynchronize());  // a range around the launch alone would time only the launch
    nvtxRangePop();
    nvtxRangePushA("D2H copy");
    WB_CHECK(cudaEventRecord(ev[2]));
    WB_CHECK(cudaMemcpy(hc, d.c, bytes, cudaMemcpyDeviceToHost));
    WB_CHECK(cudaEventRecord(ev[3]));
    WB_CHECK(cudaEventSynchronize(ev[3]));
    nvtxRangePop();
    float ms = 0.0f;
    WB_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    h2d.push_back(ms);
    WB_CHECK(cudaEventElapsedTime(&ms, ev[2], ev[3]));
    d2h.push_back(ms);
  }
  for (cudaEvent_t& e : ev) WB_CHECK(cudaEventDestroy(e));
  out.h2d = wb::stats_of(h2d);
  out.d2h = wb::stats_of(d2h);
  return ok;
}

double gbps(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

// Reports one memory kind's copy phases; returns (H2D + D2H) median in ms.
double report_copies(const char* kind, const PhaseStats& st, double n) {
  const std::string k(kind);
  wb::metric(("h2d_" + k + "_ms").c_str(), st.h2d, "ms");
  wb::metric(("d2h_" + k + "_ms").c_str(), st.d2h, "ms");
  wb::metric(("h2d_" + k + "_bw").c_str(), gbps(8.0 * n, st.h2d.median), "GB/s");
  wb::metric(("d2h_" + k + "_bw").c_str(), gbps(4.0 * n, st.d2h.median), "GB/s");
  return st.h2d.median + st.d2h.median;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module08/profile_vecadd");
  const long long n_param = wb::param("N", 1ll << 24, 1ll << 20);
  const long long reps_param = wb::param("REPS", 10, 3);
  wb::params_done();
  if (n_param < 1 || n_param > (1ll << 28)) wb::bad_argument("N must be between 1 and 268435456");
  if (reps_param < 1 || reps_param > 1000) wb::bad_argument("REPS must be between 1 and 1000");
  const int n = static_cast<int>(n_param), reps = static_cast<int>(reps_param);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  wb::metric("n", n, "count");

  Device d;
  WB_CHECK(cudaMalloc(&d.a, bytes));
  WB_CHECK(cudaMalloc(&d.b, bytes));
  WB_CHECK(cudaMalloc(&d.c, bytes));

  // Pageable: ordinary heap memory. The driver copies it through a pinned staging
  // buffer of its own, chunk by chunk.
  PhaseStats pageable, pinned;
  bool pageable_ok = false, pinned_ok = false;
  {
    std::vector<float> a(n), b(n), c(n);
    pageable_ok = run_kind("pageable", a.data(), b.data(), c.data(), d, n, reps, 10, pageable);
  }

  // Pinned: your alloc_pinned.
  {
    float* a = alloc_pinned(bytes);
    float* b = alloc_pinned(bytes);
    float* c = alloc_pinned(bytes);
    int locked = 0;
    for (float* p : {a, b, c}) {
      cudaPointerAttributes attr;
      if (p != nullptr && cudaPointerGetAttributes(&attr, p) == cudaSuccess && attr.type == cudaMemoryTypeHost) ++locked;
      cudaGetLastError();  // an unregistered pointer may leave an error behind on old runtimes
    }
    wb::check("pinned_buffers", locked == 3, locked, 3,
              locked == 3 ? "a, b and c are page-locked host memory"
                          : "not page-locked: allocate them with cudaMallocHost (and free with cudaFreeHost)");
    if (a && b && c) pinned_ok = run_kind("pinned", a, b, c, d, n, reps, 20, pinned);
    free_pinned(a);
    free_pinned(b);
    free_pinned(c);
  }

  const double copies_pageable = report_copies("pageable", pageable, n);
  const double copies_pinned = report_copies("pinned", pinned, n);

  // The kernel, on its own. 12 bytes per element must cross DRAM at least once; at
  // 2^24 elements (201 MB) that is several times any L2, and the flush makes sure.
  if (pageable_ok && pinned_ok) {
    const wb::Stats k = wb::time_kernel([&] { launch_vec_add(d.a, d.b, d.c, n); });
    wb::metric("kernel_ms", k, "ms");
    wb::metric("kernel_bw", gbps(12.0 * n, k.median), "GB/s");
    const double share_pageable = 100.0 * copies_pageable / (copies_pageable + k.median);
    const double share_pinned = 100.0 * copies_pinned / (copies_pinned + k.median);
    wb::metric("copy_share_pageable_pct", share_pageable, "%");
    wb::metric("copy_share_pinned_pct", share_pinned, "%");
    std::printf("pageable: H2D %.3f ms + kernel %.3f ms + D2H %.3f ms -> copies are %.1f %% of the total\n",
                pageable.h2d.median, k.median, pageable.d2h.median, share_pageable);
    std::printf("pinned:   H2D %.3f ms + kernel %.3f ms + D2H %.3f ms -> copies are %.1f %% of the total\n",
                pinned.h2d.median, k.median, pinned.d2h.median, share_pinned);
  } else {
    std::printf("vec_add gave a wrong result: the kernel is not timed (the time of a wrong answer means nothing)\n");
  }

  WB_CHECK(cudaFree(d.a));
  WB_CHECK(cudaFree(d.b));
  WB_CHECK(cudaFree(d.c));
  return wb::finish();
}
