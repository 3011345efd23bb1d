/*
Module 16 lab: streams and asynchronous copies, a pipelined vector add. STARTER:
alloc_pinned / free_pinned, create_streams / destroy_streams, enqueue_pipeline and
wait_pipeline (the section YOUR CODE) are yours to write; the kernel, the serial version,
the checks, the timing and main are complete.

c = a + b on N = 2^26 floats (268 MB per array). A plain program runs four steps one
after another: a to the GPU, b to the GPU, the kernel, c back. While PCIe moves data the
SMs wait, and while the kernel runs the link is idle. This lab measures that, then cuts
the arrays into segments and gives each segment to one of STREAMS streams, so that the
copy engines (one per direction on most GPUs) and the SMs work at the same time.

  step 1  pageable against pinned copies: H2D of a and b, D2H of c, each direction's GB/s
  step 2  serial (everything queued on the default stream, in order) against the
          pipeline with SEGMENTS segments on STREAMS streams (copies with cudaMemcpyAsync
          from pinned memory, the kernel in the segment's stream)
  step 3  the same pipeline with 1, 2, 4, 8, 16 and 32 segments (pipe_ms_s1 ... _s32)
  model   with separate copy engines the three resources overlap, and the total is the
          busiest one plus one segment's worth of the other two (the ramp):
              T(S) = max(H, K, D) + (H + K + D - max(H, K, D)) / S
          from the H2D (H), kernel (K) and D2H (D) times measured in the same run; the
          runner compares your speed-up with the speed-up this model predicts.

Checks: the serial and the pipelined results equal the CPU's a + b exactly (one float
addition rounds the same way on both processors), and each other; at N_odd = 1,000,003,
which no segment count here divides and which leaves every segment a partial last block,
the serial version and the pipeline with SEGMENTS and with 32 segments, c sitting
between canary bands on the device so that a store past its end fails; the host buffers are really page-locked; the streams exist.

Timing: CUDA events around each whole region (wb::time_kernel with kernel_clock = false:
copies and several streams, so the clock must include everything, not just kernels).
Every region is queued behind the harness's hold kernel and forked from / joined back to
the default stream, so the events bracket all the streams' work. Medians of several runs.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module16/streams_pipeline.cu -o streams_pipeline && ./streams_pipeline
Timeline (where Nsight Systems is installed):
  nsys profile -o pipe --trace=cuda --stats=true ./streams_pipeline

Parameters (NAME=VALUE): N (elements, default 67108864 = 2^26; 4194304 with quick=1),
SEGMENTS (segments of the main pipeline, 4), STREAMS (streams, 4), seed, quick=1.
*/

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int kBlock = 256;
constexpr int kOddN = 1000003;  // = 3906 x 256 + 67; odd for every segment count used here
constexpr int kSlack = 1024;    // spare floats after each input and host buffer (see check_odd)
constexpr int kMaxStreams = 32;

// ----------------------------------------------------------------------------
// CPU reference

void add_ref(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// ----------------------------------------------------------------------------
// The kernel (Module 4): one thread per element

__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Three arrays on one side of the link.
struct Host {
  float *a = nullptr, *b = nullptr, *c = nullptr;
};
struct Device {
  float *a = nullptr, *b = nullptr, *c = nullptr;
};

// The serial version, complete: every operation queued on one stream, so each waits for
// the one before. It is the pattern the pipeline repeats per segment.
void enqueue_serial(const Host& h, const Device& d, int n, cudaStream_t s) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  WB_CHECK(cudaMemcpyAsync(d.a, h.a, bytes, cudaMemcpyHostToDevice, s));
  WB_CHECK(cudaMemcpyAsync(d.b, h.b, bytes, cudaMemcpyHostToDevice, s));
  vec_add<<<(n + kBlock - 1) / kBlock, kBlock, 0, s>>>(d.a, d.b, d.c, n);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaMemcpyAsync(h.c, d.c, bytes, cudaMemcpyDeviceToHost, s));
}

// ============================================================================
// YOUR CODE
// ============================================================================

