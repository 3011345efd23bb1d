/*
Module 18 lab: one vector add, four ways to get its data to the GPU. STARTER:
vec_add, explicit_copy_in / explicit_copy_out, managed_alloc, managed_add_then_wait,
prefetch_inputs_to_gpu and prefetch_result_to_host are yours to write (see their TODOs);
the reference, the launchers, the timing and main are complete.

c = a + b over N floats (N = 2^26 by default: three arrays of 256 MiB). The kernel is
the same in every version; only the way a and b reach GPU memory changes:

  1 explicit     cudaMalloc + cudaMemcpy from pageable host arrays. Timed apart: the
                 copy in (H2D), the kernel, the copy out (D2H).
  2 first touch  cudaMallocManaged; the host writes a and b, so their pages live in host
                 memory; the kernel's first accesses fault, and the driver migrates the
                 pages while the warps wait. The kernel's time includes that migration.
  3 prefetch     the same managed arrays, but cudaMemPrefetchAsync moves a and b to the
                 GPU in bulk before the kernel, and c back to the host after it. Timed
                 apart: prefetch in, kernel, prefetch out.
  4 second run   version 2's launch repeated at once: the pages are already in GPU
                 memory, so it runs like version 1's kernel.

A first touch can only be timed once per placement of the pages: repeating the launch
times version 4, not version 2. So every sample of versions 2-4 starts cold: the host
writes a and b again (which pulls their pages back into host memory) and a small kernel
poisons c on the GPU. Each sample is then ONE launch between CUDA events; the reported
figure is the median of REPS such cold samples. Events, not the kernel clock, because the
regions include migrations (and the prefetch regions contain no kernel at all).

Checks, each against a CPU reference on fresh random inputs in [-1, 1]:
  - every version at N and at an odd size (1,000,003 = 3906 x 256 + 67, not a multiple of
    the 256-thread block);
  - the explicit version's output sits between two canary bands (wb::alloc_output), so a
    store past its end is caught at the odd size;
  - the managed results are read by the host through the managed pointer right after your
    managed_add_then_wait(); the lab queues a 50 ms spin kernel in front of the add, so a
    host read that does not wait for the GPU sees the poison instead of a race that
    usually hides.

The lab also reports whether this GPU and OS give concurrent managed access (on-demand
page faulting while the CPU also touches managed memory) and pageable memory access (the
GPU reading plain malloc memory). Without concurrent managed access (Windows, WSL, some
virtual GPUs) there are no GPU page faults: all managed memory moves to the GPU at each
launch, the CPU must not touch it while any kernel runs, and the prefetch to a GPU is
refused; the lab then skips the prefetch timings and says so.

Safety: the lab never asks for more GPU memory than half of what is free (it refuses
larger N), so it never oversubscribes; oversubscription is a reading item (README).

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module18/unified_memory.cu -o unified_memory && ./unified_memory

Parameters (NAME=VALUE): N (elements per array, default 2^26 = 67108864; 2^22 with
quick=1), REPS (cold samples of each managed version, default 3; 2 with quick=1), seed,
quick=1.
*/

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "workbook.cuh"

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

volatile double g_sink = 0.0;  // keeps the host read passes from being optimised away

// ----------------------------------------------------------------------------
// CPU reference

void vec_add_ref(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];  // one float add: the GPU gets the same bits
}

// ----------------------------------------------------------------------------
// Kernels

// The kernel every version runs: one thread per element.
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  // TODO 1 (lab step 1): until you write this, c keeps its NaN poison and every result
  // check fails. The launcher starts ceil(n / 256) blocks of 256 threads: give thread i
  // (block index times block size plus thread index) element i, and let only the threads
  // with i < n store c[i] = a[i] + b[i]. The odd size (1,000,003) leaves 189 threads of
  // the last block without an element; explicit_odd_bounds sees any store they make.
}

