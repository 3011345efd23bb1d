/*
Module 10 lab: Amdahl's law, measured. STARTER: relax_kernel below is yours to write
(see its TODO); everything else is complete.

A two-stage program over N floats x[i] (fresh random values in [0, 1]):

  stage 1, serial    m = exponential moving average of x:
                       m[i] = beta * m[i-1] + (1 - beta) * x[i]
                     every element needs the one before it (a recurrence, Module 10.4),
                     so it stays on the CPU: the "pit" of the peach
  stage 2, parallel  out[i] = y after K relaxation steps y <- a*y + (1-a)*m[i], from
                     y = 1; every element is independent: the "flesh", 2K FLOPs each

Two versions of the whole program are timed:

  cpu-only   stage 1 and stage 2 on one CPU core (stage 2 written so the compiler can
             use SIMD: the CPU gets a fair chance, Module 10.3)
  hybrid     stage 1 on the CPU, copy m to the GPU, stage 2 as a kernel, copy out back

The lab also times every piece on its own: stage 1, stage 2 on the CPU, the kernel and
the two copies. From those the runner computes Amdahl's law in Module 4's notation: s,
the serial fraction (stage 1's share of the CPU-only time), and p, how many times
faster the parallel part became (stage 2 on one core over the kernel); the predicted
overall speed-up 1 / (s + (1 - s) / p) is set beside the one measured end to end.

The kernel is checked twice: at N, inside the whole hybrid program, and on its own at
1,000,003 elements (not a multiple of the block) into an output between canary bands,
so a write past the end fails a check.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module10/amdahl.cu -o amdahl && ./amdahl

Parameters (NAME=VALUE): N (elements, default 2^22, 2^16 with quick=1), K (relaxation
steps per element, default 128, 16 with quick=1), REPEATS (CPU timings are the median of
this many runs, default 7, 3 with quick=1), seed (random input), quick=1.
*/

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "workbook.cuh"

constexpr float kBeta = 0.9f;    // weight of the previous value in the moving average
constexpr float kRelax = 0.97f;  // a: how slowly y moves toward m in stage 2
constexpr int kThreads = 256;
// The size of the second kernel check: no block size divides it (1000003 is prime).
constexpr int kOddN = 1000003;
// Its input gets this many spare elements past the end, so a kernel without its guard
// reads junk there instead of faulting; the canary check on the output names the mistake.
constexpr int kInputSlack = 1024;

// ----------------------------------------------------------------------------
// CPU code: the serial stage (used by both programs) and the CPU version of stage 2

// Stage 1. A first-order recurrence: each iteration waits for the previous one, so the
// loop runs at the latency of a multiply and an add per element, whatever the CPU.
void moving_average_cpu(const float* x, float* m, int n) {
  float acc = x[0];
  for (int i = 0; i < n; ++i) {
    acc = kBeta * acc + (1.0f - kBeta) * x[i];
    m[i] = acc;
  }
}

// Stage 2 on the CPU. Done in chunks of 512 elements with the K loop outside the element
// loop: the inner loop then has independent iterations, which the compiler turns into
// SIMD instructions. (Written element by element, the K steps of one element form a
// chain that the compiler cannot vectorize, and the CPU version would be ~10x slower:
// an unfair baseline.)
void relax_cpu(const float* m, float* out, int n, int k_steps) {
  constexpr int kChunk = 512;
  float y[kChunk], c[kChunk];
  for (int base = 0; base < n; base += kChunk) {
    const int len = std::min(kChunk, n - base);
    for (int j = 0; j < len; ++j) {
      y[j] = 1.0f;
      c[j] = (1.0f - kRelax) * m[base + j];
    }
    for (int k = 0; k < k_steps; ++k)
      for (int j = 0; j < len; ++j) y[j] = kRelax * y[j] + c[j];
    for (int j = 0; j < len; ++j) out[base + j] = y[j];
  }
}

// ----------------------------------------------------------------------------
// GPU kernel: stage 2, one thread per element

