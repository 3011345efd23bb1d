/*
Module 9 lab: 1D heat diffusion, a stencil with one kernel launch per time step. STARTER:
heat_step and the buffer swap in run_steps are yours to write (see the two TODOs);
everything else is complete.

A rod of N = 1024 points starts cold (0) except for a hot block of 10 points in the
middle (indices 507 ... 516 set to 1). Each time step moves every interior point toward
the mean of its two neighbours,

    u_next[i] = u[i] + alpha * (u[i-1] - 2 u[i] + u[i+1]),   alpha = 0.25,

while the two end points keep their value (a fixed boundary). Two device buffers take
turns as input and output: the kernel reads one and writes the other, then the host
swaps the two pointers. Consecutive launches on one stream run in order, so each
launch boundary is the barrier between steps.

The lab runs the workbook's 1000 steps and, every 250 steps, compares the whole field
with a CPU reference in double and reports the peak value and the total heat (the sum,
which must stay 10). Then it checks the kernel on a second, random rod of 1,000,003
points: not a multiple of the block size, and 3,907 blocks, more than any GPU holds at
once, so the grid runs in several waves. Both of its buffers sit between canary bands
(wb::alloc_output), so a write past either end of the rod fails a check.

Finally it times TIMED_STEPS back-to-back steps at N = 1024 and at N = BIG_N, and the
same number of launches of an empty kernel: the cost of a launch on this machine,
measured in the same run, is the yardstick for both step times.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module09/heat.cu -o heat && ./heat

Parameters (NAME=VALUE): BIG_N (size of the large timing, default 2^20, 2^16 with
quick=1), TIMED_STEPS (steps per timed batch, default 1000, 100 with quick=1), seed
(random rod), quick=1 (small sizes, for a smoke run).
*/

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "workbook.cuh"

// The workbook's simulation: fixed, so the reported peaks can be checked exactly.
constexpr int kSimN = 1024;        // points on the rod
constexpr int kSimSteps = 1000;    // time steps
constexpr int kReportEvery = 250;  // copy back and report every this many steps
constexpr float kAlpha = 0.25f;    // stable for alpha <= 0.5
constexpr int kHotFirst = kSimN / 2 - 5, kHotCount = 10;  // u = 1 on 507 ... 516
constexpr int kRandomN = 1000003;  // points of the random-rod check: 3906 full blocks + 67
constexpr int kRandomSteps = 10;   // steps of the random-rod check
constexpr int kThreads = 256;      // threads per block

// ----------------------------------------------------------------------------
// CPU reference

