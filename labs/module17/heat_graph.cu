/*
Module 17 lab: the heat equation one launch at a time, then replayed from a CUDA Graph. STARTER:
capture_steps and advance_graph below are yours to write (see their TODOs); the kernel, the
plain loop, the snapshots, the checks and the timing are complete.

A rod on [0, 1] with both ends held at 0 cools by diffusion. The explicit scheme moves
every interior point toward its neighbours,

    u_next[i] = u[i] + r (u[i-1] - 2 u[i] + u[i+1]),   r = dt / dx^2 = 0.4 (stable for r <= 1/2),

reading one buffer and writing the other; the two buffers trade places every step. At
N = 2001 points a step is a few microseconds of GPU work, so a loop that launches each
step on its own runs at the speed the host can issue launches, not at the speed of the
GPU. This lab measures that, then removes it with a CUDA Graph:

  plain loop   one kernel launch per step, pointers swapped on the host (Module 9)
  graph        GRAPH_STEPS launches recorded once by stream capture, instantiated once,
               then replayed with one cudaGraphLaunch each. The pointers are recorded by
               value, so two graphs are captured: one that starts from buffer a, one that
               starts from buffer b; a replay must use the one whose start holds the field

The checked run: STEPS steps from a profile of 16 sine modes with random amplitudes (the
seed picks them), with a snapshot every STEPS/8 steps. A snapshot interval is filled with
whole replays and the rest (interval mod GRAPH_STEPS) as single launches: at the defaults
2525 = 25 x 100 + 25, an odd remainder, so from the first snapshot on the newest field
sits in buffer b. Each snapshot is compared with a CPU reference in double, and its
largest error against the exact solution sum a_k exp(-k^2 pi^2 t) sin(k pi x) goes into a
table. The two versions do exactly the same arithmetic, so their snapshots must agree bit
for bit and their tables in every digit. N = 2001 is not a multiple of the 256-thread
block (the last block has 209 threads on the rod), and both buffers sit between canary
bands, so a store past the end of the rod fails a check.

Then the same at N = BIG_N (2,000,001) from a random rod, for BIG_STEPS steps: both
versions must agree bit for bit, and three windows of the rod (both ends and the middle)
are checked against a CPU reference that only needs the points within BIG_STEPS of each
window (a point after S steps depends on nothing farther than S points away).

Timing, when every check passed (CUDA events on the stream, no hold kernel, no L2 flush:
what is measured is the host issuing the loop, as a simulation runs it):
  empty_us        one launch of an empty kernel, TIMED_STEPS issued back to back: what
                  issuing a launch costs on this host
  gpu_step_us     one step with the launches queued behind a hold kernel, so the host is
                  out of the picture: what the GPU itself needs per step
  stream_us       one step of the plain loop          (model: max(empty_us, gpu_step_us))
  graph_us        one step of the replayed graph      (model: gpu_step_us)
and the same three step times at BIG_N. Their ratios are the lab's two predictions.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module17/heat_graph.cu -o heat_graph && ./heat_graph

Parameters (NAME=VALUE): N (points, default 2001), STEPS (checked steps, a multiple of 8,
default 20200, 2040 with quick=1), GRAPH_STEPS (steps captured in one graph, default
100), TIMED_STEPS (steps per timed region, default 1000, 200 with quick=1), BIG_N
(default 2000001, 200001 with quick=1), BIG_STEPS (checked steps at BIG_N, default 1000,
200 with quick=1), seed, quick=1.
*/

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "workbook.cuh"

constexpr float kR = 0.4f;        // r = dt / dx^2
constexpr int kThreads = 256;     // threads per block
constexpr int kModes = 16;        // sine modes in the starting profile at N
constexpr int kSnapshots = 8;     // snapshots after the start (the workbook's steps/8)
constexpr long long kWindow = 2048;  // points per checked window at BIG_N

using Clock = std::chrono::steady_clock;

