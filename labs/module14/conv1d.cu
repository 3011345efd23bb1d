/*
Module 14 lab: 1D convolution, direct and tiled, with the mask in constant memory. STARTER:
conv_basic and conv_tiled below are yours to write (see their TODOs); the rest is complete.

P[i] = sum over j = 0 .. MW-1 of M[j] * N[i - r + j], with r = (MW - 1) / 2 and N[k]
taken as 0 outside [0, n). Two kernels compute it:

  conv_basic  one thread per output; each thread fetches its MW inputs from global memory
  conv_tiled  a block of TILE threads stages TILE inputs and r halo cells either side
              (TILE + 2r floats, dynamic shared memory), waits at a barrier, then each
              thread computes its output from shared memory only

The mask lives in __constant__ memory: every lane of a warp wants one and the same
coefficient at once, which is the access the constant cache broadcasts in one go.

What the lab does, in order:
  1. checks both kernels against a double-precision CPU reference on fresh random inputs
     in [-1, 1]: at an odd small size (70,001 elements, a partial last block, in an
     output between two canary bands, so a store past its end is caught) and at N;
  2. counts the global reads of N with a device counter (an instrumented build of the
     same kernels, templated on kCount) and compares them with the formulas
        basic: N * MW               tiled: ceil(N / TILE) * (TILE + 2r)
     CONVENTION: those counts are SLOTS, i.e. every input position a thread visits,
     including the out-of-range cells at the two ends of the array, which are never
     loaded (they are 0). The loads actually issued (in-range cells only) are reported
     separately as *_reads_inside. Mask reads are not counted at all: they hit the
     constant cache, not the input array;
  3. times both kernels at N with CUDA events (median of batches of back-to-back
     launches: at the default N the 256 MB of data are four times an H200's L2, so
     every launch streams from DRAM without a flush);
  4. sweeps the tile size 32, 64, ..., 1024 for the tiled kernel (each checked) and
     reports the fastest.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module14/conv1d.cu -o conv1d && ./conv1d

Parameters (NAME=VALUE): N (elements, default 2^25, 2^16 with quick=1), MW (odd mask
width, default 5), TILE (tile = block size of the counted and timed tiled run, a multiple
of 32 up to 1024, default 256), seed, quick=1.
*/

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int kMaxMaskWidth = 63;  // room in constant memory for masks up to r = 31

// The mask, in constant memory. Written once by upload_mask().
__constant__ float c_mask[kMaxMaskWidth];

// ----------------------------------------------------------------------------
// CPU reference

// Direct convolution in double: out-of-range inputs are skipped (they count as 0).
void conv_cpu(const float* in, const float* mask, double* out, int n, int mw) {
  const int r = (mw - 1) / 2;
  for (int i = 0; i < n; ++i) {
    double acc = 0.0;
    for (int j = 0; j < mw; ++j) {
      const int k = i - r + j;
      if (k >= 0 && k < n) acc += static_cast<double>(mask[j]) * in[k];
    }
    out[i] = acc;
  }
}

// ----------------------------------------------------------------------------
// Read counting (used by both kernels)

// Global tally of one instrumented launch.
struct ReadTally {
  unsigned long long inside;   // loads of N actually issued
  unsigned long long outside;  // slots outside [0, n): visited but not loaded (value 0)
};

// Every read of N goes through fetch(). With kCount = false it is a plain guarded load
// and the counting code is compiled away; with kCount = true each thread keeps its own
// two counts in registers and publish() adds them to the global tally.
template <bool kCount>
struct InputReader {
  unsigned inside = 0, outside = 0;

  __device__ __forceinline__ float fetch(const float* N, int k, int n) {
    if (k >= 0 && k < n) {
      if constexpr (kCount) ++inside;
      return N[k];
    }
    if constexpr (kCount) ++outside;
    return 0.0f;
  }

  // Must be reached by all 32 lanes of every warp (no early return before it): the warp
  // sums its counts with shuffles and lane 0 does the atomics, 32x fewer of them.
  __device__ __forceinline__ void publish(ReadTally* tally) {
    if constexpr (kCount) {
      unsigned in = inside, out = outside;
      for (int off = 16; off > 0; off /= 2) {
        in += __shfl_down_sync(0xffffffffu, in, off);
        out += __shfl_down_sync(0xffffffffu, out, off);
      }
      if ((threadIdx.x & 31) == 0) {
        atomicAdd(&tally->inside, static_cast<unsigned long long>(in));
        atomicAdd(&tally->outside, static_cast<unsigned long long>(out));
      }
    }
  }
};

// ----------------------------------------------------------------------------
// GPU kernels