// One step in double precision; the ends keep their value.
void heat_step_cpu(const std::vector<double>& u, std::vector<double>& next, double alpha) {
  const size_t n = u.size();
  next[0] = u[0];
  next[n - 1] = u[n - 1];
  for (size_t i = 1; i + 1 < n; ++i) next[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

void heat_steps_cpu(std::vector<double>& u, int steps, double alpha) {
  std::vector<double> next(u.size());
  for (int t = 0; t < steps; ++t) {
    heat_step_cpu(u, next, alpha);
    u.swap(next);
  }
}

// ----------------------------------------------------------------------------
// GPU kernel

// One thread per point: reads u (the field at step t), writes u_next (step t + 1).
__global__ void heat_step(const float* u, float* u_next, int n, float alpha) {
  // TODO (Module 9.2): write one time step. Until you do, u_next stays poisoned (NaN)
  // and every field_* check fails.
  //
  // Contract: u holds the n temperatures of the rod at time t, u_next receives all n at
  // t + 1 by the explicit heat update of the reading (section 2) with coefficient alpha;
  // one thread per point, on a grid rounded up to whole blocks. The ends of the rod are
  // a fixed boundary: their temperatures never change. Checks: the field after 250 ...
  // 1000 steps against the CPU (field_*), the total heat (sum_conserved), and a random
  // rod whose size is not a multiple of the block, between canary bands
  // (random_big, random_big_bounds_*).
  // Pitfalls: a point's new value must come from its neighbours' OLD values, whatever
  // order the threads run in; the ends have a single neighbour (left unwritten, their
  // poison creeps inward a point a step); the spare threads of the last block.
  (void)u, (void)u_next, (void)n, (void)alpha;  // remove once you use them
}

// ----------------------------------------------------------------------------
// Launchers (enqueue only; the caller checks and synchronizes)

void launch_heat_step(const float* u, float* u_next, int n) {
  const int blocks = (n + kThreads - 1) / kThreads;  // round up: the last block may be partial
  heat_step<<<blocks, kThreads>>>(u, u_next, n, kAlpha);
}

// Does nothing. Launched TIMED_STEPS times in a row with the grid of an N = 1024 step,
// it measures what issuing one launch costs on this machine.
__global__ void empty_step() {}

// Advances the field by `steps` steps. On entry *cur holds the field and *next is
// scratch; on return *cur points at the newest field (the two may have traded places).
void run_steps(float** cur, float** next, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    launch_heat_step(*cur, *next, n);
    // TODO (Module 9.2): after the launch, this step's output must become the next
    // step's input, and *cur must point at the newest field when the loop ends
    // (field_1000, sum_conserved). Without it every launch recomputes step 1 from the
    // same field. Pitfall: copying the field costs a pass over memory a step; no copy
    // is needed.
  }
}

// ----------------------------------------------------------------------------
// main

struct FieldStats {
  double max, sum;
};

FieldStats stats_of_field(const std::vector<float>& u) {
  FieldStats s{-INFINITY, 0.0};
  for (float v : u) {
    s.max = std::fmax(s.max, static_cast<double>(v));  // fmax skips NaN unless all are NaN
    s.sum += v;
  }
  for (float v : u)
    if (!std::isfinite(v)) s.max = s.sum = NAN;  // one bad value spoils both
  return s;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module09/heat");
  const long long big_param = wb::param("BIG_N", 1 << 20, 1 << 16);
  const long long timed_param = wb::param("TIMED_STEPS", 1000, 100);
  wb::params_done();
  if (big_param < 1024 || big_param > (1LL << 28)) wb::bad_argument("BIG_N must be between 1024 and 2^28");
  if (timed_param < 1 || timed_param > 100000) wb::bad_argument("TIMED_STEPS must be between 1 and 100000");
  const int big_n = static_cast<int>(big_param);
  const int timed_steps = static_cast<int>(timed_param);
  wb::metric("big_n", big_n, "count");

  // ---- 1. The workbook's simulation, checked every 250 steps -------------------------
  std::vector<float> h(kSimN, 0.0f);
  for (int i = kHotFirst; i < kHotFirst + kHotCount; ++i) h[i] = 1.0f;
  std::vector<double> ref(h.begin(), h.end());
  const double heat0 = kHotCount;  // the sum the rod starts with

  // Both buffers sit between canary bands: a kernel that reads u[-1] or u[n] (an end
  // point treated like the interior) then reads a harmless tiny number instead of
  // memory that may not exist. At 1024 points the grid fits the rod exactly, so no
  // write can land past the end here; the random rod below checks that.
  float* d_a = wb::alloc_output<float>(kSimN);
  float* d_b = wb::alloc_output<float>(kSimN);  // poisoned: every point of every step must be written
  WB_CHECK(cudaMemcpy(d_a, h.data(), kSimN * sizeof(float), cudaMemcpyHostToDevice));
  float *cur = d_a, *next = d_b;

  bool sim_ok = true;
  double worst_drift = 0.0;  // largest |sum - 10| seen
  for (int t = kReportEvery; t <= kSimSteps; t += kReportEvery) {
    run_steps(&cur, &next, kSimN, kReportEvery);
    WB_CHECK_LAUNCH();
    heat_steps_cpu(ref, kReportEvery, kAlpha);
    WB_CHECK(cudaMemcpy(h.data(), cur, kSimN * sizeof(float), cudaMemcpyDeviceToHost));

    // 1000 steps of float rounding leave errors near 1e-6; far-away points are tiny in
    // both versions, so atol covers them. A wrong index or a missed swap is off by 1e-2.
    const std::string field_name = "field_" + std::to_string(t);
    sim_ok &= wb::compare(field_name.c_str(), h.data(), ref.data(), kSimN, 1e-4, 1e-6);
    const FieldStats s = stats_of_field(h);
    std::printf("after %4d steps: peak %.4f, total heat %.2f\n", t, s.max, s.sum);
    if (std::isfinite(s.max)) {
      wb::metric(("max_" + std::to_string(t)).c_str(), s.max, "");
      worst_drift = std::fmax(worst_drift, std::fabs(s.sum - heat0));
    } else {
      worst_drift = NAN;
    }
    if (t == kSimSteps && std::isfinite(s.sum)) wb::metric("sum_1000", s.sum, "");
  }
  // Heat only leaves through the ends, and after 1000 steps the profile there is still
  // ~1e-100: the sum must stay 10 up to float rounding.
  wb::check("sum_conserved", worst_drift <= 1e-3, worst_drift, 1e-3, "largest |sum - 10| over the reported steps");

  // ---- 2. A random rod of 1,000,003 points, between canary bands ------------------
  // The last block has 67 of its 256 threads on the rod, and the grid (3,907 blocks)
  // is larger than what any GPU runs at once, so blocks of later waves read values
  // that earlier waves have already stored. Both buffers are written (they take turns),
  // so both carry canary bands; a guard that lets thread i == n through, or a launch
  // without a guard, writes past the end of the rod and fails random_big_bounds_*.
  std::vector<float> r0(kRandomN);  // fresh values in [0, 1]
  wb::fill_uniform(r0.data(), r0.size(), 0.0f, 1.0f, 1);
  std::vector<double> rref(r0.begin(), r0.end());
  heat_steps_cpu(rref, kRandomSteps, kAlpha);

  float* d_c = wb::alloc_output<float>(kRandomN);  // poisoned (NaN), canary bands armed
  float* d_d = wb::alloc_output<float>(kRandomN);
  WB_CHECK(cudaMemcpy(d_c, r0.data(), kRandomN * sizeof(float), cudaMemcpyHostToDevice));
  float *rcur = d_c, *rnext = d_d;
  run_steps(&rcur, &rnext, kRandomN, kRandomSteps);
  WB_CHECK_LAUNCH();
  std::vector<float> r(kRandomN);
  WB_CHECK(cudaMemcpy(r.data(), rcur, kRandomN * sizeof(float), cudaMemcpyDeviceToHost));
  bool rand_ok = wb::compare("random_big", r.data(), rref.data(), kRandomN, 1e-5, 1e-6);
  rand_ok &= wb::check_bounds("random_big_bounds_a", d_c);
  rand_ok &= wb::check_bounds("random_big_bounds_b", d_d);
  wb::free_output(d_c);
  wb::free_output(d_d);

  // ---- 3. Time per step, against the time of one launch ------------------------------
  // A step is timed the way a simulation runs it: the host issues TIMED_STEPS launches
  // one after another and the GPU runs them as they arrive. The lab does NOT queue the
  // batch behind a hold kernel (opt.hold = false): holding would let the GPU run the
  // steps from a full queue and hide exactly the launch cost this lab is about. The
  // empty kernel is timed the same way, so empty_us is what one launch costs here.
  // No L2 flush between steps: a real simulation runs them back to back, so whatever
  // the cache keeps from one step helps the next.
  if (sim_ok && rand_ok) {
    wb::TimingOptions opt;
    opt.flush_l2 = false;
    opt.hold = false;
    const int small_blocks = (kSimN + kThreads - 1) / kThreads;
    const wb::Stats empty = wb::time_kernel(
        [&] {
          for (int t = 0; t < timed_steps; ++t) empty_step<<<small_blocks, kThreads>>>();
        },
        opt);
    const double empty_us = empty.median * 1e3 / timed_steps;
    wb::metric("empty_us", empty_us, "us");
    std::printf("empty kernel: %.2f us per launch (batch of %d: median %.3f ms)\n", empty_us, timed_steps, empty.median);

    const wb::Stats small = wb::time_kernel([&] { run_steps(&cur, &next, kSimN, timed_steps); }, opt);
    const double small_us = small.median * 1e3 / timed_steps;
    wb::metric("step_us_small", small_us, "us");
    std::printf("N = %d: %.2f us per step (batch of %d: median %.3f ms)\n", kSimN, small_us, timed_steps, small.median);

    // Two plain buffers of BIG_N points, both holding a random rod, so no step of the
    // batch reads poison.
    std::vector<float> big0(big_n);
    wb::fill_uniform(big0.data(), big0.size(), 0.0f, 1.0f, 2);
    float *d_e = nullptr, *d_f = nullptr;
    WB_CHECK(cudaMalloc(&d_e, static_cast<size_t>(big_n) * sizeof(float)));
    WB_CHECK(cudaMalloc(&d_f, static_cast<size_t>(big_n) * sizeof(float)));
    WB_CHECK(cudaMemcpy(d_e, big0.data(), big0.size() * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(d_f, big0.data(), big0.size() * sizeof(float), cudaMemcpyHostToDevice));
    float *bcur = d_e, *bnext = d_f;
    const wb::Stats big = wb::time_kernel([&] { run_steps(&bcur, &bnext, big_n, timed_steps); }, opt);
    const double big_us = big.median * 1e3 / timed_steps;
    wb::metric("step_us_big", big_us, "us");
    std::printf("N = %d: %.2f us per step (batch of %d: median %.3f ms), %.0f GB/s moved\n", big_n, big_us,
                timed_steps, big.median, 8.0 * big_n / (big_us * 1e3));
    WB_CHECK(cudaFree(d_e));
    WB_CHECK(cudaFree(d_f));
  } else {
    std::printf("a check failed: the step time is not measured\n");
  }

  wb::free_output(d_a);
  wb::free_output(d_b);
  return wb::finish();
}