// ----------------------------------------------------------------------------
// CPU reference

// One explicit step in double on u[0 .. len), which holds the rod's points first ..
// first + len - 1 of a rod of n points. The rod's own ends (0 and n - 1) stay fixed. Where
// the segment is cut out of a longer rod, its first and last points lack a neighbour and
// are just copied: that is wrong, but the error creeps inward by one point a step, so
// after S steps every point at least S away from a cut is still exact.
void step_cpu(const std::vector<double>& u, std::vector<double>& next, long long first, long long n, double r) {
  const size_t len = u.size();
  for (size_t j = 0; j < len; ++j) {
    const long long g = first + static_cast<long long>(j);
    const bool fixed = g == 0 || g == n - 1 || j == 0 || j + 1 == len;
    next[j] = fixed ? u[j] : u[j] + r * (u[j - 1] - 2.0 * u[j] + u[j + 1]);
  }
}

void steps_cpu(std::vector<double>& u, long long steps, long long first, long long n, double r) {
  std::vector<double> next(u.size());
  for (long long t = 0; t < steps; ++t) {
    step_cpu(u, next, first, n, r);
    u.swap(next);
  }
}

// The exact solution of the heat equation from sum_k amp[k] sin(k pi x), at time t.
double exact(const std::vector<double>& amp, double x, double t) {
  double sum = 0.0;
  for (size_t k = 1; k < amp.size(); ++k) {
    const double kpi = static_cast<double>(k) * M_PI;
    sum += amp[k] * std::exp(-kpi * kpi * t) * std::sin(kpi * x);
  }
  return sum;
}

// ----------------------------------------------------------------------------
// GPU kernels

// One thread per point: reads u (step t), writes u_next (step t + 1).
__global__ void heat_step(const float* u, float* u_next, int n, float r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the last block sticks out past the rod
  const float centre = u[i];
  if (i == 0 || i == n - 1) {
    u_next[i] = centre;  // the ends are held fixed: copy them, never update them
    return;
  }
  u_next[i] = centre + r * (u[i - 1] - 2.0f * centre + u[i + 1]);
}

// Does nothing: launched with the N-point grid, it shows what issuing one launch costs.
__global__ void empty_step() {}

// ----------------------------------------------------------------------------
// Launchers (enqueue only; the caller synchronizes)

int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

void launch_step(const float* u, float* u_next, int n, cudaStream_t s) {
  heat_step<<<blocks_for(n), kThreads, 0, s>>>(u, u_next, n, kR);
}

// The rod on the GPU: two buffers between canary bands; cur holds the newest field.
struct Field {
  float* a = nullptr;
  float* b = nullptr;
  float* cur = nullptr;
  float* next = nullptr;
  int n = 0;
};

// The plain loop: one launch per step; the host swaps the pointers after each launch.
void advance_plain(Field& f, long long steps, cudaStream_t s) {
  for (long long t = 0; t < steps; ++t) {
    launch_step(f.cur, f.next, f.n, s);
    std::swap(f.cur, f.next);  // this step's output is the next step's input
  }
}

// Two executable graphs of the same `steps` steps: from_a starts from buffer a, from_b
// from buffer b. (A captured launch keeps the pointer values it was given.)
struct StepGraph {
  cudaGraphExec_t from_a = nullptr;
  cudaGraphExec_t from_b = nullptr;
  int steps = 0;
};

