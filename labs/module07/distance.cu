/*
Module 7 lab: break the distance kernel and catch it. STARTER: distance_kernel and
launch_distance in the section YOUR CODE are still the lecture's version (see the
TODOs); the rest is complete.

The lecture's first program computes, for N points spread evenly over [0, 1]
(x_i = i / (N - 1)), the distance to ref = 0.5, one thread per point. With N = 64 and
TPB = 32 it works by luck: 64 is a multiple of 32. This lab sets N = 100 and catches
the two ways it then breaks, without hoping to see garbage:

  1. unguarded launch, N / TPB blocks (rounded down): 3 x 32 = 96 threads, so
     outputs 96..99 are never written. The output buffer is poisoned (NaN) first, so
     the lab counts the unwritten elements instead of printing leftover memory that
     may happen to be 0.
  2. the naive fix, enough blocks for every output (4 x 32 = 128 threads) but no
     guard: threads 100..127 write past the end of the array. The lab allocates a
     guard band of 1,024 floats after the array, poisoned too, and counts the band elements that changed.
  3. your fix (the section YOUR CODE): every output written, and nothing past the
     end. It runs at N and at 1000 (neither a multiple of 32), each on an output
     fenced by canary bands (wb::alloc_output). Checks: every output written, nothing
     written past the end at either size (no_write_past_end, no_write_past_end_1000),
     each value equal to the CPU reference within a relative 1e-6, and the last output
     exactly 0.5.

It also counts how many outputs would change if distance() returned fabsf(x2 - x1)
instead of the square root of a square (the module's Apply question): none. In IEEE
binary floating point with round-to-nearest, the correctly rounded square root of the
correctly rounded square of d is exactly |d|, as long as d*d is a normal float: neither
infinite (|d| > ~1.8e19) nor below FLT_MIN (|d| < ~1.1e-19, where the square loses bits
or becomes 0). The GPU's sqrtf is correctly rounded unless -use_fast_math or
-prec-sqrt=false is given. A second count shows the exception on purpose: a few values
of d outside that range, where the two do differ.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module07/distance.cu -o distance && ./distance
compute-sanitizer: the lab's own demonstration of the naive fix writes into its guard
band, which is inside the allocation, so the sanitizer sees nothing wrong there. Run
  compute-sanitizer ./distance SANITIZE=1
to repeat the naive fix on an allocation of exactly N floats: the sanitizer then
reports an "Invalid __global__ write of size 4" for each thread from N on.

Parameters (NAME=VALUE): N (points, 100), TPB (threads per block, 32), SANITIZE (0/1,
see above), seed, quick=1 (same sizes: the lab is tiny).
*/

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "workbook.cuh"

// Floats after the array that the lab watches for stray writes: more than the at most
// TPB - 1 <= 1023 spare threads of a rounded-up grid.
constexpr int kBand = 1024;

// ----------------------------------------------------------------------------
// The lecture's helpers, unchanged in their arithmetic. __host__ __device__ lets the
// CPU reference run the very same code (Module 5).

// Index -> position in [0, 1].
__host__ __device__ float scale(int i, int n) { return static_cast<float>(i) / (n - 1); }

// |x2 - x1|, written as the square root of a square, as in the lecture.
__host__ __device__ float distance(float x1, float x2) { return sqrtf((x2 - x1) * (x2 - x1)); }

// ----------------------------------------------------------------------------
// CPU reference

void distance_cpu(float* out, float ref, int n) {
  for (int i = 0; i < n; ++i) out[i] = distance(scale(i, n), ref);
}

// ----------------------------------------------------------------------------
// The lecture's kernel, as it was: no guard. Used for the two demonstrations.

__global__ void distance_kernel_original(float* d_out, float ref, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = scale(i, len);
  d_out[i] = distance(x, ref);
}

// ============================================================================
// YOUR CODE: the fixed kernel and its launch
// ============================================================================