// One thread per output; MW global reads each. r = (mask width - 1) / 2.
template <bool kCount>
__global__ void conv_basic(const float* N, float* P, int n, int r, ReadTally* tally) {
  // TODO (Module 14.1): the direct kernel. Until you write it, P stays poisoned (NaN)
  // and every basic_* check fails.
  //
  // Contract: each thread owns one of the n outputs; P[i] is the convolution of N with
  // the 2r + 1 weights of c_mask (constant memory, already uploaded) centred on input i,
  // inputs outside [0, n) counting as 0. Every input is read through an
  // InputReader<kCount> (its fetch gives 0 outside the array and, in the counting
  // build, tallies the read), whose counts every thread hands to tally at the end.
  // Checks: an odd n against the CPU with P between canary bands (basic_small,
  // basic_small_bounds), the default n (basic_n), the reads counted against the
  // reading's model (basic_count), and no access outside an allocation
  // (memcheck_quick). Pitfall: publishing the counts is a warp-wide operation, so a
  // thread with no output must still get there.
}

// A block of blockDim.x = TILE threads computes TILE consecutive outputs. Shared layout:
//   tile[0 .. r)             left halo   = N[start - r .. start)
//   tile[r .. r + TILE)      own inputs  = N[start .. start + TILE)
//   tile[r + TILE .. + r)    right halo  = N[start + TILE .. start + TILE + r)
// Requires TILE >= r (the first r threads load the halos).
template <bool kCount>
__global__ void conv_tiled(const float* N, float* P, int n, int r, ReadTally* tally) {
  // TODO (Module 14.2): the tiled kernel. Until you write it, P stays poisoned (NaN)
  // and every tiled_* check fails.
  //
  // Contract: the same outputs as conv_basic, but each input of the block's stretch,
  // halos included, is read from global memory once (through the reader, as in
  // conv_basic) into the shared layout above, and every output is computed from shared
  // memory. The launcher sizes the shared tile at run time (blockDim.x + 2r floats).
  // Checks: as conv_basic (tiled_small, tiled_small_bounds, tiled_n, memcheck_quick),
  // plus the reads counted against the halo model (tiled_count) and over several tile
  // widths (tiled_sweep). Pitfalls: the tile's size is not known at compile time;
  // no thread may read the tile before all of it is in place; the two ends of the
  // signal; and, as in conv_basic, threads without an output still take part in the
  // staging, the barrier and the counts.
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only; the caller checks and synchronizes)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

constexpr int kBasicBlock = 256;

template <bool kCount>
void launch_basic(const float* N, float* P, int n, int r, ReadTally* tally = nullptr) {
  conv_basic<kCount><<<ceil_div(n, kBasicBlock), kBasicBlock>>>(N, P, n, r, tally);
}

template <bool kCount>
void launch_tiled(const float* N, float* P, int n, int r, int tile, ReadTally* tally = nullptr) {
  const size_t shared_bytes = static_cast<size_t>(tile + 2 * r) * sizeof(float);
  conv_tiled<kCount><<<ceil_div(n, tile), tile, shared_bytes>>>(N, P, n, r, tally);
}

void upload_mask(const std::vector<float>& mask) {
  WB_CHECK(cudaMemcpyToSymbol(c_mask, mask.data(), mask.size() * sizeof(float)));
}

// ----------------------------------------------------------------------------
// main

// Loads of N the tiled kernel really issues (in-range cells only), straight from the
// launch configuration: block b covers positions [b*tile - r, b*tile + tile + r).
unsigned long long tiled_inside_exact(long long n, long long tile, long long r) {
  unsigned long long total = 0;
  for (long long start = 0; start < n; start += tile) {
    const long long lo = std::max(0LL, start - r), hi = std::min(n, start + tile + r);
    total += static_cast<unsigned long long>(hi - lo);
  }
  return total;
}

// Poisons P and re-arms its canary bands, runs one launch, compares P with the
// reference. With a bounds_name, also records whether the launch wrote outside P.
template <class Launch>
bool run_and_check(const char* name, Launch launch, float* dP, const std::vector<double>& ref, int mw,
                   const char* bounds_name = nullptr) {
  const size_t n = ref.size();
  wb::poison_output(dP);
  launch();
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, dP);
  std::vector<float> got(n);
  WB_CHECK(cudaMemcpy(got.data(), dP, n * sizeof(float), cudaMemcpyDeviceToHost));
  // Each output is a float sum of MW products of values in [-1, 1]; float32 rounding
  // leaves it within a few MW * FLT_EPSILON of the double reference. A bug (wrong
  // offset, missing halo, missing barrier) is off by O(0.1).
  return wb::compare(name, got.data(), ref.data(), n, 1e-5, 4.0 * mw * FLT_EPSILON);
}

