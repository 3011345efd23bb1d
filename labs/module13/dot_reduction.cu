/*
Module 13 lab: races, barriers and a tree reduction in a dot product. STARTER:
the atomic branch of dot_serial and the body of dot_tree are yours to write (see their
TODOs); everything else is complete.

The dot product sum_i a[i]*b[i] of two float vectors, in the style of the lecture's
kernel.cu: blocks of TPB = 64 threads put their products in shared memory, reduce them
to one block sum, and add that to a single global result. Three kernels:

  dot_serial  thread 0 adds the 64 products one by one (as in kernel.cu, early return
              and all); its `atomic` argument picks how the block sum reaches the
              result: atomicAdd (atomic = 1) or a plain `*res += sum` (atomic = 0), a
              read-add-write that two blocks can interleave (a race: lost updates)
  dot_tree    the fixed version: out-of-range threads store 0 instead of returning, the
              block sum is a tree reduction in log2(TPB) steps with the barrier outside
              the `if`, and one atomicAdd per block

Each configuration runs RUNS times on the same inputs (fresh random floats in [0, 1],
so every block sum is positive and a lost one always shows). A run counts as wrong when
it misses the CPU reference (products and sums in double) by more than a relative 1e-5.
Block sums are float; the global result is a double, so rounding stays far below 1e-5
and a single lost block (1/16 of the sum at N = 1024, 1/16384 at 2^20) always shows.
The result sits between canary bands (wb::alloc_output), so a kernel that writes next
to it rather than into it fails res_bounds.

  racy (atomic = 0)        at N = 1024 and N = 2^20: how often wrong? (a metric)
  atomic (atomic = 1)      at N = 1024 and N = 2^20: must be right every run (checks)
  serial at N = 1000       the barrier bug: the last block has 40 valid threads, the
                           other 24 return before __syncthreads() and thread 0 sums 24
                           slots nobody wrote (a metric: how often wrong?)
  tree at N = 1000, 2^20   must be right every run (checks)

Before every run of the N = 1000 serial kernel and of the tree, the lab fills the shared
memory of every SM with NaN, so that a slot read before anyone wrote it holds visible
garbage rather than whatever an earlier kernel left there (often plausible numbers).
Before every tree run it also makes a missing barrier show: it evicts the L2 and then
reads the inputs of the first warp of every block back into it, so the first warp's
loads return long before the second warp's. A tree that reads the second warp's slots
without waiting at a barrier then reads NaN, on every run, instead of only when the
timing happens to go wrong.

Last, at the large N, the lab times the lecture's kernel (with atomicAdd) and the tree:
both read the same bytes and issue one atomic per block, so the tree must not be the
slower of the two.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module13/dot_reduction.cu -o dot_reduction && ./dot_reduction

Parameters (NAME=VALUE): RUNS (repetitions of each configuration, default 100, 20 with
quick=1), N (the large size, default 1048576 = 2^20, 65536 with quick=1), seed (random
inputs), quick=1 (small sizes, for a smoke run).
*/

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// Threads per block, as in kernel.cu. A power of 2 (the tree reduction halves it).
constexpr int TPB = 64;

// A run is right when |got - ref| <= kRelTol * ref (every product is positive).
constexpr double kRelTol = 1e-5;

// ----------------------------------------------------------------------------
// CPU reference