__global__ void distance_kernel(float* d_out, float ref, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO (7, worked example, step 4): d_out has exactly len elements between canary
  // bands. Once launch_distance covers every output, some threads of the last block have
  // no output of their own: they must neither read past the data nor store anything
  // (no_write_past_end, no_write_past_end_1000, memcheck_quick).
  const float x = scale(i, len);
  d_out[i] = distance(x, ref);
}

// Enqueues distance_kernel over all n outputs with tpb threads per block.
void launch_distance(float* d_out, float ref, int n, int tpb) {
  // TODO (step 4): launch enough blocks that every one of the n outputs has a thread
  // (all_written; n = 100 with tpb = 32 and n = 1000 are not multiples of tpb).
  // Pitfalls: as written, 100 / 32 = 3 blocks leave outputs 96..99 unwritten; and a
  // bigger grid is only safe together with the kernel's fix above.
  const int blocks = n / tpb;
  distance_kernel<<<blocks, tpb>>>(d_out, ref, n);
}

// ============================================================================
// Harness
// ============================================================================

// A device buffer of n outputs followed by the guard band, all poisoned (NaN).
struct Guarded {
  int n;
  float* d = nullptr;
  std::vector<float> host;  // n + kBand floats, after fetch()

  explicit Guarded(int n_) : n(n_) {
    WB_CHECK(cudaMalloc(&d, bytes()));
    wb::poison(d, bytes());
  }
  ~Guarded() { cudaFree(d); }
  size_t bytes() const { return (static_cast<size_t>(n) + kBand) * sizeof(float); }
  void fetch() {
    host.resize(static_cast<size_t>(n) + kBand);
    WB_CHECK(cudaMemcpy(host.data(), d, bytes(), cudaMemcpyDeviceToHost));
  }
  static bool poisoned(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits == 0xFFFFFFFFu;
  }
  int unwritten() const {
    int c = 0;
    for (int i = 0; i < n; ++i) c += poisoned(host[i]);
    return c;
  }
  int band_writes() const {
    int c = 0;
    for (int g = 0; g < kBand; ++g) c += !poisoned(host[static_cast<size_t>(n) + g]);
    return c;
  }
};

void print_tail(const char* title, const std::vector<float>& h, int n) {
  std::printf("%s\n", title);
  for (int i = n >= 6 ? n - 6 : 0; i < n; ++i) {
    if (Guarded::poisoned(h[i]))
      std::printf("  %d = (never written: still the poison)\n", i);
    else
      std::printf("  %d = %g\n", i, static_cast<double>(h[i]));
  }
}

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// What the learner's launcher did at one size. `d` is its output, between two canary
// bands (wb::alloc_output): the caller checks the bands and frees it.
struct FixResult {
  int unwritten = 0, mismatched = 0;
  float last = NAN;
  std::string launch_error;
  float* d = nullptr;
};

FixResult run_fixed(int n, int tpb, const float ref, bool print) {
  FixResult r;
  r.d = wb::alloc_output<float>(static_cast<size_t>(n));  // interior poisoned (NaN)
  launch_distance(r.d, ref, n, tpb);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) r.launch_error = cudaGetErrorName(e);
  WB_CHECK(cudaDeviceSynchronize());
  std::vector<float> got(n);
  WB_CHECK(cudaMemcpy(got.data(), r.d, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> cpu(n);
  distance_cpu(cpu.data(), ref, n);
  for (int i = 0; i < n; ++i) {
    r.unwritten += Guarded::poisoned(got[i]);
    // The workbook's rule: never ==, a relative tolerance. NaN fails it.
    const double d = std::fabs(static_cast<double>(got[i]) - cpu[i]);
    if (!(d <= 1e-6 * std::fabs(cpu[i]))) ++r.mismatched;
  }
  r.last = got[n - 1];
  if (print) print_tail("your fix: the last 6 outputs", got, n);
  return r;
}

// Counts outputs where fabsf(x2 - x1) differs (bit for bit) from the square root of
// the square.
__global__ void compare_fabs(int* differences, float ref, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const float x = scale(i, len);
  const float a = distance(x, ref), b = fabsf(ref - x);
  if (__float_as_uint(a) != __float_as_uint(b)) atomicAdd(differences, 1);
}

// The same comparison for given differences d: out[k] = sqrtf(d*d) through distance(),
// to be compared with |d| on the host.
__global__ void sqrt_of_square(const float* d, float* out, int m) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  out[k] = distance(0.0f, d[k]);  // sqrtf((d - 0) * (d - 0)), and d - 0 is exactly d
}