// Lab step 1. Page-locked (pinned) host memory, which the copy engines can read and
// write directly.
float* alloc_pinned(size_t bytes) {
  // TODO (lab step 1): allocate `bytes` of page-locked host memory with cudaMallocHost,
  // inside WB_CHECK(...), and return it. Until then this hands out ordinary heap memory,
  // the pinned_buffers check fails, and the "pinned" figures are really pageable ones.
  return static_cast<float*>(std::malloc(bytes));
}

void free_pinned(float* p) {
  // TODO (lab step 1): memory from cudaMallocHost goes back with cudaFreeHost (std::free
  // on it is an error), inside WB_CHECK(...).
  std::free(p);
}

// Lab step 2. `count` streams for the pipeline.
void create_streams(cudaStream_t* s, int count) {
  // TODO (lab step 2): create s[0] .. s[count-1] with cudaStreamCreate, each call inside
  // WB_CHECK(...). Until then every entry is 0, the default stream, and streams_ok fails.
  (void)s;
  (void)count;
}

void destroy_streams(cudaStream_t* s, int count) {
  // TODO (lab step 2): cudaStreamDestroy each stream create_streams made.
  (void)s;
  (void)count;
}

// Lab step 2. Queues (does not wait for) the pipeline: the arrays cut into `segments`
// pieces, each with its own copies in, kernel and copy out on one of the streams.
void enqueue_pipeline(const Host& h, const Device& d, int n, int segments, const cudaStream_t* streams,
                      int nstreams) {
  // TODO (lab step 2): until you write this, nothing is copied back, c stays NaN and
  // pipe_ok, pipe_odd and pipe_odd_many fail (and the pipeline is not timed).
  //
  // Goal: the job of enqueue_serial above (a and b in, c = a + b, c out), cut into
  // `segments` contiguous pieces that together cover all n elements, each piece's three
  // stages queued in order on one of the nstreams streams (the pieces taking the
  // streams in turn), so that one piece's copies can overlap another's kernel.
  // Contract: h holds the pinned host arrays, d the device ones, each n floats; every
  // CUDA call in WB_CHECK(...), the launch checked too. Checks: c against the CPU and
  // against the serial version (pipe_ok, pipe_matches_serial), and N = 1,000,003, which
  // none of the segment counts divides, with c between canary bands (pipe_odd,
  // pipe_odd_bounds, pipe_odd_many, pipe_odd_many_bounds).
  // Pitfalls: nothing here may wait (no blocking copy, no synchronize) or touch the
  // default stream, which serialises everything: the harness times this function as
  // it queues and checks the result after wait_pipeline; a piece length rounded down
  // leaves the last elements uncopied; when there are more pieces than elements some
  // are empty; the last piece is shorter than the others.
  (void)h;
  (void)d;
  (void)n;
  (void)segments;
  (void)streams;
  (void)nstreams;
}

// Lab step 2. Returns once every queued operation of the pipeline has finished, so the
// host may read h.c.
void wait_pipeline(const cudaStream_t* streams, int nstreams) {
  // TODO (lab step 2): wait for each of the streams (cudaStreamSynchronize), so the
  // harness reads c only after every copy back has landed. (cudaDeviceSynchronize would
  // work too, but waits for everything on the GPU, not just this pipeline.)
  (void)streams;
  (void)nstreams;
}

// ============================================================================
// Harness
// ============================================================================

// Runs `enqueue` as one region of the default stream: the streams first wait for an
// event recorded there (fork), and at the end the default stream waits for each of them
// (join). The events time_kernel records on the default stream then bracket all the
// work, whatever flags the streams were created with, and consecutive regions never
// overlap one another.
struct ForkJoin {
  cudaEvent_t fork = nullptr;
  std::vector<cudaEvent_t> join;
  const cudaStream_t* streams = nullptr;
  int count = 0;