// Records `steps` launches on stream s, the first reading `from`, and returns the
// instantiated graph. Nothing runs during the capture: each launch is only recorded,
// with its arguments as they are at that moment.
cudaGraphExec_t capture_steps(float* from, float* to, int n, int steps, cudaStream_t s) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  // TODO (Module 17.4, lab step 2): until you write this, no graph exists, the graph run
  // never moves the field, and graph_vs_cpu and graph_matches_plain fail.
  //
  // The goal: exec replays `steps` heat steps, the first reading `from`, each step
  // reading what the one before it wrote, exactly like advance_plain's loop.
  // - Record on stream s rather than run: between the start and the end of a capture,
  //   work issued to s is stored in `graph`, not executed.
  // - Record the steps with the same pointer exchange as the plain loop, done on the
  //   host while recording: each stored launch keeps the pointer values it was given at
  //   that moment, and a replay can never change them.
  // - A launch refused inside the capture shows only as the last error afterwards:
  //   check for it before you build anything from the graph.
  // - Turn the recorded graph into an executable one once (CUDA 12/13: the form with a
  //   flags argument and no error-log buffer); the recorded graph is not needed after
  //   that. Wrap every CUDA call in WB_CHECK(...), and return exec.
  // `workbook hint module17/heat_graph` names the calls.
  (void)from;
  (void)to;
  (void)n;
  (void)steps;
  (void)s;
  (void)&graph;  // (only so the compiler does not warn while this is a stub)
  return exec;
}

// Advances the field by `steps` steps: whole replays of the graph, then the remainder as
// single launches, keeping f.cur on the newest field.
void advance_graph(Field& f, const StepGraph& g, long long steps, cudaStream_t s) {
  // TODO (Module 17 lab, step 2: the snapshot steps): until you write this, the field
  // does not move and the graph's snapshots all show the starting rod.
  //
  // 1. Advance by as many whole replays of g as fit in `steps`. Which graph? g.from_a
  //    reads buffer a first, g.from_b reads buffer b first: each replay must start
  //    where the newest field is (f.cur).
  // 2. After a replay of an odd number of steps the newest field is in the other buffer:
  //    keep f.cur and f.next telling the truth (with g.steps even, nothing changes).
  // 3. Do the steps left over, fewer than g.steps, one launch each (advance_plain).
  // At the defaults a snapshot interval is 2525 steps = 25 replays + 25 single launches:
  // an odd remainder, so after the first snapshot the newest field sits in buffer b.
  (void)f;
  (void)g;
  (void)steps;
  (void)s;
}

// ----------------------------------------------------------------------------
// main

// Copies the starting field into buffer a (on stream s) and points cur at it.
void reset_field(Field& f, const std::vector<float>& u0, cudaStream_t s) {
  WB_CHECK(cudaMemcpyAsync(f.a, u0.data(), u0.size() * sizeof(float), cudaMemcpyHostToDevice, s));
  f.cur = f.a;
  f.next = f.b;
}

// Copies the newest field to the host. The copy is queued on s behind every step, into
// pinned memory (so it really is asynchronous); the host must wait for it.
void take_snapshot(const Field& f, float* pinned, float* out, cudaStream_t s) {
  std::fill(pinned, pinned + f.n, NAN);  // a snapshot read too early shows as NaN
  WB_CHECK(cudaMemcpyAsync(pinned, f.cur, static_cast<size_t>(f.n) * sizeof(float), cudaMemcpyDeviceToHost, s));
  WB_CHECK(cudaStreamSynchronize(s));  // the copy above has only been queued: wait for it before reading
  std::memcpy(out, pinned, static_cast<size_t>(f.n) * sizeof(float));
}

// A timing in ms per region, turned into microseconds per step.
wb::Stats per_step_us(wb::Stats st, long long steps) {
  const double k = 1e3 / static_cast<double>(steps);
  st.median *= k;
  st.min *= k;
  st.max *= k;
  return st;
}

// Number of elements whose bits differ between two float arrays.
size_t bit_differences(const float* x, const float* y, size_t n) {
  size_t diff = 0;
  for (size_t i = 0; i < n; ++i) diff += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return diff;
}

// An odd graph. GRAPH_STEPS is even by default, so every replay ends in the buffer it
// started from and advance_graph's bookkeeping for an odd replay would never be run.
// Here a 7-step graph is replayed over two intervals of 3 replays and 2 single launches
// (23 steps) from u0, against the plain loop over the same steps: after each replay the
// newest field is in the other buffer, so the next one must start from the other graph.
constexpr int kOddGraphSteps = 7;
constexpr long long kOddInterval = 3 * kOddGraphSteps + 2;