__global__ void relax_kernel(const float* m, float* out, int n, int k_steps, float a) {
  // TODO (Module 10.3): write stage 2 for one element. Until you do, out stays poisoned
  // (NaN), kernel_n, pipeline_n and kernel_odd fail, and nothing is timed.
  //
  // 1. The element index i from the block index, block size and thread index; threads
  //    with i >= n do nothing (the grid is rounded up to whole blocks, and kernel_odd
  //    uses a size no block divides, with canary bands after the output).
  // 2. Compute c = (1 - a) * m[i] once, start from y = 1.0f, and repeat k_steps times
  //    y = a * y + c (the same steps as relax_cpu, one element at a time).
  // 3. Store y in out[i].
  (void)m, (void)out, (void)n, (void)k_steps, (void)a;  // remove once you use them
}

// ----------------------------------------------------------------------------
// Launcher (enqueue only)

void launch_relax(const float* d_m, float* d_out, int n, int k_steps) {
  const int blocks = (n + kThreads - 1) / kThreads;  // round up: the last block may be partial
  relax_kernel<<<blocks, kThreads>>>(d_m, d_out, n, k_steps, kRelax);
}

// ----------------------------------------------------------------------------
// main

// Median wall time of `reps` runs of f, in ms (host clock; f must finish its own work).
template <class F>
wb::Stats time_host(F&& f, int reps) {
  f();  // warm-up: first touch of the pages, caches, clocks
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return wb::stats_of(ms);
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module10/amdahl");
  const long long n_param = wb::param("N", 1 << 22, 1 << 16);
  const long long k_param = wb::param("K", 128, 16);
  const long long reps_param = wb::param("REPEATS", 7, 3);
  wb::params_done();
  if (n_param < 1024 || n_param > (1LL << 27)) wb::bad_argument("N must be between 1024 and 2^27");
  if (k_param < 1 || k_param > 100000) wb::bad_argument("K must be between 1 and 100000");
  if (reps_param < 1 || reps_param > 1000) wb::bad_argument("REPEATS must be between 1 and 1000");
  const int n = static_cast<int>(n_param), k_steps = static_cast<int>(k_param);
  const int reps = static_cast<int>(reps_param);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  // Pinned host buffers: both programs use the same memory, and the copies run at the
  // full speed of the bus.
  float *x = nullptr, *m = nullptr, *out_cpu = nullptr, *out_gpu = nullptr;
  WB_CHECK(cudaMallocHost(&x, bytes));
  WB_CHECK(cudaMallocHost(&m, bytes));
  WB_CHECK(cudaMallocHost(&out_cpu, bytes));
  WB_CHECK(cudaMallocHost(&out_gpu, bytes));
  wb::fill_uniform(x, n, 0.0f, 1.0f, 0);
  float *d_m = nullptr, *d_out = nullptr;
  WB_CHECK(cudaMalloc(&d_m, bytes));
  WB_CHECK(cudaMalloc(&d_out, bytes));

  // ---- correctness: the kernel, then the whole hybrid program -------------------------
  // Reference: the CPU program in double would differ from both float versions by the
  // same rounding, so the float CPU program is the reference. Each step contracts the
  // error by a = 0.97, so FMA-vs-separate rounding stays within ~30 ulp (4e-6).
  moving_average_cpu(x, m, n);
  relax_cpu(m, out_cpu, n, k_steps);

  WB_CHECK(cudaMemcpy(d_m, m, bytes, cudaMemcpyHostToDevice));
  wb::poison(d_out, bytes);
  launch_relax(d_m, d_out, n, k_steps);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(out_gpu, d_out, bytes, cudaMemcpyDeviceToHost));
  bool kernel_ok = wb::compare("kernel_n", out_gpu, out_cpu, n, 1e-4, 1e-6);

  // The kernel alone at an odd size: fresh inputs in [0, 1], an output between canary
  // bands. 1000003 = 3906 x 256 + 67, so the last block has 189 threads past the end.
  {
    std::vector<float> m_odd(kOddN), ref_odd(kOddN), got_odd(kOddN);
    wb::fill_uniform(m_odd.data(), kOddN, 0.0f, 1.0f, 1);
    relax_cpu(m_odd.data(), ref_odd.data(), kOddN, k_steps);
    float* d_m_odd = nullptr;
    WB_CHECK(cudaMalloc(&d_m_odd, (kOddN + kInputSlack) * sizeof(float)));
    WB_CHECK(cudaMemset(d_m_odd, 0, (kOddN + kInputSlack) * sizeof(float)));
    WB_CHECK(cudaMemcpy(d_m_odd, m_odd.data(), kOddN * sizeof(float), cudaMemcpyHostToDevice));
    float* d_out_odd = wb::alloc_output<float>(kOddN);  // poisoned (NaN), canary bands armed
    launch_relax(d_m_odd, d_out_odd, kOddN, k_steps);
    WB_CHECK_LAUNCH();
    WB_CHECK(cudaMemcpy(got_odd.data(), d_out_odd, kOddN * sizeof(float), cudaMemcpyDeviceToHost));
    kernel_ok &= wb::compare("kernel_odd", got_odd.data(), ref_odd.data(), kOddN, 1e-4, 1e-6);
    kernel_ok &= wb::check_bounds("kernel_odd_bounds", d_out_odd);
    wb::free_output(d_out_odd);
    WB_CHECK(cudaFree(d_m_odd));
  }

  // The hybrid program as it is timed below, from x to out_gpu.
  auto hybrid = [&] {
    moving_average_cpu(x, m, n);
    WB_CHECK(cudaMemcpy(d_m, m, bytes, cudaMemcpyHostToDevice));
    launch_relax(d_m, d_out, n, k_steps);
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaMemcpy(out_gpu, d_out, bytes, cudaMemcpyDeviceToHost));  // waits for the kernel
  };
  wb::poison(d_out, bytes);
  std::fill(out_gpu, out_gpu + n, 0.0f);
  hybrid();
  WB_CHECK_LAUNCH();
  const bool pipeline_ok = wb::compare("pipeline_n", out_gpu, out_cpu, n, 1e-4, 1e-6);

  if (!(kernel_ok && pipeline_ok)) {
    std::printf("a check failed: nothing is timed (the time of a wrong answer means nothing)\n");
    return wb::finish();
  }

  // ---- the pieces --------------------------------------------------------------------
  const wb::Stats serial = time_host([&] { moving_average_cpu(x, m, n); }, reps);
  wb::metric("serial_ms", serial, "ms");
  const wb::Stats par_cpu = time_host([&] { relax_cpu(m, out_cpu, n, k_steps); }, reps);
  wb::metric("par_cpu_ms", par_cpu, "ms");
  const wb::Stats kernel = wb::time_kernel([&] { launch_relax(d_m, d_out, n, k_steps); });
  wb::metric("kernel_ms", kernel, "ms");

  wb::TimingOptions copy_opt;
  copy_opt.flush_l2 = false;
  copy_opt.kernel_clock = false;  // copies, not kernels: CUDA events
  const wb::Stats copies = wb::time_kernel(
      [&] {
        WB_CHECK(cudaMemcpyAsync(d_m, m, bytes, cudaMemcpyHostToDevice, 0));
        WB_CHECK(cudaMemcpyAsync(out_gpu, d_out, bytes, cudaMemcpyDeviceToHost, 0));
      },
      copy_opt);
  wb::metric("copy_ms", copies, "ms");

  // ---- the two whole programs, end to end ----------------------------------------------
  const wb::Stats cpu_total = time_host(
      [&] {
        moving_average_cpu(x, m, n);
        relax_cpu(m, out_cpu, n, k_steps);
      },
      reps);
  wb::metric("cpu_total_ms", cpu_total, "ms");
  const wb::Stats hybrid_total = time_host(hybrid, reps);
  wb::metric("hybrid_total_ms", hybrid_total, "ms");

  // Amdahl's law in Module 4's notation: s the serial fraction, p the speed-up of the
  // rest; overall speed-up 1 / (s + (1 - s) / p).
  const double s_frac = serial.median / (serial.median + par_cpu.median);
  const double p_speedup = par_cpu.median / kernel.median;
  std::printf("s (serial fraction) %.3f, p (kernel over one core) %.0fx: Amdahl predicts %.2fx; measured %.2fx\n",
              s_frac, p_speedup, 1.0 / (s_frac + (1.0 - s_frac) / p_speedup), cpu_total.median / hybrid_total.median);

  WB_CHECK(cudaFree(d_m));
  WB_CHECK(cudaFree(d_out));
  WB_CHECK(cudaFreeHost(x));
  WB_CHECK(cudaFreeHost(m));
  WB_CHECK(cudaFreeHost(out_cpu));
  WB_CHECK(cudaFreeHost(out_gpu));
  return wb::finish();
}
