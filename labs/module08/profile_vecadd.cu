/*
Module 8 lab: where does a vector add spend its time? STARTER: vec_add, alloc_pinned,
free_pinned and the NVTX ranges of copy_in, add_and_wait and copy_out, in the section
YOUR CODE, are yours to complete (see the TODOs).

c = a + b on N = 2^24 floats (64 MiB per array), in three phases, each timed on its
own with CUDA events:

  H2D     copy a and b to the GPU       2 x 4N bytes over PCIe
  kernel  c = a + b, element by element 3 x 4N bytes through DRAM (read a, b; write c)
  D2H     copy c back                   4N bytes over PCIe

once from ordinary (pageable) host memory and once from page-locked (pinned) host
memory. From the medians it reports the effective PCIe bandwidth of each copy, the
share of the total that is copying, and the kernel's DRAM bandwidth; the runner turns
that into a percentage of your GPU's DRAM bandwidth.

You write, in the section YOUR CODE:
  - the kernel (vec_add);
  - the pinned allocation (alloc_pinned / free_pinned);
  - the NVTX ranges of the lab's step 1: "H2D copy", "kernel" and "D2H copy", one in
    each of the three phase functions copy_in, add_and_wait and copy_out, so that
    nsys --trace=cuda,nvtx shows the phases by name.
Checks: the result of each path equals a + b exactly (IEEE-754 rounds a single float
addition identically on the two processors, Module 7.3), also at N = 1,000,003 (not a
multiple of the block) with nothing stored past the end of c (canary bands); the pinned
path's buffers really are page-locked; and every phase of every round opened and
closed its range, the kernel's only after the kernel had finished.

How the lab sees your ranges: NVTX hands its calls to whichever tool registers first.
Under nsys that is nsys; run on its own, the lab registers itself (NVTX's static
injection hook, InitializeInjectionNvtx2_fnptr) and logs each push and pop, asking the
GPU at each pop whether the work queued before it has finished. Under nsys or another
NVTX tool the lab cannot see the ranges: it says so and leaves the nvtx_ranges check out
(nsys's nvtx_sum table shows them instead).

Method: fresh random inputs in [-1, 1] from the seed; the device output is poisoned
(NaN) before the checked run and the host output filled with NaN before it is copied
back; one untimed round first (warm-up, module load, first touch of every page); then
REPS timed rounds, median per phase. The kernel is timed separately with
wb::time_kernel: one launch per sample right after an L2 flush (so neither data left in
the L2 nor the previous launch's dirty lines of c change the figure), median; the
kernel's own duration from CUPTI where it loads, CUDA events otherwise.

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
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int kThreadsPerBlock = 256;

// ============================================================================
// YOUR CODE
// ============================================================================

// c = a + b on the first n elements, one element per thread.
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  // TODO (Module 6): compute this thread's global index, return when it is >= n (the
  // launch below rounds the block count up), and store a[i] + b[i] into c[i]. Until
  // then c keeps its poison (NaN), the vecadd_* checks fail and the kernel is not
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

// TODO (Module 8): release it with the call that matches the allocation above (memory
// from cudaMallocHost goes back through cudaFreeHost, checked too).
void free_pinned(float* p) { std::free(p); }

// The three phases of one round. The harness calls them in this order and times each
// with CUDA events of its own; the NVTX ranges are for nsys (and for the check).
//
// TODO (Module 8, lab step 1): label each phase for nsys. Open a range with
// nvtxRangePushA("name") at the start of the phase and close it with nvtxRangePop() at
// its end; the names are "H2D copy", "kernel" and "D2H copy". The kernel's range must
// also contain the cudaDeviceSynchronize(): NVTX ranges are timed on the CPU, and a
// range around the launch alone ends long before the kernel does. The nvtx_ranges
// check fails until all three are in place.

// Phase 1: a and b to the GPU.
void copy_in(float* d_a, float* d_b, const float* h_a, const float* h_b, size_t bytes) {
  WB_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
}

// Phase 2: the kernel, and the wait for it.
void add_and_wait(const float* d_a, const float* d_b, float* d_c, int n) {
  launch_vec_add(d_a, d_b, d_c, n);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaDeviceSynchronize());
}

// Phase 3: c back to the host.
void copy_out(float* h_c, const float* d_c, size_t bytes) {
  WB_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
}

// ============================================================================
// Harness
// ============================================================================

// ----------------------------------------------------------------------------
// The NVTX probe: the lab as its own (tiny) NVTX tool.

namespace probe {

struct Event {
  bool push = false;
  std::string name;          // pushes: the range's message ("" when not ASCII text)
  bool gpu_idle = false;     // pops: the work queued on the default stream had finished
};

std::vector<Event>& events() {
  static std::vector<Event> list;
  return list;
}
bool g_attached = false;  // NVTX called our initializer (no other tool took the calls)

int on_pop() {
  Event e;
  // Non-blocking: cudaSuccess when everything queued on the legacy default stream
  // (which the phases use) has finished, cudaErrorNotReady while the kernel still runs.
  const cudaError_t q = cudaStreamQuery(0);
  e.gpu_idle = q == cudaSuccess;
  if (q == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();  // ours: clear it
  events().push_back(e);
  return 0;
}
int on_push(const char* message) {
  Event e;
  e.push = true;
  e.name = message ? message : "";
  events().push_back(e);
  return static_cast<int>(events().size());
}
const char* ascii_of(const nvtxEventAttributes_t* a) {
  return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : nullptr;
}
int push_a(const char* message) { return on_push(message); }
int push_ex(const nvtxEventAttributes_t* a) { return on_push(ascii_of(a)); }
int pop() { return on_pop(); }
int domain_push_ex(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) { return on_push(ascii_of(a)); }  // nvtx3::scoped_range
int domain_pop(nvtxDomainHandle_t) { return on_pop(); }

template <class F>
void set_entry(NvtxFunctionTable table, unsigned size, unsigned id, F* f) {
  if (table && id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(f);
}

// Called by NVTX on its first call, when no tool was named in NVTX_INJECTION64_PATH.
int attach(NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
  NvtxFunctionTable core = nullptr, core2 = nullptr;
  unsigned core_size = 0, core2_size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size)) return 0;
  set_entry(core, core_size, NVTX_CBID_CORE_RangePushA, push_a);
  set_entry(core, core_size, NVTX_CBID_CORE_RangePushEx, push_ex);
  set_entry(core, core_size, NVTX_CBID_CORE_RangePop, pop);
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size)) {
    set_entry(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, domain_push_ex);
    set_entry(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, domain_pop);
  }
  g_attached = true;
  return 1;
}

// Another NVTX tool (nsys, ncu) is named in the environment: it gets the calls, not us.
bool other_tool() {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  return path && *path;
}

void install() { InitializeInjectionNvtx2_fnptr = attach; }

// What is wrong with the events one phase produced ("" when nothing): exactly one range,
// named `want`, opened and closed; for the kernel, closed only once the GPU was idle.
std::string phase_problem(const char* want, std::size_t from, bool must_end_idle) {
  const auto& ev = events();
  const std::size_t count = ev.size() - from;
  int pushes = 0, pops = 0;
  for (std::size_t k = from; k < ev.size(); ++k) (ev[k].push ? pushes : pops) += 1;
  if (count == 0) return wb::detail::format("no NVTX range in the \"%s\" phase", want);
  if (pushes != 1 || pops != 1 || !ev[from].push)
    return wb::detail::format("the \"%s\" phase opened %d and closed %d ranges (want exactly one of each)", want, pushes,
                              pops);
  if (ev[from].name != want)
    return wb::detail::format("the \"%s\" phase's range is named \"%s\"", want, ev[from].name.c_str());
  if (must_end_idle && !ev[from + 1].gpu_idle)
    return wb::detail::format("the \"%s\" range closed while the kernel was still running: synchronize before "
                              "nvtxRangePop, or the range times only the launch",
                              want);
  return "";
}

}  // namespace probe

// Collects the phase problems of every round, for one check at the end.
struct RangeReport {
  int phases = 0, bad = 0;
  std::string first;
  void note(const std::string& problem) {
    ++phases;
    if (problem.empty()) return;
    ++bad;
    if (first.empty()) first = problem;
  }
};

struct Device {
  float *a = nullptr, *b = nullptr, *c = nullptr;
};

struct PhaseStats {
  wb::Stats h2d, d2h;
};

// One round through the three phase functions; when events are given, they bracket the
// copies (ev[0..1] the H2D phase, ev[2..3] the D2H phase).
void one_round(const float* ha, const float* hb, float* hc, const Device& d, int n, cudaEvent_t* ev,
               RangeReport& ranges) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  if (ev) WB_CHECK(cudaEventRecord(ev[0]));
  std::size_t mark = probe::events().size();
  copy_in(d.a, d.b, ha, hb, bytes);
  ranges.note(probe::phase_problem("H2D copy", mark, false));
  if (ev) WB_CHECK(cudaEventRecord(ev[1]));

  mark = probe::events().size();
  add_and_wait(d.a, d.b, d.c, n);
  ranges.note(probe::phase_problem("kernel", mark, true));
  WB_CHECK(cudaDeviceSynchronize());  // whatever the phase did, the kernel is done before the copy back is timed

  if (ev) WB_CHECK(cudaEventRecord(ev[2]));
  mark = probe::events().size();
  copy_out(hc, d.c, bytes);
  ranges.note(probe::phase_problem("D2H copy", mark, false));
  if (ev) {
    WB_CHECK(cudaEventRecord(ev[3]));
    WB_CHECK(cudaEventSynchronize(ev[3]));
  }
}

// One memory kind: check the result once, then time REPS rounds of the two copies.
// Returns whether the result was right.
bool run_kind(const char* kind, float* ha, float* hb, float* hc, const Device& d, int n, int reps, unsigned stream,
              PhaseStats& out, RangeReport& ranges) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  wb::fill_uniform(ha, n, -1.0f, 1.0f, stream);
  wb::fill_uniform(hb, n, -1.0f, 1.0f, stream + 1);
  std::vector<float> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = ha[i] + hb[i];

  // Untimed, checked round (also the warm-up: first touch of every page, module load).
  wb::poison(d.c, bytes);
  std::memset(hc, 0xFF, bytes);  // NaN on the host too, until the copy back lands
  one_round(ha, hb, hc, d, n, nullptr, ranges);
  WB_CHECK(cudaGetLastError());
  const std::string name = std::string("vecadd_") + kind;
  const bool ok = wb::compare(name.c_str(), hc, ref.data(), n, 0.0, 0.0);

  // Timed rounds: events around each copy phase, on the default stream. The kernel
  // runs between them (so the rounds are the whole program) but is timed on its own.
  cudaEvent_t ev[4];
  for (cudaEvent_t& e : ev) WB_CHECK(cudaEventCreate(&e));
  std::vector<double> h2d, d2h;
  for (int r = 0; r < reps; ++r) {
    one_round(ha, hb, hc, d, n, ev, ranges);
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

// The kernel at a size that is not a multiple of the block (1,000,003 = 3906 x 256 +
// 67): every element right, nothing stored past the end of c (canary bands).
bool check_odd_size() {
  const int n = 1000003;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> ha(n), hb(n), hc(n), ref(n);
  wb::fill_uniform(ha.data(), n, -1.0f, 1.0f, 30);
  wb::fill_uniform(hb.data(), n, -1.0f, 1.0f, 31);
  for (int i = 0; i < n; ++i) ref[i] = ha[i] + hb[i];
  // The inputs get 1,024 floats of slack, so that a kernel without its guard reads
  // mapped memory past n (and the canaries after c see its stores) instead of faulting.
  float *da = nullptr, *db = nullptr;
  WB_CHECK(cudaMalloc(&da, bytes + 1024 * sizeof(float)));
  WB_CHECK(cudaMalloc(&db, bytes + 1024 * sizeof(float)));
  float* dc = wb::alloc_output<float>(static_cast<size_t>(n));
  WB_CHECK(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));
  launch_vec_add(da, db, dc, n);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(hc.data(), dc, bytes, cudaMemcpyDeviceToHost));
  const bool values = wb::compare("vecadd_odd", hc.data(), ref.data(), n, 0.0, 0.0);
  const bool bounds = wb::check_bounds("vecadd_odd_bounds", dc);
  wb::free_output(dc);
  WB_CHECK(cudaFree(da));
  WB_CHECK(cudaFree(db));
  return values && bounds;
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
  probe::install();  // before the first NVTX call
  wb::init_cuda(argc, argv, "module08/profile_vecadd");
  const long long n_param = wb::param("N", 1ll << 24, 1ll << 20);
  const long long reps_param = wb::param("REPS", 10, 3);
  wb::params_done();
  if (n_param < 1 || n_param > (1ll << 28)) wb::bad_argument("N must be between 1 and 268435456");
  if (reps_param < 1 || reps_param > 1000) wb::bad_argument("REPS must be between 1 and 1000");
  const int n = static_cast<int>(n_param), reps = static_cast<int>(reps_param);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  wb::metric("n", n, "count");

  const bool odd_ok = check_odd_size();

  Device d;
  WB_CHECK(cudaMalloc(&d.a, bytes));
  WB_CHECK(cudaMalloc(&d.b, bytes));
  WB_CHECK(cudaMalloc(&d.c, bytes));

  // Pageable: ordinary heap memory. The driver copies it through a pinned staging
  // buffer of its own, chunk by chunk.
  PhaseStats pageable, pinned;
  RangeReport ranges;
  bool pageable_ok = false, pinned_ok = false;
  {
    std::vector<float> a(n), b(n), c(n);
    pageable_ok = run_kind("pageable", a.data(), b.data(), c.data(), d, n, reps, 10, pageable, ranges);
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
    if (a && b && c) pinned_ok = run_kind("pinned", a, b, c, d, n, reps, 20, pinned, ranges);
    free_pinned(a);
    free_pinned(b);
    free_pinned(c);
  }

  // The NVTX ranges of lab step 1, as the probe saw them.
  if (probe::other_tool()) {
    wb::skip_check("nvtx_ranges", "another NVTX tool (NVTX_INJECTION64_PATH: nsys, compute-sanitizer) receives the "
                                  "ranges, so the lab cannot see them: read them in that tool's NVTX summary");
  } else {
    const bool ok = ranges.bad == 0 && probe::g_attached;
    std::string detail;
    if (ok)
      detail = wb::detail::format("%d phases, each in its own range (H2D copy, kernel, D2H copy); every kernel range "
                                  "closed after its kernel finished",
                                  ranges.phases);
    else if (!probe::g_attached)
      detail = "no NVTX call at all: wrap each phase in nvtxRangePushA(\"...\") / nvtxRangePop()";
    else
      detail = wb::detail::format("%d of %d phases wrong; first: %s", ranges.bad, ranges.phases, ranges.first.c_str());
    wb::check("nvtx_ranges", ok, detail);
  }

  const double copies_pageable = report_copies("pageable", pageable, n);
  const double copies_pinned = report_copies("pinned", pinned, n);

  // The kernel, on its own: 12 bytes per element must cross DRAM. Each sample is one
  // launch right after an L2 flush. Smaller N (the quick 2^20 is 12.6 MB) would sit in
  // the L2 otherwise; and at 2^24 (201 MB) back-to-back launches would each pay for
  // the dirty lines of c the previous one left in the L2 (about 8 % on an H200 against
  // Nsight Compute, which flushes too).
  if (pageable_ok && pinned_ok && odd_ok) {
    const wb::Stats k = wb::time_kernel([&] { launch_vec_add(d.a, d.b, d.c, n); });  // cold: flushed L2
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