// One instrumented launch; returns the tally.
template <class Launch>
ReadTally count_reads(Launch launch, ReadTally* d_tally) {
  WB_CHECK(cudaMemset(d_tally, 0, sizeof(ReadTally)));
  launch(d_tally);
  WB_CHECK_LAUNCH();
  ReadTally h{};
  WB_CHECK(cudaMemcpy(&h, d_tally, sizeof(ReadTally), cudaMemcpyDeviceToHost));
  return h;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module14/conv1d");
  const long long n_param = wb::param("N", 1LL << 25, 1LL << 16);
  const long long mw_param = wb::param("MW", 5);
  const long long tile_param = wb::param("TILE", 256);
  wb::params_done();
  if (mw_param < 1 || mw_param > kMaxMaskWidth || mw_param % 2 == 0)
    wb::bad_argument("MW must be odd, between 1 and " + std::to_string(kMaxMaskWidth));
  if (tile_param < 32 || tile_param > 1024 || tile_param % 32 != 0)
    wb::bad_argument("TILE must be a multiple of 32 between 32 and 1024");
  if (n_param < mw_param || n_param > (1LL << 28)) wb::bad_argument("N must be between MW and 2^28");
  const int n = static_cast<int>(n_param), mw = static_cast<int>(mw_param), tile = static_cast<int>(tile_param);
  const int r = (mw - 1) / 2;

  // Inputs: a random mask and a random input array (streams 0 and 1 of the seed).
  std::vector<float> mask(mw), in(n);
  wb::fill_uniform(mask.data(), mask.size(), -1.0f, 1.0f, 0);
  wb::fill_uniform(in.data(), in.size(), -1.0f, 1.0f, 1);
  upload_mask(mask);

  // 1. Correctness at a small odd size (a partial last block), then at N. The small
  //    problem is the first n_small elements of the same input, written to its own
  //    output between canary bands: n_small is never a multiple of 32 (70,001, or
  //    N - 1 when N is smaller and a multiple of 32), so every block size leaves a
  //    partial last block whose extra threads must not store.
  int n_small = std::min(n, 70001);
  if (n_small % 32 == 0) n_small -= 1;
  float *dN = nullptr, *dP = nullptr, *dP_small = nullptr;
  ReadTally* d_tally = nullptr;
  WB_CHECK(cudaMalloc(&dN, static_cast<size_t>(n) * sizeof(float)));
  dP = wb::alloc_output<float>(static_cast<size_t>(n));
  dP_small = wb::alloc_output<float>(static_cast<size_t>(n_small));
  WB_CHECK(cudaMalloc(&d_tally, sizeof(ReadTally)));

  std::vector<double> ref_small(n_small), ref(n);
  conv_cpu(in.data(), mask.data(), ref_small.data(), n_small, mw);
  conv_cpu(in.data(), mask.data(), ref.data(), n, mw);
  WB_CHECK(cudaMemcpy(dN, in.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));

  run_and_check("basic_small", [&] { launch_basic<false>(dN, dP_small, n_small, r); }, dP_small, ref_small, mw,
                "basic_small_bounds");
  run_and_check("tiled_small", [&] { launch_tiled<false>(dN, dP_small, n_small, r, tile); }, dP_small, ref_small, mw,
                "tiled_small_bounds");
  const bool basic_ok = run_and_check("basic_n", [&] { launch_basic<false>(dN, dP, n, r); }, dP, ref, mw);
  const bool tiled_ok = run_and_check("tiled_n", [&] { launch_tiled<false>(dN, dP, n, r, tile); }, dP, ref, mw);

  // 2. Read counts at N (instrumented launches).
  const ReadTally basic_t = count_reads([&](ReadTally* t) { launch_basic<true>(dN, dP, n, r, t); }, d_tally);
  const ReadTally tiled_t = count_reads([&](ReadTally* t) { launch_tiled<true>(dN, dP, n, r, tile, t); }, d_tally);
  const unsigned long long basic_slots = basic_t.inside + basic_t.outside;
  const unsigned long long tiled_slots = tiled_t.inside + tiled_t.outside;
  const unsigned long long basic_formula = static_cast<unsigned long long>(n) * mw;
  const unsigned long long tiled_formula =
      static_cast<unsigned long long>(ceil_div(n, tile)) * static_cast<unsigned long long>(tile + 2 * r);
  // In-range loads: the direct kernel misses r(r+1)/2 cells at each end.
  const unsigned long long basic_inside_exact = basic_formula - static_cast<unsigned long long>(r) * (r + 1);
  const unsigned long long tiled_inside_want = tiled_inside_exact(n, tile, r);

  wb::metric("basic_reads", static_cast<double>(basic_slots), "count");
  wb::metric("basic_reads_inside", static_cast<double>(basic_t.inside), "count");
  wb::metric("tiled_reads", static_cast<double>(tiled_slots), "count");
  wb::metric("tiled_reads_inside", static_cast<double>(tiled_t.inside), "count");
  wb::metric("read_reduction", tiled_slots > 0 ? static_cast<double>(basic_slots) / tiled_slots : 0.0, "x");
  wb::check("basic_count", basic_slots == basic_formula && basic_t.inside == basic_inside_exact,
            static_cast<double>(basic_slots), static_cast<double>(basic_formula),
            wb::detail::format("slots %llu (formula N*MW = %llu), loads issued %llu (expected %llu)", basic_slots,
                               basic_formula, basic_t.inside, basic_inside_exact));
  wb::check("tiled_count", tiled_slots == tiled_formula && tiled_t.inside == tiled_inside_want,
            static_cast<double>(tiled_slots), static_cast<double>(tiled_formula),
            wb::detail::format("slots %llu (formula ceil(N/TILE)*(TILE+2r) = %llu), loads issued %llu (expected %llu)",
                               tiled_slots, tiled_formula, tiled_t.inside, tiled_inside_want));

  // 3. Timing at N. A kernel that failed its check is not timed. No L2 flush: each
  //    sample is a batch of back-to-back launches (each computes the same P), which at
  //    the default N stream 256 MB, several times any L2, so they read from DRAM anyway.
  //    (At a small N, such as the quick run's, the data stays in L2: a warm figure.)
  const double bytes = 2.0 * n * sizeof(float);  // the least DRAM traffic: read N once, write P once
  wb::TimingOptions warm;
  warm.flush_l2 = false;
  double basic_median = 0.0, tiled_median = 0.0;
  if (basic_ok) {
    const wb::Stats st = wb::time_kernel([&] { launch_basic<false>(dN, dP, n, r); }, warm);
    wb::metric("basic_ms", st, "ms");
    wb::metric("basic_gbps", bytes / (st.median * 1e6), "GB/s");
    basic_median = st.median;
  } else {
    std::printf("basic kernel failed its check: not timed\n");
  }
  if (tiled_ok) {
    const wb::Stats st = wb::time_kernel([&] { launch_tiled<false>(dN, dP, n, r, tile); }, warm);
    wb::metric("tiled_ms", st, "ms");
    wb::metric("tiled_gbps", bytes / (st.median * 1e6), "GB/s");
    tiled_median = st.median;
  } else {
    std::printf("tiled kernel failed its check: not timed\n");
  }
  if (basic_median > 0 && tiled_median > 0)
    std::printf("tiled (TILE=%d) vs basic at N=%d: %.2fx\n", tile, n, basic_median / tiled_median);

  // 4. Tile sweep: each tile is checked at N before it is timed.
  if (tiled_ok) {
    bool sweep_ok = true;
    int best = 0;
    double best_ms = 0.0;
    std::vector<float> got(n);
    for (int t = 32; t <= 1024; t *= 2) {
      wb::poison_output(dP);
      launch_tiled<false>(dN, dP, n, r, t);
      WB_CHECK_LAUNCH();
      WB_CHECK(cudaMemcpy(got.data(), dP, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));
      const double atol = 4.0 * mw * FLT_EPSILON, rtol = 1e-5;
      bool ok = true;
      for (int i = 0; i < n && ok; ++i)
        ok = std::isfinite(got[i]) && std::fabs(got[i] - ref[i]) <= atol + rtol * std::fabs(ref[i]);
      if (!ok) {
        std::printf("TILE=%d: wrong result, not timed\n", t);
        sweep_ok = false;
        continue;
      }
      const wb::Stats st = wb::time_kernel([&] { launch_tiled<false>(dN, dP, n, r, t); }, warm);
      wb::metric(("tiled_ms_t" + std::to_string(t)).c_str(), st, "ms");
      if (best == 0 || st.median < best_ms) {
        best = t;
        best_ms = st.median;
      }
    }
    wb::check("tiled_sweep", sweep_ok, sweep_ok ? "every TILE from 32 to 1024 matches the reference"
                                                : "some TILE gave a wrong result");
    if (best > 0) {
      wb::metric("best_tile", best, "threads");
      std::printf("fastest tile: %d (%.4f ms)\n", best, best_ms);
    }
  } else {
    wb::check("tiled_sweep", false, "not run: the tiled kernel failed its check at N");
  }

  WB_CHECK(cudaFree(dN));
  wb::free_output(dP);
  wb::free_output(dP_small);
  WB_CHECK(cudaFree(d_tally));
  return wb::finish();
}