// Values of d on both sides of the range where sqrtf(d*d) == |d| is exact. The square of
// a float is a normal float only for ~1.08e-19 <= |d| <= ~1.84e19.
//   inside:  0.5 and 1/126 (the lab's own distances), 3, 2e-19 and 1.8e19 (near the ends)
//   outside: 1e20 (d*d overflows to inf), 1e-20 (d*d = 1e-40 is subnormal: 17 of its 24
//            bits survive, and the root comes back as 9.99997e-21), 1e-30 (d*d = 1e-60
//            underflows to 0)
// Every value outside gives a different result, every value inside the same one: 3
// differences. (The host computes the same with its own correctly rounded sqrtf, as a
// cross-check.)
const float kEdgeValues[] = {0.5f, 1.0f / 126.0f, 3.0f, 2e-19f, 1.8e19f, 1e20f, 1e-20f, 1e-30f};
constexpr int kEdgeCount = static_cast<int>(sizeof(kEdgeValues) / sizeof(kEdgeValues[0]));

void compare_fabs_at_edges() {
  float *d_in = nullptr, *d_out = nullptr;
  WB_CHECK(cudaMalloc(&d_in, sizeof(kEdgeValues)));
  WB_CHECK(cudaMalloc(&d_out, sizeof(kEdgeValues)));
  WB_CHECK(cudaMemcpy(d_in, kEdgeValues, sizeof(kEdgeValues), cudaMemcpyHostToDevice));
  sqrt_of_square<<<1, 32>>>(d_in, d_out, kEdgeCount);
  WB_CHECK_LAUNCH();
  float gpu[kEdgeCount];
  WB_CHECK(cudaMemcpy(gpu, d_out, sizeof(kEdgeValues), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaFree(d_in));
  WB_CHECK(cudaFree(d_out));
  int gpu_diff = 0, cpu_diff = 0;
  std::printf("   outside the lab's range of d, sqrtf(d*d) and fabsf(d) can differ:\n");
  for (int k = 0; k < kEdgeCount; ++k) {
    const float d = kEdgeValues[k];
    volatile float square = d * d;  // volatile: the host computes it at run time, like the GPU
    const float cpu = std::sqrt(static_cast<float>(square));
    const bool differs = gpu[k] != std::fabs(d);
    gpu_diff += differs;
    cpu_diff += cpu != std::fabs(d);
    std::printf("     d = %-12.6g d*d = %-13.6g sqrtf(d*d) = %-13.9g %s\n", static_cast<double>(d),
                static_cast<double>(square), static_cast<double>(gpu[k]), differs ? "differs" : "same");
  }
  std::printf("   %d of %d differ on the GPU (%d with the host's sqrtf)\n", gpu_diff, kEdgeCount, cpu_diff);
  wb::metric("fabsf_differences_extreme", gpu_diff, "count");
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module07/distance");
  const long long n_param = wb::param("N", 100);
  const long long tpb_param = wb::param("TPB", 32);
  const long long sanitize = wb::param("SANITIZE", 0);
  wb::params_done();
  if (n_param < 2 || n_param > (1 << 24)) wb::bad_argument("N must be between 2 and 16777216");
  if (tpb_param < 1 || tpb_param > 1024) wb::bad_argument("TPB must be between 1 and 1024");
  const int n = static_cast<int>(n_param), tpb = static_cast<int>(tpb_param);
  const float ref = 0.5f;

  // 1. The unguarded program as the lecture wrote it: N / TPB blocks.
  {
    Guarded g(n);
    const int blocks = n / tpb;
    if (blocks > 0) distance_kernel_original<<<blocks, tpb>>>(g.d, ref, n);
    WB_CHECK_LAUNCH();
    g.fetch();
    std::printf("1. <<<N/TPB, TPB>>> = <<<%d, %d>>>: %d threads for %d points\n", blocks, tpb, blocks * tpb, n);
    print_tail("   the last 6 outputs", g.host, n);
    wb::metric("blocks_unguarded", blocks, "count");
    wb::metric("unwritten_unguarded", g.unwritten(), "count");
  }

  // 2. The naive fix: enough blocks, still no guard.
  {
    Guarded g(n);
    const int blocks = ceil_div(n, tpb);
    distance_kernel_original<<<blocks, tpb>>>(g.d, ref, n);
    WB_CHECK_LAUNCH();
    g.fetch();
    std::printf("2. <<<ceil(N/TPB), TPB>>> = <<<%d, %d>>> without a guard: threads %d..%d write past the end\n",
                blocks, tpb, n, blocks * tpb - 1);
    wb::metric("blocks_naive_fix", blocks, "count");
    wb::metric("unwritten_naive_fix", g.unwritten(), "count");
    wb::metric("oob_writes_naive_fix", g.band_writes(), "count");
  }

  // 3. Your fix, at N and at a size the lecture never tried.
  const FixResult a = run_fixed(n, tpb, ref, true);
  const FixResult b = run_fixed(1000, tpb, ref, false);
  auto both = [&](const char* what, int va, int vb) {
    return wb::detail::format("%s: %d at N=%d, %d at N=1000", what, va, n, vb);
  };
  std::string launch_note;
  if (!a.launch_error.empty() || !b.launch_error.empty())
    launch_note = "; launch error " + a.launch_error + " " + b.launch_error;
  wb::check("all_written", a.unwritten == 0 && b.unwritten == 0 && launch_note.empty(),
            both("outputs never written", a.unwritten, b.unwritten) + launch_note);
  wb::check_bounds("no_write_past_end", a.d);
  wb::check_bounds("no_write_past_end_1000", b.d);
  wb::check("matches_cpu", a.mismatched == 0 && b.mismatched == 0,
            both("outputs off the CPU reference by more than 1e-6 relative (NaN = unwritten)", a.mismatched,
                 b.mismatched));
  wb::check("last_is_half", a.last == 0.5f,
            wb::detail::format("out[%d] = %g; x = %d/%d = 1 is exactly 0.5 from ref", n - 1,
                               static_cast<double>(a.last), n - 1, n - 1));
  wb::metric("last_value", a.last, "");
  wb::free_output(a.d);
  wb::free_output(b.d);

  // 4. Would fabsf change anything?
  {
    int* d = nullptr;
    WB_CHECK(cudaMalloc(&d, sizeof(int)));
    WB_CHECK(cudaMemset(d, 0, sizeof(int)));
    compare_fabs<<<ceil_div(n, 256), 256>>>(d, ref, n);
    WB_CHECK_LAUNCH();
    int diff = 0;
    WB_CHECK(cudaMemcpy(&diff, d, sizeof(int), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaFree(d));
    std::printf("4. fabsf(x2 - x1) instead of sqrtf of the square changes %d of %d outputs\n", diff, n);
    wb::metric("fabsf_differences", diff, "count");
    compare_fabs_at_edges();
  }

  // Opt-in: the naive fix on an allocation of exactly n floats, for compute-sanitizer.
  // Its stray writes land in the allocator's padding after the buffer; nothing the lab
  // still needs lives there, and the lab ends right after.
  if (sanitize) {
    float* d = nullptr;
    WB_CHECK(cudaMalloc(&d, static_cast<size_t>(n) * sizeof(float)));
    distance_kernel_original<<<ceil_div(n, tpb), tpb>>>(d, ref, n);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("SANITIZE=1: naive fix on exactly %d floats: %s (under compute-sanitizer, look above for "
                "'Invalid __global__ write')\n",
                n, e == cudaSuccess ? "no fault without the sanitizer" : cudaGetErrorString(e));
    cudaGetLastError();
    cudaFree(d);
  }

  return wb::finish();
}