// Lab helpers (not yours): fill c with NaN from the GPU, which also places c's pages in
// GPU memory; and keep the GPU busy for a while.
__global__ void poison_kernel(float* c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = __int_as_float(0xffffffff);
}

__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0 = 0, t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

// ----------------------------------------------------------------------------
// Launchers and the four versions' building blocks

constexpr int kBlock = 256;

void launch_vec_add(const float* a, const float* b, float* c, int n, cudaStream_t s) {
  const int blocks = (n + kBlock - 1) / kBlock;
  vec_add<<<blocks, kBlock, 0, s>>>(a, b, c, n);
}

void poison_on_gpu(float* c, int n, cudaStream_t s = 0) {
  poison_kernel<<<1024, kBlock, 0, s>>>(c, n);
}

// Version 1: copy a and b in, and c out (pageable host memory, synchronous copies).
void explicit_copy_in(float* d_a, float* d_b, const float* a, const float* b, size_t n) {
  // TODO 2a: two cudaMemcpy calls (host to device) that fill d_a from a and d_b from b,
  // n floats each, every call wrapped in WB_CHECK(...). cudaMemcpy counts bytes.
}

void explicit_copy_out(float* c, const float* d_c, size_t n) {
  // TODO 2b: one cudaMemcpy (device to host) that brings the n floats of d_c into c.
  // Until you write it, c stays NaN and explicit_ok fails.
}

// Versions 2-4: one allocation that both processors can address.
float* managed_alloc(size_t n) {
  // TODO 3: allocate n floats of managed memory with cudaMallocManaged (in WB_CHECK) and
  // return the pointer: the host and the GPU will both use it. Until you do, versions
  // 2-4 are not run and their checks fail.
  return nullptr;
}

// Version 2 as a program writes it: launch, then make the host wait before it reads c.
void managed_add_then_wait(const float* a, const float* b, float* c, int n) {
  // TODO 4: launch vec_add on the managed arrays with the lab's launch_vec_add, on the
  // default stream, check that the launch was accepted, then make sure
  // the host can read c safely as soon as this function returns. (The lab keeps the GPU
  // busy for 50 ms before your add starts, so a host read that does not wait sees the
  // poison: managed_odd, second_run_odd and managed_ok check exactly that.)
}

// Version 3: move the inputs to GPU dev in bulk, on stream s, before the kernel.
void prefetch_inputs_to_gpu(const float* a, const float* b, size_t n, int dev, cudaStream_t s) {
  // TODO 5a: prefetch all n floats of a and of b to GPU dev, on stream s: two calls of
  // cudaMemPrefetchAsync, in the form your toolkit has (`nvcc --version`; the call changed
  // in CUDA 13, docs/cuda-versions.md):
  //   CUDA 13: cudaMemPrefetchAsync(ptr, bytes, location, 0 /* flags */, stream), where the
  //            location is a cudaMemLocation {type, id}: for a GPU the type is
  //            cudaMemLocationTypeDevice and the id its device number;
  //   CUDA 12: cudaMemPrefetchAsync(ptr, bytes, device, stream), the device an int.
  // To build with both toolkits, let the preprocessor choose the form by the toolkit's
  // CUDART_VERSION (13000 for CUDA 13.0). Until you write it the results are still right,
  // but the kernel pays for page faults: prefetched_kernel_ms lands far above its range.
}

// ...and the result back to host memory after it, so the host's reads do not fault.
void prefetch_result_to_host(const float* c, size_t n, cudaStream_t s) {
  // TODO 5b: one cudaMemPrefetchAsync that moves the n floats of c to host memory on
  // stream s (CUDA 13: location type cudaMemLocationTypeHost, its id ignored; CUDA 12: the
  // device cudaCpuDeviceId).
}

// ----------------------------------------------------------------------------
// main

constexpr double kRtol = 1e-6, kAtol = 1e-6;  // a + b is exact on both sides; this is slack
constexpr unsigned long long kSpinNs = 50ull * 1000 * 1000;