  ForkJoin(const cudaStream_t* s, int n) : join(n), streams(s), count(n) {
    WB_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    for (cudaEvent_t& e : join) WB_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  ~ForkJoin() {
    cudaEventDestroy(fork);
    for (cudaEvent_t e : join) cudaEventDestroy(e);
  }
  template <class F>
  void run(F&& enqueue) {
    WB_CHECK(cudaEventRecord(fork, 0));
    for (int k = 0; k < count; ++k) WB_CHECK(cudaStreamWaitEvent(streams[k], fork, 0));
    enqueue();
    for (int k = 0; k < count; ++k) {
      WB_CHECK(cudaEventRecord(join[k], streams[k]));
      WB_CHECK(cudaStreamWaitEvent(0, join[k], 0));
    }
  }
};

// Options for a region of copies: events (kernel_clock off), one region per sample, no
// L2 flush (the data crosses PCIe; nothing useful stays in the L2), a few samples.
wb::TimingOptions region_options(bool hold) {
  wb::TimingOptions opt;
  opt.kernel_clock = false;
  opt.flush_l2 = false;
  opt.min_batch_ms = 0.0;
  opt.warmup = 1;
  opt.min_samples = 5;
  opt.max_samples = 30;
  opt.max_time_s = 0.4;
  opt.hold = hold;  // false where the call itself waits for the GPU (pageable copies)
  return opt;
}

double gbps(double bytes, double ms) { return bytes / (ms * 1e6); }

void fill_nan(float* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = std::nanf("");
}

// Page-locked host memory: cudaPointerGetAttributes says cudaMemoryTypeHost.
int count_pinned(const Host& h) {
  int locked = 0;
  for (float* p : {h.a, h.b, h.c}) {
    cudaPointerAttributes attr;
    if (p != nullptr && cudaPointerGetAttributes(&attr, p) == cudaSuccess && attr.type == cudaMemoryTypeHost) ++locked;
    cudaGetLastError();  // an unregistered pointer may leave an error behind on old runtimes
  }
  return locked;
}

// The pipeline (segments > 0) or the serial version (segments == 0) at kOddN elements:
// every segment count here leaves a shorter last segment and every segment a partial
// last block, and the serial launch a partial last block. The inputs (host and device)
// and the host output carry kSlack spare floats, so a launch that runs past the end
// reads and writes mapped memory instead of faulting, and the device output sits between
// canary bands, so the check sees it.
bool check_odd(const char* name, const char* bounds_name, int segments, const cudaStream_t* streams, int nstreams) {
  const int n = kOddN;
  const size_t padded = (static_cast<size_t>(n) + kSlack) * sizeof(float);
  Host h;
  h.a = alloc_pinned(padded);
  h.b = alloc_pinned(padded);
  h.c = alloc_pinned(padded);
  wb::fill_uniform(h.a, n + kSlack, -1.0f, 1.0f, 40 + segments);
  wb::fill_uniform(h.b, n + kSlack, -1.0f, 1.0f, 80 + segments);
  fill_nan(h.c, n + kSlack);
  std::vector<float> ref(n);
  add_ref(h.a, h.b, ref.data(), n);
  Device d;
  WB_CHECK(cudaMalloc(&d.a, padded));
  WB_CHECK(cudaMalloc(&d.b, padded));
  d.c = wb::alloc_output<float>(static_cast<size_t>(n));  // poisoned (NaN), bands armed

  if (segments > 0) {
    enqueue_pipeline(h, d, n, segments, streams, nstreams);
    WB_CHECK(cudaGetLastError());
    wait_pipeline(streams, nstreams);
  } else {
    enqueue_serial(h, d, n, 0);
    WB_CHECK(cudaStreamSynchronize(0));
  }
  const bool values = wb::compare(name, h.c, ref.data(), n, 0.0, 0.0);
  const bool bounds = wb::check_bounds(bounds_name, d.c);

  WB_CHECK(cudaDeviceSynchronize());
  wb::free_output(d.c);
  WB_CHECK(cudaFree(d.a));
  WB_CHECK(cudaFree(d.b));
  free_pinned(h.a);
  free_pinned(h.b);
  free_pinned(h.c);
  return values && bounds;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module16/streams_pipeline");
  const long long n_param = wb::param("N", 1ll << 26, 1ll << 22);
  const long long seg_param = wb::param("SEGMENTS", 4);
  const long long streams_param = wb::param("STREAMS", 4);
  wb::params_done();
  if (n_param < 1 || n_param > (1ll << 28)) wb::bad_argument("N must be between 1 and 268435456");
  if (seg_param < 1 || seg_param > 1024) wb::bad_argument("SEGMENTS must be between 1 and 1024");
  if (streams_param < 1 || streams_param > kMaxStreams) wb::bad_argument("STREAMS must be between 1 and 32");
  const int n = static_cast<int>(n_param), segments = static_cast<int>(seg_param);
  const int nstreams = static_cast<int>(streams_param);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  wb::metric("n", n, "count");

  // How many copies can run at once: 2 or more means one engine per direction, so H2D,
  // D2H and a kernel can all overlap (cudaDevAttrAsyncEngineCount, deviceQuery's
  // "concurrent copy and kernel execution ... with N copy engine(s)").
  int dev = 0, engines = 0;
  WB_CHECK(cudaGetDevice(&dev));
  WB_CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, dev));
  wb::metric("copy_engines", engines, "count");

  // Inputs, fresh from the seed, in pinned memory (your alloc_pinned); the reference.
  Host pinned;
  pinned.a = alloc_pinned(bytes);
  pinned.b = alloc_pinned(bytes);
  pinned.c = alloc_pinned(bytes);
  const int locked = count_pinned(pinned);
  wb::check("pinned_buffers", locked == 3, locked, 3,
            locked == 3 ? "a, b and c are page-locked host memory"
                        : "not page-locked: allocate them with cudaMallocHost (and free them with cudaFreeHost)");
  wb::fill_uniform(pinned.a, n, -1.0f, 1.0f, 1);
  wb::fill_uniform(pinned.b, n, -1.0f, 1.0f, 2);
  std::vector<float> ref(n);
  add_ref(pinned.a, pinned.b, ref.data(), n);

  // The same inputs in ordinary (pageable) memory, for step 1.
  std::vector<float> pa(pinned.a, pinned.a + n), pb(pinned.b, pinned.b + n), pc(n);
  Host pageable;
  pageable.a = pa.data();
  pageable.b = pb.data();
  pageable.c = pc.data();

  Device d;
  WB_CHECK(cudaMalloc(&d.a, bytes + kSlack * sizeof(float)));
  WB_CHECK(cudaMalloc(&d.b, bytes + kSlack * sizeof(float)));
  d.c = wb::alloc_output<float>(static_cast<size_t>(n));

  cudaStream_t streams[kMaxStreams] = {};
  create_streams(streams, nstreams);
  {
    int distinct = 0;
    for (int k = 0; k < nstreams; ++k) {
      bool fresh = streams[k] != nullptr;
      for (int j = 0; j < k && fresh; ++j) fresh = streams[j] != streams[k];
      distinct += fresh ? 1 : 0;
    }
    wb::check("streams_ok", distinct == nstreams, distinct, nstreams,
              distinct == nstreams ? wb::detail::format("%d distinct streams, none of them the default stream", nstreams)
                                   : "create_streams must create STREAMS distinct streams (cudaStreamCreate)");
  }

  // ---- Step 1: copies, pageable against pinned (serial, on the default stream) -------
  // A pageable copy is staged by the CPU through a pinned driver buffer and makes the
  // host wait, so it cannot be queued behind the hold kernel (hold = false).
  double h2d_ms = 0.0, d2h_ms = 0.0;
  {
    const wb::TimingOptions pg = region_options(false), pn = region_options(true);
    const wb::Stats h2d_pg = wb::time_kernel([&] {
      WB_CHECK(cudaMemcpyAsync(d.a, pageable.a, bytes, cudaMemcpyHostToDevice, 0));
      WB_CHECK(cudaMemcpyAsync(d.b, pageable.b, bytes, cudaMemcpyHostToDevice, 0));
    }, pg);
    const wb::Stats d2h_pg = wb::time_kernel([&] {
      WB_CHECK(cudaMemcpyAsync(pageable.c, d.c, bytes, cudaMemcpyDeviceToHost, 0));
    }, pg);
    const wb::Stats h2d_pn = wb::time_kernel([&] {
      WB_CHECK(cudaMemcpyAsync(d.a, pinned.a, bytes, cudaMemcpyHostToDevice, 0));
      WB_CHECK(cudaMemcpyAsync(d.b, pinned.b, bytes, cudaMemcpyHostToDevice, 0));
    }, pn);
    const wb::Stats d2h_pn = wb::time_kernel([&] {
      WB_CHECK(cudaMemcpyAsync(pinned.c, d.c, bytes, cudaMemcpyDeviceToHost, 0));
    }, pn);
    wb::metric("h2d_pageable_ms", h2d_pg, "ms");
    wb::metric("d2h_pageable_ms", d2h_pg, "ms");
    wb::metric("h2d_pinned_ms", h2d_pn, "ms");
    wb::metric("d2h_pinned_ms", d2h_pn, "ms");
    wb::metric("h2d_pageable_bw", gbps(2.0 * bytes, h2d_pg.median), "GB/s");
    wb::metric("d2h_pageable_bw", gbps(1.0 * bytes, d2h_pg.median), "GB/s");
    wb::metric("h2d_pinned_bw", gbps(2.0 * bytes, h2d_pn.median), "GB/s");
    wb::metric("d2h_pinned_bw", gbps(1.0 * bytes, d2h_pn.median), "GB/s");
    h2d_ms = h2d_pn.median;
    d2h_ms = d2h_pn.median;
  }

  // ---- Checks: serial, then the pipeline, at N and at the odd size -------------------
  std::vector<float> serial_c(n);
  bool serial_ok = false;
  {
    fill_nan(pinned.c, n);
    wb::poison_output(d.c);
    enqueue_serial(pinned, d, n, 0);
    WB_CHECK(cudaStreamSynchronize(0));
    serial_ok = wb::compare("serial_ok", pinned.c, ref.data(), n, 0.0, 0.0);
    std::copy(pinned.c, pinned.c + n, serial_c.begin());
  }

  // The host buffers the pipeline uses.
  Host& pipe_host = pinned;
  bool pipe_ok = false;
  {
    fill_nan(pipe_host.c, n);
    wb::poison_output(d.c);
    enqueue_pipeline(pipe_host, d, n, segments, streams, nstreams);
    WB_CHECK(cudaGetLastError());
    wait_pipeline(streams, nstreams);
    // Read right after your wait: if it returned early, c is still NaN here.
    const bool vs_ref = wb::compare("pipe_ok", pipe_host.c, ref.data(), n, 0.0, 0.0);
    const bool vs_serial = wb::compare("pipe_matches_serial", pipe_host.c, serial_c.data(), n, 0.0, 0.0);
    WB_CHECK(cudaDeviceSynchronize());
    pipe_ok = vs_ref && vs_serial;
  }
  const bool serial_odd_ok = check_odd("serial_odd", "serial_odd_bounds", 0, streams, nstreams);
  const bool odd_ok = check_odd("pipe_odd", "pipe_odd_bounds", segments, streams, nstreams);
  const bool odd_many_ok = check_odd("pipe_odd_many", "pipe_odd_many_bounds", 32, streams, nstreams);

  // ---- Step 2: the parts, the serial whole, the pipeline ----------------------------
  double kernel_ms = 0.0, serial_ms = 0.0;
  if (serial_ok) {
    // The kernel alone: one launch per sample after an L2 flush, its own GPU time.
    const wb::Stats k = wb::time_kernel(
        [&] { vec_add<<<(n + kBlock - 1) / kBlock, kBlock>>>(d.a, d.b, d.c, n); });
    wb::metric("kernel_ms", k, "ms");
    const wb::Stats serial = wb::time_kernel([&] { enqueue_serial(pinned, d, n, 0); }, region_options(true));
    wb::metric("serial_ms", serial, "ms");
    kernel_ms = k.median;
    serial_ms = serial.median;

    // Both directions at once on two streams of the harness's own: a and b in, c out.
    // (Its own data: c is simply overwritten.) Compare with h2d + d2h taken in turn.
    cudaStream_t two[2];
    for (cudaStream_t& s : two) WB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ForkJoin fj2(two, 2);
    const wb::Stats both = wb::time_kernel([&] {
      fj2.run([&] {
        WB_CHECK(cudaMemcpyAsync(d.a, pinned.a, bytes, cudaMemcpyHostToDevice, two[0]));
        WB_CHECK(cudaMemcpyAsync(d.b, pinned.b, bytes, cudaMemcpyHostToDevice, two[0]));
        WB_CHECK(cudaMemcpyAsync(pinned.c, d.c, bytes, cudaMemcpyDeviceToHost, two[1]));
      });
    }, region_options(true));
    wb::metric("both_ways_ms", both, "ms");
    for (cudaStream_t s : two) WB_CHECK(cudaStreamDestroy(s));
  } else {
    std::printf("the serial version gave a wrong result: nothing is timed\n");
  }

  if (serial_ok && serial_odd_ok && pipe_ok && odd_ok && odd_many_ok) {
    ForkJoin fj(streams, nstreams);
    auto time_pipeline = [&](int s) {
      return wb::time_kernel([&] { fj.run([&] { enqueue_pipeline(pipe_host, d, n, s, streams, nstreams); }); },
                             region_options(true));
    };
    // ---- Step 3: the sweep ----
    const int sweep[] = {1, 2, 4, 8, 16, 32};
    wb::Stats main_stats;
    bool have_main = false;
    std::vector<double> sweep_ms;
    for (int s : sweep) {
      const wb::Stats st = time_pipeline(s);
      wb::metric(wb::detail::format("pipe_ms_s%d", s).c_str(), st, "ms");
      sweep_ms.push_back(st.median);
      if (s == segments) {
        main_stats = st;
        have_main = true;
      }
    }
    if (!have_main) main_stats = time_pipeline(segments);
    wb::metric("pipe_ms", main_stats, "ms");
    WB_CHECK(cudaDeviceSynchronize());

    // The model, printed for a run by hand (the runner computes the same as derived
    // figures): the busiest resource plus one segment of the other two.
    const double copies = engines >= 2 ? std::max(h2d_ms, d2h_ms) : h2d_ms + d2h_ms;  // one engine: turns
    const double busiest = std::max(copies, kernel_ms);
    const double total = h2d_ms + kernel_ms + d2h_ms;
    std::printf("H2D %.3f ms, kernel %.3f ms, D2H %.3f ms; %d copy engine(s): busiest resource %.3f ms\n", h2d_ms,
                kernel_ms, d2h_ms, engines, busiest);
    std::printf("segments  measured ms  model ms  speed-up over serial (%.3f ms)\n", serial_ms);
    for (size_t i = 0; i < sweep_ms.size(); ++i)
      std::printf("%8d  %11.3f  %8.3f  %.2fx\n", sweep[i], sweep_ms[i], busiest + (total - busiest) / sweep[i],
                  serial_ms / sweep_ms[i]);
    const double model = busiest + (total - busiest) / segments;
    std::printf("%d segments on %d streams: %.3f ms, %.2fx over serial; the model says %.3f ms, %.2fx\n", segments,
                nstreams, main_stats.median, serial_ms / main_stats.median, model, total / model);
  } else {
    std::printf("the pipeline gave a wrong result: it is not timed (the time of a wrong answer means nothing)\n");
  }

  destroy_streams(streams, nstreams);
  wb::free_output(d.c);
  WB_CHECK(cudaFree(d.a));
  WB_CHECK(cudaFree(d.b));
  free_pinned(pinned.a);
  free_pinned(pinned.b);
  free_pinned(pinned.c);
  // Freed page-locked memory is no longer known to CUDA (cudaPointerGetAttributes says
  // unregistered); a free_pinned that leaves it locked leaks it for the process's life.
  const int still = count_pinned(pinned);
  wb::check("pinned_freed", still == 0, still, 0,
            still == 0 ? "a, b and c are no longer page-locked after free_pinned"
                       : "still page-locked after free_pinned: release them with cudaFreeHost");
  return wb::finish();
}