double dot_cpu(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

// ----------------------------------------------------------------------------
// GPU kernels

// The lecture's kernel, faithfully including its early return. Correct only when n is
// a multiple of TPB; `atomic` selects atomicAdd or the racy read-add-write.
__global__ void dot_serial(double* res, const float* a, const float* b, int n, int atomic) {
  __shared__ float prod[TPB];
  const int t = threadIdx.x;
  const int gid = blockIdx.x * TPB + t;
  if (gid >= n) return;  // BUG for n % TPB != 0: these threads skip the barrier below
  prod[t] = a[gid] * b[gid];
  __syncthreads();
  if (t == 0) {
    float block_sum = prod[0];
    for (int k = 1; k < TPB; ++k) block_sum += prod[k];  // serial: TPB - 1 dependent adds
    if (atomic) {
      // TODO (Module 13.5): add block_sum to *res so that no block's sum is lost when
      // several blocks add at the same moment, which the racy branch below allows
      // (atomic_n1024, atomic_big). Until you do, the atomic runs leave the result at 0.
      // Pitfall: *res is a double, block_sum a float.
    } else {
      *res += block_sum;  // read, add, write: another block can slip in between
    }
  }
}

// The fixed kernel: every thread reaches every barrier, threads past n contribute 0,
// and the block sum is a tree reduction.
__global__ void dot_tree(double* res, const float* a, const float* b, int n) {
  // TODO (Module 13.6): the fixed dot product. Until you write it, the result stays 0
  // and the tree_* checks fail.
  //
  // Contract: *res (zeroed by the host) gains the dot product of a and b over n
  // elements; blocks of TPB threads, n not a multiple of TPB (tree_n1000, tree_big).
  // Each block sums its TPB products in shared memory as a tree (Module 13.6: log2(TPB)
  // steps, not TPB - 1 serial adds), and the block's total joins *res safely against
  // the other blocks. Only res[0] may be written (res_bounds); no read or write outside
  // a, b or the shared array (memcheck_quick).
  // Pitfalls, the three this module is about: a thread that leaves early misses the
  // barriers the others wait at (dot_serial's bug); a slot read before its owner has
  // written it (the lab makes that show on every run: before each tree run the first
  // warp of every block gets its inputs from the L2, the second from DRAM); and a
  // barrier that only some threads of the block reach.
  (void)res, (void)a, (void)b, (void)n;
}

// Reads the inputs of the first warp of every block (elements 64b ... 64b + 31, one
// 128-byte line of a and one of b) so that they sit in the L2 when the tree runs, while
// the second warp's inputs come from DRAM. Makes a missing barrier after the products
// show on every run: the first warp gets to the tree long before the second warp has
// stored its products.
__global__ void warm_first_warps(const float* a, const float* b, int n, float* sink) {
  const int gid = blockIdx.x * TPB + threadIdx.x;  // launched with TPB / 2 threads a block
  if (gid >= n) return;
  const float v = a[gid] + b[gid];
  if (v == -1.0f) *sink = v;  // never true (inputs are in [0, 1]): keeps the loads
}

// Fills all the shared memory a block can get with NaN (0xFF bytes). Launched with one
// large block per SM right before the buggy kernel, it leaves NaN in the slots that
// kernel never writes, so reading them cannot look plausible.
__global__ void scribble_shared(int words) {
  extern __shared__ unsigned int scratch[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) scratch[i] = 0xFFFFFFFFu;
  __syncthreads();
  // Make the stores observable so the compiler keeps them.
  if (threadIdx.x == 0 && scratch[words - 1] == 0u) scratch[0] = 1u;
}

// ----------------------------------------------------------------------------
// Launchers

int ceil_div(int a, int b) { return (a + b - 1) / b; }

struct Vectors {
  int n;
  double ref;
  float *da = nullptr, *db = nullptr;
};

Vectors make_vectors(int n, unsigned stream) {
  Vectors v{n, 0.0};
  std::vector<float> a(n), b(n);
  wb::fill_uniform(a.data(), a.size(), 0.0f, 1.0f, stream);
  wb::fill_uniform(b.data(), b.size(), 0.0f, 1.0f, stream + 1);
  v.ref = dot_cpu(a, b);
  WB_CHECK(cudaMalloc(&v.da, n * sizeof(float)));
  WB_CHECK(cudaMalloc(&v.db, n * sizeof(float)));
  WB_CHECK(cudaMemcpy(v.da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(v.db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return v;
}

void free_vectors(Vectors& v) {
  WB_CHECK(cudaFree(v.da));
  WB_CHECK(cudaFree(v.db));
  v.da = v.db = nullptr;
}

enum class Kind { serial_racy, serial_atomic, tree };

// Outcome of RUNS repetitions of one configuration.
struct Tally {
  int wrong = 0;
  double worst_rel = 0.0;              // largest |got - ref| / ref seen (NaN counts as inf)
  std::vector<double> result_pct;      // got / ref * 100, each run
};

// Shared-memory scribbler state: one block per SM, as much dynamic shared memory as a
// block may opt in to.
struct Scribbler {
  int blocks = 0, bytes = 0;
  void setup() {
    int dev = 0;
    WB_CHECK(cudaGetDevice(&dev));
    WB_CHECK(cudaDeviceGetAttribute(&blocks, cudaDevAttrMultiProcessorCount, dev));
    WB_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    WB_CHECK(cudaFuncSetAttribute(scribble_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  void run() const {
    scribble_shared<<<blocks, 1024, bytes>>>(bytes / 4);
    WB_CHECK(cudaGetLastError());
  }
};

// Before a tree run: evict the L2, bring the first warp's inputs of every block back
// into it, then write NaN over shared memory (see warm_first_warps and Scribbler).
struct RaceExposer {
  float* sink = nullptr;
  const Scribbler* scribble = nullptr;
  void run(const Vectors& v) const {
    wb::flush_l2();
    warm_first_warps<<<ceil_div(v.n, TPB), TPB / 2>>>(v.da, v.db, v.n, sink);
    WB_CHECK(cudaGetLastError());
    scribble->run();
  }
};

Tally repeat(Kind kind, const Vectors& v, double* d_res, int runs, const Scribbler* scribble,
             const RaceExposer* expose = nullptr) {
  Tally t;
  const int blocks = ceil_div(v.n, TPB);
  for (int r = 0; r < runs; ++r) {
    if (expose) expose->run(v);
    else if (scribble) scribble->run();
    WB_CHECK(cudaMemsetAsync(d_res, 0, sizeof(double)));
    switch (kind) {
      case Kind::serial_racy: dot_serial<<<blocks, TPB>>>(d_res, v.da, v.db, v.n, 0); break;
      case Kind::serial_atomic: dot_serial<<<blocks, TPB>>>(d_res, v.da, v.db, v.n, 1); break;
      case Kind::tree: dot_tree<<<blocks, TPB>>>(d_res, v.da, v.db, v.n); break;
    }
    WB_CHECK_LAUNCH();
    double got = 0.0;
    WB_CHECK(cudaMemcpy(&got, d_res, sizeof(double), cudaMemcpyDeviceToHost));
    const double rel = std::isfinite(got) ? std::fabs(got - v.ref) / v.ref : INFINITY;
    if (!(rel <= kRelTol)) ++t.wrong;
    if (!(rel <= t.worst_rel)) t.worst_rel = rel;
    t.result_pct.push_back(got / v.ref * 100.0);
  }
  return t;
}

// A check that every one of the runs was right. Returns pass.
bool check_all_right(const char* name, const Tally& t, int runs) {
  char text[160];
  std::snprintf(text, sizeof text, "%d of %d runs outside rel. err %.0e; worst rel. err %.3g", t.wrong, runs, kRelTol,
                t.worst_rel);
  return wb::check(name, t.wrong == 0, t.wrong, 0, text);
}

void report_wrong(const char* name, const Tally& t, int runs, const char* what) {
  wb::metric(name, t.wrong, "count");
  std::printf("  %s: wrong in %d of %d runs (%.0f%%); median result %.4g%% of the true sum\n", what, t.wrong, runs,
              100.0 * t.wrong / runs, wb::stats_of(t.result_pct).median);
}

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module13/dot_reduction");
  const long long runs_param = wb::param("RUNS", 100, 20);
  const long long n_param = wb::param("N", 1 << 20, 1 << 16);
  wb::params_done();
  if (runs_param < 1 || runs_param > 10000) wb::bad_argument("RUNS must be between 1 and 10000");
  // Upper limit: at 2^21 one lost block sum is still 1/32768 = 3e-5 of the total, three
  // times the tolerance, so the racy count cannot miss a lost update.
  if (n_param < TPB || n_param > (1 << 21) || n_param % TPB != 0)
    wb::bad_argument("N must be a multiple of 64 between 64 and 2^21 (the racy test needs full blocks)");
  const int runs = static_cast<int>(runs_param);
  const int n_big = static_cast<int>(n_param);

  // The single result, between canary bands: only res[0] may ever be written.
  double* d_res = wb::alloc_output<double>(1);
  Scribbler scribbler;
  scribbler.setup();
  RaceExposer exposer;
  WB_CHECK(cudaMalloc(&exposer.sink, sizeof(float)));
  exposer.scribble = &scribbler;

  Vectors v1024 = make_vectors(1024, 0);
  Vectors v1000 = make_vectors(1000, 2);
  Vectors vbig = make_vectors(n_big, 4);
  std::printf("TPB = %d; blocks: %d at N = 1024, %d at N = 1000, %d at N = %d; %d runs each\n", TPB,
              ceil_div(1024, TPB), ceil_div(1000, TPB), ceil_div(n_big, TPB), n_big, runs);

  // 1. The race: the same kernel with and without atomicAdd.
  const Tally racy_1024 = repeat(Kind::serial_racy, v1024, d_res, runs, nullptr);
  report_wrong("racy_n1024_wrong", racy_1024, runs, "atomic = 0, N = 1024");
  const Tally racy_big = repeat(Kind::serial_racy, vbig, d_res, runs, nullptr);
  report_wrong("racy_big_wrong", racy_big, runs, "atomic = 0, N = big");
  wb::metric("racy_big_result_pct", wb::stats_of(racy_big.result_pct).median, "%");

  const Tally atomic_1024 = repeat(Kind::serial_atomic, v1024, d_res, runs, nullptr);
  const bool atomic_ok_1024 = check_all_right("atomic_n1024", atomic_1024, runs);
  const Tally atomic_big = repeat(Kind::serial_atomic, vbig, d_res, runs, nullptr);
  const bool atomic_ok_big = check_all_right("atomic_big", atomic_big, runs);

  // 2. The barrier bug: the serial kernel (with atomicAdd) at N = 1000.
  const Tally serial_1000 = repeat(Kind::serial_atomic, v1000, d_res, runs, &scribbler);
  report_wrong("serial_n1000_wrong", serial_1000, runs, "serial kernel with early return, N = 1000");

  // 3. The fix: tree reduction, no early return; every run with the race exposed.
  const Tally tree_1000 = repeat(Kind::tree, v1000, d_res, runs, &scribbler, &exposer);
  const bool tree_ok_1000 = check_all_right("tree_n1000", tree_1000, runs);
  const Tally tree_big = repeat(Kind::tree, vbig, d_res, runs, &scribbler, &exposer);
  const bool tree_ok_big = check_all_right("tree_big", tree_big, runs);
  const bool bounds_ok = wb::check_bounds("res_bounds", d_res);
  wb::metric("runs", runs, "count");

  // 4. Time at the large N: the lecture's kernel (atomicAdd) against the tree. Each
  // sample is one launch after an L2 flush (the inputs, 8 MB at 2^20, would otherwise
  // sit in the L2). The result keeps accumulating across samples: only the time counts.
  if (atomic_ok_1024 && atomic_ok_big && tree_ok_1000 && tree_ok_big && bounds_ok) {
    const int blocks = ceil_div(n_big, TPB);
    const wb::Stats serial_st =
        wb::time_kernel([&] { dot_serial<<<blocks, TPB>>>(d_res, vbig.da, vbig.db, vbig.n, 1); });
    const wb::Stats tree_st = wb::time_kernel([&] { dot_tree<<<blocks, TPB>>>(d_res, vbig.da, vbig.db, vbig.n); });
    wb::Stats serial_us = serial_st, tree_us = tree_st;
    for (wb::Stats* st : {&serial_us, &tree_us}) {
      st->median *= 1e3;
      st->min *= 1e3;
      st->max *= 1e3;
    }
    wb::metric("serial_us", serial_us, "us");
    wb::metric("tree_us", tree_us, "us");
    std::printf("N = %d: lecture kernel %.2f us, tree %.2f us (%.2fx)\n", n_big, serial_us.median, tree_us.median,
                tree_us.median / serial_us.median);
  } else {
    std::printf("a check failed: nothing is timed\n");
  }

  free_vectors(v1024);
  free_vectors(v1000);
  free_vectors(vbig);
  WB_CHECK(cudaFree(exposer.sink));
  wb::free_output(d_res);
  return wb::finish();
}