struct Managed {
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  bool ok() const { return a && b && c; }
};

Managed managed_trio(size_t n) {
  Managed m;
  m.a = managed_alloc(n);
  m.b = managed_alloc(n);
  m.c = managed_alloc(n);
  return m;
}

void managed_free(Managed& m) {
  if (m.a) WB_CHECK(cudaFree(m.a));
  if (m.b) WB_CHECK(cudaFree(m.b));
  if (m.c) WB_CHECK(cudaFree(m.c));
  m = Managed{};
}

// Puts the pages where a cold sample starts: a and b written by the host (so they live in
// host memory, whatever happened before), c poisoned (NaN) from the GPU (so it lives in GPU
// memory, like the output buffer of a program that has run before).
void make_cold(const Managed& m, const float* a0, const float* b0, int n) {
  WB_CHECK(cudaDeviceSynchronize());
  std::memcpy(m.a, a0, n * sizeof(float));
  std::memcpy(m.b, b0, n * sizeof(float));
  poison_on_gpu(m.c, n);
  WB_CHECK_LAUNCH();
}

// The managed path as a program uses it: c poisoned by the host, the GPU kept busy for
// 50 ms (on GPUs with concurrent managed access; elsewhere a host access during a kernel
// is a crash, not a race), then your managed_add_then_wait, then the host reads c
// through the managed pointer.
bool check_managed_path(const char* name, const Managed& m, const float* ref, int n, bool concurrent) {
  std::fill(m.c, m.c + n, std::nanf(""));
  if (concurrent) spin_kernel<<<1, 1>>>(kSpinNs);
  managed_add_then_wait(m.a, m.b, m.c, n);
  return wb::compare(name, m.c, ref, static_cast<size_t>(n), kRtol, kAtol);
}

// Copies a device-resident managed c into a cudaMalloc buffer (device to device, so c
// stays where it is), then to the host, and compares.
bool check_on_device(const char* name, const float* c, float* d_check, std::vector<float>& host,
                     const std::vector<float>& ref) {
  const size_t bytes = ref.size() * sizeof(float);
  WB_CHECK(cudaMemcpy(d_check, c, bytes, cudaMemcpyDeviceToDevice));
  WB_CHECK(cudaMemcpy(host.data(), d_check, bytes, cudaMemcpyDeviceToHost));
  return wb::compare(name, host.data(), ref.data(), ref.size(), kRtol, kAtol);
}

wb::Stats event_stats(const std::vector<double>& samples) {
  wb::Stats st = wb::stats_of(samples);
  st.clock = "events";
  return st;
}

float elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0.0f;
  WB_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module18/unified_memory");
  const long long n_param = wb::param("N", 1LL << 26, 1LL << 22);
  const long long reps_param = wb::param("REPS", 3, 2);
  wb::params_done();
  if (n_param < 1024 || n_param > (1LL << 28)) wb::bad_argument("N must be between 1024 and 2^28 = 268435456");
  if (reps_param < 1 || reps_param > 20) wb::bad_argument("REPS must be between 1 and 20");
  const int n = static_cast<int>(n_param), reps = static_cast<int>(reps_param);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  int dev = 0;
  WB_CHECK(cudaGetDevice(&dev));
  int managed = 0, concurrent = 0, pageable = 0, l2 = 0;
  WB_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
  WB_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));
  WB_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, dev));
  WB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  wb::metric("managed_memory", managed, "");
  wb::metric("concurrent_managed_access", concurrent, "");
  wb::metric("pageable_memory_access", pageable, "");
  std::printf("Unified Memory on this GPU and OS:\n"
              "  managed memory            %s\n"
              "  concurrent managed access %s\n"
              "  pageable memory access    %s\n",
              managed ? "yes" : "no (cudaMallocManaged is not available: versions 2-4 cannot run)",
              concurrent ? "yes: GPU page faults migrate pages on demand; CPU and GPU may touch managed memory at once"
                         : "no: managed memory moves to the GPU in bulk at each launch, the CPU must not touch it while "
                           "a kernel runs, and prefetching to a GPU is refused (Windows, WSL, some virtual GPUs)",
              pageable ? "yes: the GPU can even read plain malloc memory (HMM or ATS)"
                       : "no: only managed (or pinned and mapped) host memory is visible to the GPU");

  // Never oversubscribe: the most this lab holds on the GPU at once is the three managed
  // arrays plus a check buffer (or the three explicit arrays), plus the L2 flush buffer.
  {
    size_t free_b = 0, total_b = 0;
    WB_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const double need = 4.0 * bytes + 4.0 * l2 + 2.0 * wb::kCanaryBytes;
    std::printf("GPU memory: %.0f MB free of %.0f MB; this run needs about %.0f MB at once\n", free_b / 1e6,
                total_b / 1e6, need / 1e6);
    if (need > 0.5 * static_cast<double>(free_b))
      wb::bad_argument(wb::detail::format("N=%d needs about %.0f MB of GPU memory at once, more than half of the %.0f "
                                          "MB free; this lab never oversubscribes: choose a smaller N",
                                          n, need / 1e6, free_b / 1e6));
  }

  cudaStream_t stream;
  WB_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t ev[5];
  for (cudaEvent_t& e : ev) WB_CHECK(cudaEventCreate(&e));

  // Inputs (pageable, as a CPU program holds them) and the reference.
  std::vector<float> a0(n), b0(n), ref(n), host_c(n);
  wb::fill_uniform(a0.data(), a0.size(), -1.0f, 1.0f, 0);
  wb::fill_uniform(b0.data(), b0.size(), -1.0f, 1.0f, 1);
  vec_add_ref(a0.data(), b0.data(), ref.data(), ref.size());
  std::printf("N = %d floats: %.1f MB per array; the inputs are %.1f MB, the output %.1f MB\n", n, bytes / 1e6,
              2.0 * bytes / 1e6, bytes / 1e6);

  const char* no_managed = managed ? "not run: managed_alloc returned no memory"
                                   : "not run: this device cannot allocate managed memory";

  // ---- every version at an odd size (untimed) ----
  {
    constexpr int on = 1000003;  // 3906 blocks of 256 and 67 more elements
    const size_t ob = static_cast<size_t>(on) * sizeof(float);
    std::vector<float> ao(on), bo(on), refo(on), co(on, std::nanf(""));
    wb::fill_uniform(ao.data(), ao.size(), -1.0f, 1.0f, 2);
    wb::fill_uniform(bo.data(), bo.size(), -1.0f, 1.0f, 3);
    vec_add_ref(ao.data(), bo.data(), refo.data(), refo.size());

    float *d_a = nullptr, *d_b = nullptr;
    WB_CHECK(cudaMalloc(&d_a, ob));
    WB_CHECK(cudaMalloc(&d_b, ob));
    float* d_c = wb::alloc_output<float>(on);
    explicit_copy_in(d_a, d_b, ao.data(), bo.data(), on);
    launch_vec_add(d_a, d_b, d_c, on, 0);
    WB_CHECK_LAUNCH();
    wb::check_bounds("explicit_odd_bounds", d_c);
    explicit_copy_out(co.data(), d_c, on);
    wb::compare("explicit_odd", co.data(), refo.data(), on, kRtol, kAtol);
    WB_CHECK(cudaFree(d_a));
    WB_CHECK(cudaFree(d_b));
    wb::free_output(d_c);

    Managed m = managed ? managed_trio(on) : Managed{};
    if (m.ok()) {
      std::memcpy(m.a, ao.data(), ob);
      std::memcpy(m.b, bo.data(), ob);
      check_managed_path("managed_odd", m, refo.data(), on, concurrent);     // first touch
      check_managed_path("second_run_odd", m, refo.data(), on, concurrent);  // a and b resident
      std::memcpy(m.a, ao.data(), ob);  // back to host memory
      std::memcpy(m.b, bo.data(), ob);
      std::fill(m.c, m.c + on, std::nanf(""));
      if (concurrent) prefetch_inputs_to_gpu(m.a, m.b, on, dev, stream);
      launch_vec_add(m.a, m.b, m.c, on, stream);
      WB_CHECK(cudaGetLastError());
      if (concurrent) prefetch_result_to_host(m.c, on, stream);
      WB_CHECK(cudaStreamSynchronize(stream));
      wb::compare("prefetch_odd", m.c, refo.data(), on, kRtol, kAtol);
    } else {
      wb::check("managed_odd", false, no_managed);
      wb::check("second_run_odd", false, no_managed);
      wb::check("prefetch_odd", false, no_managed);
    }
    managed_free(m);
  }

  // ---- version 1: explicit copies at N ----
  {
    float *d_a = nullptr, *d_b = nullptr;
    WB_CHECK(cudaMalloc(&d_a, bytes));
    WB_CHECK(cudaMalloc(&d_b, bytes));
    float* d_c = wb::alloc_output<float>(n);

    // Copies: the region is a blocking cudaMemcpy from pageable memory, so no kernel
    // clock and no hold kernel; a few samples of tens of ms each.
    wb::TimingOptions copy_opt;
    copy_opt.kernel_clock = false;
    copy_opt.hold = false;
    copy_opt.flush_l2 = false;
    copy_opt.warmup = 1;
    copy_opt.min_samples = 3;
    copy_opt.max_time_s = 0.5;
    const wb::Stats h2d = wb::time_kernel([&] { explicit_copy_in(d_a, d_b, a0.data(), b0.data(), n); }, copy_opt);

    wb::poison_output(d_c);
    launch_vec_add(d_a, d_b, d_c, n, 0);
    WB_CHECK_LAUNCH();
    wb::check_bounds("explicit_bounds", d_c);
    std::fill(host_c.begin(), host_c.end(), std::nanf(""));
    const wb::Stats d2h = wb::time_kernel([&] { explicit_copy_out(host_c.data(), d_c, n); }, copy_opt);
    wb::compare("explicit_ok", host_c.data(), ref.data(), ref.size(), kRtol, kAtol);

    // The kernel alone: one launch per sample after an L2 flush (at the quick size the
    // three arrays would otherwise fit in a large L2).
    const wb::Stats k = wb::time_kernel([&] { launch_vec_add(d_a, d_b, d_c, n, 0); });
    wb::metric("explicit_h2d_ms", h2d, "ms");
    wb::metric("explicit_kernel_ms", k, "ms");
    wb::metric("explicit_d2h_ms", d2h, "ms");
    WB_CHECK(cudaFree(d_a));
    WB_CHECK(cudaFree(d_b));
    wb::free_output(d_c);
  }

  // ---- versions 2 and 4: managed, no hints; REPS cold samples ----
  Managed m = managed ? managed_trio(n) : Managed{};
  if (m.ok()) {
    float* d_check = nullptr;
    WB_CHECK(cudaMalloc(&d_check, bytes));
    std::vector<double> first, second, readback;
    for (int s = 0; s < reps; ++s) {
      make_cold(m, a0.data(), b0.data(), n);

      // Version 2: the first touch. One launch; its time includes every page fault.
      WB_CHECK(cudaEventRecord(ev[0]));
      launch_vec_add(m.a, m.b, m.c, n, 0);
      WB_CHECK(cudaGetLastError());
      WB_CHECK(cudaEventRecord(ev[1]));
      WB_CHECK(cudaEventSynchronize(ev[1]));
      first.push_back(elapsed_ms(ev[0], ev[1]));
      if (s == 0) check_on_device("first_touch_ok", m.c, d_check, host_c, ref);

      // Nothing touches a or b on the host here: their pages stay in GPU memory.

      // Version 4: the same launch again, c re-poisoned (on the GPU) and the L2 flushed.
      poison_on_gpu(m.c, n);
      wb::flush_l2();
      WB_CHECK(cudaEventRecord(ev[2]));
      launch_vec_add(m.a, m.b, m.c, n, 0);
      WB_CHECK(cudaGetLastError());
      WB_CHECK(cudaEventRecord(ev[3]));
      WB_CHECK(cudaEventSynchronize(ev[3]));
      second.push_back(elapsed_ms(ev[2], ev[3]));
      if (s == reps - 1) check_on_device("second_run_ok", m.c, d_check, host_c, ref);

      // The host reads every element of c: each page it touches faults and moves back.
      WB_CHECK(cudaDeviceSynchronize());
      const auto t0 = Clock::now();
      double sum = 0.0;
      for (int i = 0; i < n; ++i) sum += m.c[i];
      readback.push_back(ms_since(t0));
      g_sink = sum;
    }
    wb::metric("managed_first_ms", event_stats(first), "ms");
    wb::metric("managed_second_ms", event_stats(second), "ms");
    wb::metric("managed_readback_ms", wb::stats_of(readback), "ms");
    WB_CHECK(cudaFree(d_check));

    // The managed program as written: your launch-and-wait, then the host reads c.
    check_managed_path("managed_ok", m, ref.data(), n, concurrent);

    // ---- version 3: managed + prefetch; REPS cold samples ----
    std::vector<double> pf, pk, back;
    if (!concurrent) std::printf("version 3 runs without its prefetches: this GPU and OS refuse them\n");
    for (int s = 0; s < reps; ++s) {
      make_cold(m, a0.data(), b0.data(), n);
      WB_CHECK(cudaEventRecord(ev[0], stream));
      if (concurrent) prefetch_inputs_to_gpu(m.a, m.b, n, dev, stream);
      WB_CHECK(cudaEventRecord(ev[1], stream));
      wb::flush_l2(stream);
      WB_CHECK(cudaEventRecord(ev[2], stream));
      launch_vec_add(m.a, m.b, m.c, n, stream);
      WB_CHECK(cudaGetLastError());
      WB_CHECK(cudaEventRecord(ev[3], stream));
      if (concurrent) prefetch_result_to_host(m.c, n, stream);
      WB_CHECK(cudaEventRecord(ev[4], stream));
      WB_CHECK(cudaStreamSynchronize(stream));
      pf.push_back(elapsed_ms(ev[0], ev[1]));
      pk.push_back(elapsed_ms(ev[2], ev[3]));
      back.push_back(elapsed_ms(ev[3], ev[4]));
      if (s == reps - 1) wb::compare("prefetch_ok", m.c, ref.data(), ref.size(), kRtol, kAtol);
    }
    if (concurrent) {
      wb::metric("prefetch_ms", event_stats(pf), "ms");
      wb::metric("prefetched_kernel_ms", event_stats(pk), "ms");
      wb::metric("prefetch_back_ms", event_stats(back), "ms");
    } else {
      std::printf("prefetch_ms, prefetched_kernel_ms, prefetch_back_ms: not measured (cudaMemPrefetchAsync to a GPU "
                  "needs concurrent managed access)\n");
    }
  } else {
    for (const char* name : {"first_touch_ok", "second_run_ok", "managed_ok", "prefetch_ok"})
      wb::check(name, false, no_managed);
  }
  managed_free(m);

  std::printf("\nThe four kernel times are above (explicit_kernel_ms, managed_first_ms, prefetched_kernel_ms,\n"
              "managed_second_ms): compare them with your predicted order, then the transfers around them.\n");

  for (cudaEvent_t& e : ev) WB_CHECK(cudaEventDestroy(e));
  WB_CHECK(cudaStreamDestroy(stream));
  return wb::finish();
}