bool odd_graph_case(Field& f, const std::vector<float>& u0, float* pinned, cudaStream_t s) {
  const size_t n = static_cast<size_t>(f.n);
  std::vector<float> plain(2 * n), graph(2 * n);
  reset_field(f, u0, s);
  for (size_t i = 0; i < 2; ++i) {
    advance_plain(f, kOddInterval, s);
    take_snapshot(f, pinned, plain.data() + i * n, s);
  }
  StepGraph odd;
  odd.steps = kOddGraphSteps;
  odd.from_a = capture_steps(f.a, f.b, f.n, kOddGraphSteps, s);
  odd.from_b = capture_steps(f.b, f.a, f.n, kOddGraphSteps, s);
  reset_field(f, u0, s);
  for (size_t i = 0; i < 2; ++i) {
    advance_graph(f, odd, kOddInterval, s);
    take_snapshot(f, pinned, graph.data() + i * n, s);
  }
  WB_CHECK(cudaStreamSynchronize(s));
  WB_CHECK(cudaGetLastError());
  for (cudaGraphExec_t e : {odd.from_a, odd.from_b})
    if (e) WB_CHECK(cudaGraphExecDestroy(e));
  const size_t diff = bit_differences(plain.data(), graph.data(), plain.size());
  return wb::check("odd_graph_matches_plain", diff == 0, static_cast<double>(diff), 0.0,
                   wb::detail::format("%zu of %zu values differ in some bit after %lld and %lld steps replayed from a "
                                      "%d-step graph (3 replays and 2 single launches an interval) and run by the "
                                      "plain loop",
                                      diff, plain.size(), kOddInterval, 2 * kOddInterval, kOddGraphSteps));
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module17/heat_graph");
  const long long n_param = wb::param("N", 2001, 2001);
  const long long steps_param = wb::param("STEPS", 20200, 2040);
  const long long g_param = wb::param("GRAPH_STEPS", 100, 100);
  const long long timed_param = wb::param("TIMED_STEPS", 1000, 200);
  const long long big_param = wb::param("BIG_N", 2000001, 200001);
  const long long big_steps_param = wb::param("BIG_STEPS", 1000, 200);
  wb::params_done();
  if (n_param < 3 || n_param > (1 << 22)) wb::bad_argument("N must be between 3 and 2^22");
  if (steps_param < kSnapshots || steps_param % kSnapshots != 0 || steps_param * n_param > 4000000000LL)
    wb::bad_argument("STEPS must be a positive multiple of 8, with STEPS x N at most 4e9 (the CPU reference)");
  if (g_param < 1 || g_param > 10000) wb::bad_argument("GRAPH_STEPS must be between 1 and 10000");
  if (timed_param < 1 || timed_param > 1000000) wb::bad_argument("TIMED_STEPS must be between 1 and 10^6");
  if (big_param < 3 * kWindow || big_param > (1LL << 28)) wb::bad_argument("BIG_N must be between 6144 and 2^28");
  if (big_steps_param < 1 || big_steps_param > 20000) wb::bad_argument("BIG_STEPS must be between 1 and 20000");
  const int n = static_cast<int>(n_param), big_n = static_cast<int>(big_param);
  const int graph_steps = static_cast<int>(g_param);
  const long long steps = steps_param, timed = timed_param, big_steps = big_steps_param;
  const long long every = steps / kSnapshots;
  const double dx = 1.0 / (n - 1), dt = kR * dx * dx;
  std::printf("N = %d: dx = %.3g, dt = r dx^2 = %.3g; %lld steps (t = %.4g), a snapshot every %lld steps = %lld "
              "replays of %d steps + %lld single launches\n",
              n, dx, dt, steps, steps * dt, every, every / graph_steps, graph_steps, every % graph_steps);

  cudaStream_t s;
  WB_CHECK(cudaStreamCreate(&s));  // capture needs a stream other than the legacy default one
  float* pinned = nullptr;
  WB_CHECK(cudaMallocHost(&pinned, static_cast<size_t>(std::max(n, big_n)) * sizeof(float)));

  // ---- 1. N points, plain loop and graph, snapshot by snapshot ----------------------------
  // Start: 16 sine modes, amplitude (0.5 .. 1) / k each, drawn from the seed.
  std::vector<double> amp(kModes + 1, 0.0);
  wb::Rng rng(1);
  for (int k = 1; k <= kModes; ++k) amp[k] = (0.5 + 0.5 * rng.uniform()) / k;
  std::vector<float> u0(n);
  for (int i = 0; i < n; ++i) u0[i] = static_cast<float>(exact(amp, i * dx, 0.0));
  u0[0] = u0[n - 1] = 0.0f;

  // The CPU reference at every snapshot (row 0 is the start).
  const size_t rows = kSnapshots + 1;
  std::vector<double> ref(rows * n);
  {
    std::vector<double> u(u0.begin(), u0.end());
    std::copy(u.begin(), u.end(), ref.begin());
    for (size_t row = 1; row < rows; ++row) {
      steps_cpu(u, every, 0, n, kR);
      std::copy(u.begin(), u.end(), ref.begin() + row * n);
    }
  }

  Field small;
  small.n = n;
  small.a = wb::alloc_output<float>(n);  // poisoned (NaN), canary bands armed
  small.b = wb::alloc_output<float>(n);

  std::vector<float> snap_plain(rows * n), snap_graph(rows * n);
  reset_field(small, u0, s);
  take_snapshot(small, pinned, snap_plain.data(), s);
  for (size_t row = 1; row < rows; ++row) {
    advance_plain(small, every, s);
    take_snapshot(small, pinned, snap_plain.data() + row * n, s);
  }

  // Capture both graphs (the first capture pays one-time set-up; capture_us times the second).
  StepGraph g_small;
  g_small.steps = graph_steps;
  g_small.from_a = capture_steps(small.a, small.b, n, graph_steps, s);
  const auto t0 = Clock::now();
  g_small.from_b = capture_steps(small.b, small.a, n, graph_steps, s);
  const double capture_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();

  reset_field(small, u0, s);
  take_snapshot(small, pinned, snap_graph.data(), s);
  for (size_t row = 1; row < rows; ++row) {
    advance_graph(small, g_small, every, s);
    take_snapshot(small, pinned, snap_graph.data() + row * n, s);
  }
  WB_CHECK(cudaStreamSynchronize(s));
  WB_CHECK(cudaGetLastError());

  // The error table: largest |u - exact| at each snapshot, for both versions.
  std::vector<double> err_plain(rows, 0.0), err_graph(rows, 0.0);
  std::printf("\n  step        t          max|u - exact| plain   max|u - exact| graph\n");
  for (size_t row = 0; row < rows; ++row) {
    const double t = static_cast<double>(row * every) * dt;
    for (int i = 0; i < n; ++i) {
      const double e = exact(amp, i * dx, t);
      const double dp = std::fabs(snap_plain[row * n + i] - e), dg = std::fabs(snap_graph[row * n + i] - e);
      err_plain[row] = std::isnan(dp) || std::isnan(err_plain[row]) ? NAN : std::max(err_plain[row], dp);
      err_graph[row] = std::isnan(dg) || std::isnan(err_graph[row]) ? NAN : std::max(err_graph[row], dg);
    }
    std::printf("  %7lld  %.4e   %.6e           %.6e%s\n", static_cast<long long>(row * every), t, err_plain[row],
                err_graph[row], err_plain[row] == err_graph[row] ? "" : "   <- differs");
  }
  std::printf("\n");

  // float rounding grows by about 1e-9 a step here (2e-5 after 20,200 steps), far under
  // the tolerance; an end point updated like the interior is off by ~1e-2.
  const double atol = 1e-4 + 2e-9 * static_cast<double>(steps);
  bool ok = wb::compare("plain_vs_cpu", snap_plain.data(), ref.data(), ref.size(), 1e-4, atol, n);
  ok &= wb::compare("graph_vs_cpu", snap_graph.data(), ref.data(), ref.size(), 1e-4, atol, n);
  {
    const size_t diff = bit_differences(snap_plain.data(), snap_graph.data(), snap_plain.size());
    size_t rows_differ = 0;
    for (size_t row = 0; row < rows; ++row) rows_differ += std::memcmp(&err_plain[row], &err_graph[row], sizeof(double)) != 0;
    const std::string text = wb::detail::format(
        "%zu of %zu snapshot values differ in some bit; %zu of %zu rows of the error table differ (the two versions "
        "do the same arithmetic: both must be 0)",
        diff, snap_plain.size(), rows_differ, rows);
    ok &= wb::check("graph_matches_plain", diff == 0 && rows_differ == 0, static_cast<double>(diff), 0.0, text);
  }
  ok &= odd_graph_case(small, u0, pinned, s);
  ok &= wb::check_bounds("bounds_a", small.a);
  ok &= wb::check_bounds("bounds_b", small.b);
  if (std::isfinite(err_graph[rows - 1])) wb::metric("max_err_final", err_graph[rows - 1], "");

  // ---- 2. BIG_N points from a random rod ----------------------------------------------------
  std::printf("BIG_N = %d: %lld steps of each version, %.1f MB per buffer\n", big_n, big_steps, 4e-6 * big_n);
  std::vector<float> big0(big_n);
  wb::fill_uniform(big0.data(), big0.size(), 0.0f, 1.0f, 2);
  big0[0] = big0[big_n - 1] = 0.0f;

  Field big;
  big.n = big_n;
  big.a = wb::alloc_output<float>(big_n);
  big.b = wb::alloc_output<float>(big_n);
  std::vector<float> big_plain(big_n), big_graph(big_n);
  reset_field(big, big0, s);
  advance_plain(big, big_steps, s);
  take_snapshot(big, pinned, big_plain.data(), s);

  StepGraph g_big;
  g_big.steps = graph_steps;
  g_big.from_a = capture_steps(big.a, big.b, big_n, graph_steps, s);
  g_big.from_b = capture_steps(big.b, big.a, big_n, graph_steps, s);
  reset_field(big, big0, s);
  advance_graph(big, g_big, big_steps, s);
  take_snapshot(big, pinned, big_graph.data(), s);
  WB_CHECK(cudaStreamSynchronize(s));
  WB_CHECK(cudaGetLastError());

  // Three windows (both ends, the middle), each from the points within big_steps of it.
  {
    const long long starts[3] = {0, big_n / 2 - kWindow / 2, big_n - kWindow};
    std::vector<float> got;
    std::vector<double> want;
    for (long long lo : starts) {
      const long long ext_lo = std::max(0LL, lo - big_steps);
      const long long ext_hi = std::min<long long>(big_n, lo + kWindow + big_steps);
      std::vector<double> u(big0.begin() + ext_lo, big0.begin() + ext_hi);
      steps_cpu(u, big_steps, ext_lo, big_n, kR);
      want.insert(want.end(), u.begin() + (lo - ext_lo), u.begin() + (lo - ext_lo) + kWindow);
      got.insert(got.end(), big_plain.begin() + lo, big_plain.begin() + lo + kWindow);
    }
    ok &= wb::compare("big_plain_vs_cpu", got.data(), want.data(), want.size(), 1e-5, 1e-5, kWindow);
    const size_t diff = bit_differences(big_plain.data(), big_graph.data(), big_n);
    ok &= wb::check("big_graph_matches_plain", diff == 0, static_cast<double>(diff), 0.0,
                    wb::detail::format("%zu of %d points differ in some bit after %lld steps", diff, big_n, big_steps));
  }
  ok &= wb::check_bounds("big_bounds_a", big.a);
  ok &= wb::check_bounds("big_bounds_b", big.b);

  // ---- 3. Time per step -----------------------------------------------------------------------
  // The launch cost is the subject, so the regions are timed the way a simulation runs:
  // the host issues the loop and CUDA events on s bracket it (no hold kernel, no kernel
  // clock, no L2 flush). gpu_step_us is the exception: its launches are queued behind the
  // hold kernel, so it shows what the GPU needs per step when the host is not the limit.
  if (ok) {
    wb::TimingOptions issued;
    issued.flush_l2 = false;
    issued.hold = false;
    issued.kernel_clock = false;
    issued.stream = s;
    if (wb::quick()) issued.max_time_s = 0.2;
    wb::TimingOptions queued = issued;
    queued.hold = true;

    wb::metric("capture_us", capture_us, "us");
    const int small_blocks = blocks_for(n);
    const wb::Stats empty = per_step_us(wb::time_kernel(
                                            [&] {
                                              for (long long t = 0; t < timed; ++t)
                                                empty_step<<<small_blocks, kThreads, 0, s>>>();
                                            },
                                            issued),
                                        timed);
    wb::metric("empty_us", empty, "us");

    const wb::Stats gpu = wb::time_kernel([&] { launch_step(small.a, small.b, n, s); }, queued);
    wb::metric("gpu_step_us", per_step_us(gpu, 1), "us");
    const wb::Stats plain = wb::time_kernel([&] { advance_plain(small, timed, s); }, issued);
    wb::metric("stream_us", per_step_us(plain, timed), "us");
    const wb::Stats graph = wb::time_kernel([&] { advance_graph(small, g_small, timed, s); }, issued);
    wb::metric("graph_us", per_step_us(graph, timed), "us");
    std::printf("N = %d: a step costs %.2f us launched alone, %.2f us from the graph (%.2fx); the GPU alone needs "
                "%.2f us, a launch %.2f us\n",
                n, plain.median * 1e3 / timed, graph.median * 1e3 / timed, plain.median / graph.median,
                gpu.median * 1e3, empty.median);

    const wb::Stats gpu_big = wb::time_kernel([&] { launch_step(big.a, big.b, big_n, s); }, queued);
    wb::metric("gpu_step_big_us", per_step_us(gpu_big, 1), "us");
    const wb::Stats plain_big = wb::time_kernel([&] { advance_plain(big, timed, s); }, issued);
    wb::metric("stream_big_us", per_step_us(plain_big, timed), "us");
    const wb::Stats graph_big = wb::time_kernel([&] { advance_graph(big, g_big, timed, s); }, issued);
    wb::metric("graph_big_us", per_step_us(graph_big, timed), "us");
    std::printf("N = %d: a step costs %.2f us launched alone, %.2f us from the graph (%.2fx); the GPU alone needs "
                "%.2f us\n",
                big_n, plain_big.median * 1e3 / timed, graph_big.median * 1e3 / timed,
                plain_big.median / graph_big.median, gpu_big.median * 1e3);
  } else {
    std::printf("a check failed: nothing is timed\n");
  }

  for (cudaGraphExec_t e : {g_small.from_a, g_small.from_b, g_big.from_a, g_big.from_b})
    if (e) WB_CHECK(cudaGraphExecDestroy(e));
  wb::free_output(small.a);
  wb::free_output(small.b);
  wb::free_output(big.a);
  wb::free_output(big.b);
  WB_CHECK(cudaFreeHost(pinned));
  WB_CHECK(cudaStreamDestroy(s));
  return wb::finish();
}
