/*
Module 23 lab: one host thread, every GPU of the node. STARTER: device_share,
create_streams, enqueue_split, wait_split, enable_peer and copy_peer (the section
"The split and the peer copy") are yours to write; the kernels, the checks, the timing
and main are complete. As shipped, no device gets a share, c stays NaN and the checks
fail; nothing is timed until they pass.

Goal. Add two vectors, c = a + b, of N floats (N = 2^26 + 3 by default, a size that no
device count and no block size divides) by splitting the job across EVERY GPU that
cudaGetDeviceCount reports, copies included: the end-to-end job a program really pays
for. Then measure how fast two GPUs move data to each other, with peer access enabled
and without it.

  part 1  count the devices and name them (metric gpus)
  part 2  the split add. Each device gets a contiguous share of whole 256-thread blocks
          (only the last share ends in a partial block), its own stream and its own
          buffers; for each device in turn: cudaSetDevice, async copies of its slice of
          a and b from pinned host memory, the kernel, an async copy of its slice of c
          back, all on its stream, without waiting. Only when every device has its work
          queued does the host wait for the streams. The same function run on device 0
          alone is the single-GPU baseline. Metrics: share_devK (fraction of N on device
          K), split_ms and single_ms (host clock around queue + wait, median of REPS),
          split_speedup = single_ms / split_ms; and, to see whether the devices really
          worked at the same time, devK_ms (device K's share run alone) and
          split_overlap = (sum of the devK_ms) / split_ms: G when all G shares ran at
          once, 1 when they took turns.
  part 3  peer to peer, for every ordered pair (i, j): may device i access device j's
          memory (p2p_capable_i_j)? Where it may: a copy of P2P_MB MiB from i to j with
          cudaMemcpyPeerAsync before access is enabled (staged through host memory:
          p2p_off_gbps_i_j), then with access enabled from i to j only
          (p2p_gbps_i_j), the bytes checked. On one GPU the lab prints "n/a (one GPU)"
          and reports no pair figure at all.

The model. A vector add moves 12 bytes for 1 FLOP, so with its copies it is bound by
the PCIe link, not by the GPU: on one GPU the job takes about
    8N / h2d_rate + 4N / d2h_rate (+ 12N / DRAM bandwidth for the kernel, ~1 %)
(a and b in, c out, one after the other on one stream). Split over G GPUs whose links
are independent, each moves 12N/G bytes at the same time: close to G times faster.
If the GPUs sit behind one shared PCIe uplink, the host still pushes the same 12N bytes
through one link: no faster at all. Which of the two a machine is, only a measurement
says; that is what split_speedup is for.

Mistakes the checks catch (the manifest's variants):
  - the block count rounded down (n / 256): the last n % 256 elements belong to no
    device, so the shares do not cover N (split_shares_ok) and c keeps NaN there
    (split_add_ok). This one bites with a single GPU too, which a plain "n / ndev
    elements per device" mistake would not (N / 1 = N).
  - the last share not cut at n: it claims whole blocks past the end (split_shares_ok);
  - a grid rounded down, or a kernel without (or with an off-by-one) bounds guard: the
    tail stays NaN (split_add_ok), or the last block writes past the end of its device's
    output into the canary bands around it (split_add_bounds);
  - a wait that does not wait: the host reads c before the copies land (split_add_ok).
Mistakes that only show with two or more GPUs (no variant: the lab must also run on one):
  - a missing cudaSetDevice before a device's copies and launch: the work is queued on
    whatever device is current, with a stream and pointers of another device, and the
    runtime rejects the launch (invalid resource handle) or, with default streams,
    device 0 does every share;
  - streams created without cudaSetDevice: every stream belongs to device 0;
  - a cudaStreamSynchronize (or a plain cudaMemcpy) inside the issuing loop: each
    device finishes before the next one starts, so split_overlap and split_speedup
    are about 1 even where the links are independent;
  - "n / ndev elements per device": the last n % ndev elements are never computed.

Checks: split_shares_ok (the shares tile [0, N) exactly, in device order),
split_add_ok (all of c equals the CPU's a + b exactly: one float addition rounds the
same way on both), split_add_bounds (no device wrote outside its share of c), and, only
where at least one pair of GPUs could be copied between, p2p_copy_ok (every byte of
every peer copy arrived).

Timing: host clock (std::chrono::steady_clock) around the whole job, after every device
has gone idle, median of REPS runs; no kernel clock: this is several streams on several
devices, copies included. Peer copies: host clock around one copy and a stream
synchronize, median of REPS.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module23/multi_gpu.cu -o multi_gpu && ./multi_gpu

Parameters (NAME=VALUE): N (elements, default 67108867 = 2^26 + 3; 4194307 = 2^22 + 3
with quick=1), REPS (timed repeats, 5; 3 with quick=1), P2P_MB (MiB per peer copy, 256;
32 with quick=1), seed, quick=1.
*/

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "workbook.cuh"

constexpr int kBlock = 256;        // threads per block, and the unit the shares are cut in
constexpr size_t kSlack = 1024;    // spare floats after every input and host buffer (see below)

// The host arrays (pinned) and one device's part of the job.
struct Host {
  float *a = nullptr, *b = nullptr, *c = nullptr;
};

struct DeviceWork {
  int dev = 0;                     // the CUDA device number
  size_t first = 0, count = 0;     // its elements: [first, first + count) of a, b and c
  cudaStream_t stream = nullptr;   // its stream, created on that device
  float *a = nullptr, *b = nullptr, *c = nullptr;  // its buffers, on that device (count floats)
};

// ----------------------------------------------------------------------------
// CPU reference

void add_cpu(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// ----------------------------------------------------------------------------
// Kernels

// Module 4's vector add: one thread per element, guarded, on one device's share.
__global__ void vec_add(const float* a, const float* b, float* c, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// A word that depends on its index and a salt: what the peer copies carry.
__host__ __device__ inline std::uint32_t pattern_word(size_t k, std::uint32_t salt) {
  std::uint32_t x = static_cast<std::uint32_t>(k) * 0x9E3779B1u + salt;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  return x;
}

__global__ void fill_pattern(std::uint32_t* p, size_t words, std::uint32_t salt) {
  for (size_t k = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < words;
       k += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[k] = pattern_word(k, salt);
}

// ============================================================================
// The split and the peer copy: YOUR CODE
// ============================================================================

// Part 2a. Device d's share of n elements split over ndev devices: set first and count
// so that device d works on elements [first, first + count).
void device_share(size_t n, int ndev, int d, size_t& first, size_t& count) {
  // TODO (23.2): until you write this every share is empty, split_shares_ok fails and
  // c is never written (split_add_ok).
  //
  // Contract: the ndev shares of all devices together cover [0, n) exactly once, in
  // device order (device d's share follows device d - 1's); every share is made of
  // whole blocks of kBlock elements except that the last one ends at n; and the shares
  // differ by at most one block. An empty share (count 0) is allowed: a tiny n on many
  // GPUs. split_shares_ok tests all of that for the machine's device count, at
  // N = 2^26 + 3, which is not a multiple of kBlock. Pitfall: cut too short, the last
  // few elements belong to no device, even on a single GPU.
  (void)n, (void)ndev, (void)d, (void)kBlock;
  first = 0;
  count = 0;
}

// Part 2b. One stream per device.
void create_streams(std::vector<DeviceWork>& work) {
  // TODO (23.2): give each w a stream of its own device w.dev in w.stream, every CUDA
  // call inside WB_CHECK(...) (split_add_ok runs them). Pitfall: a stream belongs to
  // the device that is current when it is created; a stream of device 0 used for a
  // launch on device 1 is an error, which only a machine with two GPUs shows.
  (void)work;
}

// Part 2c. Queues every device's work and returns WITHOUT waiting.
void enqueue_split(const Host& h, const std::vector<DeviceWork>& work) {
  // TODO (23.2): queue, for every device with a non-empty share, the job of Module 16's
  // vec_add on its share: its slices of h.a and h.b (from w.first, w.count floats) into
  // w.a and w.b, c = a + b on that device, and w.c back into h.c's slice, all on
  // w.stream, every CUDA call in WB_CHECK(...), the launch checked too. Checks:
  // split_add_ok (c against the CPU at N = 2^26 + 3) and split_add_bounds (c between
  // canary bands). Pitfalls: every call goes to the device that is current at that
  // moment; nothing here may wait (no blocking copy, no synchronize), or the GPUs take
  // turns instead of working together (the host buffers are pinned, so asynchronous
  // copies return at once); a share is rarely a whole number of blocks.
  (void)h, (void)work;
}

// Part 2d. Returns once every device's copy back has landed in host memory.
void wait_split(const std::vector<DeviceWork>& work) {
  // TODO (23.2): return only once everything enqueue_split queued on every device's
  // stream has finished (each CUDA call inside WB_CHECK(...)): the harness reads c right
  // after this returns (split_add_ok). Only here, after everything was queued, does the
  // host wait. Pitfall: waiting on the whole device also waits for work that is not
  // this split's.
  (void)work;
}

// Part 3a. Lets device `from` read and write device `to`'s memory directly.
void enable_peer(int from, int to) {
  // TODO (23.2, peer to peer; it runs only on a machine with two or more GPUs): after
  // this call, device `from` may access device `to`'s memory (p2p_copy_ok). Calling it
  // twice for the same pair must not fail, and leave no error behind for a later
  // check; any other error goes through WB_CHECK. Pitfalls: access is granted to the
  // device that is current at the call; one direction only: from -> to says nothing
  // about to -> from.
  (void)from, (void)to;
}

// Part 3b. Queues a copy of `bytes` from src (on src_dev) to dst (on dst_dev) on stream
// s, which belongs to src_dev.
void copy_peer(void* dst, int dst_dev, const void* src, int src_dev, size_t bytes, cudaStream_t s) {
  // TODO (23.2): queue on stream s the copy of `bytes` bytes from src on device src_dev
  // to dst on device dst_dev, directly between the GPUs, inside WB_CHECK(...). Until
  // then, on two GPUs, p2p_copy_ok fails (the destination keeps its poison) and nothing
  // is timed. Pitfall: the copy must not wait for the host.
  (void)dst, (void)dst_dev, (void)src, (void)src_dev, (void)bytes, (void)s;
}

// ============================================================================
// Harness
// ============================================================================

// Host buffers of n floats plus kSlack, page-locked so that the copies are DMA from
// and to them and cudaMemcpyAsync does not wait for the CPU.
float* alloc_host(size_t n) {
  float* p = nullptr;
  WB_CHECK(cudaMallocHost(&p, (n + kSlack) * sizeof(float)));
  return p;
}

void free_host(float* p) { WB_CHECK(cudaFreeHost(p)); }

void fill_nan(float* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = std::nanf("");
}

// Waits until every device has finished all its work.
void idle_all(int ndev) {
  for (int d = 0; d < ndev; ++d) {
    WB_CHECK(cudaSetDevice(d));
    WB_CHECK(cudaDeviceSynchronize());
  }
}

// Each device's buffers, for its share: inputs with kSlack spare floats (a kernel
// without its guard then reads junk instead of faulting), the output between canary
// bands, poisoned (NaN).
void alloc_buffers(std::vector<DeviceWork>& work) {
  for (DeviceWork& w : work) {
    WB_CHECK(cudaSetDevice(w.dev));
    const size_t bytes = (w.count + kSlack) * sizeof(float);
    WB_CHECK(cudaMalloc(&w.a, bytes));
    WB_CHECK(cudaMalloc(&w.b, bytes));
    WB_CHECK(cudaMemset(w.a, 0, bytes));
    WB_CHECK(cudaMemset(w.b, 0, bytes));
    w.c = wb::alloc_output<float>(w.count);
  }
}

void free_work(std::vector<DeviceWork>& work) {
  for (DeviceWork& w : work) {
    WB_CHECK(cudaSetDevice(w.dev));
    WB_CHECK(cudaDeviceSynchronize());
    if (w.a) WB_CHECK(cudaFree(w.a));
    if (w.b) WB_CHECK(cudaFree(w.b));
    if (w.c) wb::free_output(w.c);
    if (w.stream) WB_CHECK(cudaStreamDestroy(w.stream));
    w = DeviceWork{};
  }
}

// How many 4-byte elements of the canary bands around a wb::alloc_output buffer of
// `count` floats on the current device no longer hold the canary byte: writes before
// the start and past the end of that device's share.
void canary_damage(const float* c, size_t count, size_t& before, size_t& after) {
  std::vector<unsigned char> lo(wb::kCanaryBytes), hi(wb::kCanaryBytes);
  const unsigned char* start = reinterpret_cast<const unsigned char*>(c);
  WB_CHECK(cudaMemcpy(lo.data(), start - wb::kCanaryBytes, wb::kCanaryBytes, cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(hi.data(), start + count * sizeof(float), wb::kCanaryBytes, cudaMemcpyDeviceToHost));
  auto damaged = [](const std::vector<unsigned char>& band) {
    size_t hits = 0;
    for (size_t e = 0; e + sizeof(float) <= band.size(); e += sizeof(float)) {
      bool hit = false;
      for (size_t k = 0; k < sizeof(float); ++k) hit = hit || band[e + k] != wb::kCanaryByte;
      hits += hit ? 1 : 0;
    }
    return hits;
  };
  before = damaged(lo);
  after = damaged(hi);
}

// The shares must follow each other in device order and cover [0, n) exactly once.
bool check_shares(const std::vector<DeviceWork>& work, size_t n) {
  size_t next = 0;
  std::string why;
  for (const DeviceWork& w : work) {
    if (w.first != next && why.empty())
      why = wb::detail::format("device %d starts at %zu, but the share before it ended at %zu", w.dev, w.first, next);
    next = w.first + w.count;
  }
  if (why.empty() && next != n)
    why = wb::detail::format("the shares end at %zu, not at N = %zu: %s", next, n,
                             next < n ? "elements from there on belong to no device (a block count rounded down "
                                        "leaves out the last, partial block)"
                                      : "the last share runs past the end (is it cut at n?)");
  const bool ok = why.empty();
  return wb::check("split_shares_ok", ok, static_cast<double>(next), static_cast<double>(n),
                   ok ? wb::detail::format("%zu devices, contiguous shares covering [0, %zu)", work.size(), n) : why);
}

// Host-clock milliseconds since t0.
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// One timed run of the job `work` describes: every device idle first, then the host
// clock around queue + wait.
double run_job_ms(const Host& h, const std::vector<DeviceWork>& work, int ndev) {
  idle_all(ndev);
  const auto t0 = std::chrono::steady_clock::now();
  enqueue_split(h, work);
  wait_split(work);
  const double ms = ms_since(t0);
  idle_all(ndev);  // not timed: surfaces any error of the run
  return ms;
}

// ---- peer to peer ------------------------------------------------------------------

// Median GB/s of `reps` runs of copy() (bytes each), host clock around the copy and a
// synchronize of stream s (device dev), after one untimed warm-up copy.
template <class F>
double copy_gbps(F&& copy, int dev, cudaStream_t s, size_t bytes, int reps) {
  WB_CHECK(cudaSetDevice(dev));
  copy();
  WB_CHECK(cudaStreamSynchronize(s));
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    WB_CHECK(cudaSetDevice(dev));
    const auto t0 = std::chrono::steady_clock::now();
    copy();
    WB_CHECK(cudaStreamSynchronize(s));
    ms.push_back(ms_since(t0));
  }
  return static_cast<double>(bytes) / (wb::stats_of(ms).median * 1e6);
}

// Turns off i -> j and j -> i access, whichever is on, so that the next pair starts
// from nothing enabled (and its "off" copy really is without peer access).
void disable_peers(int i, int j) {
  for (int k = 0; k < 2; ++k) {
    const int from = k == 0 ? i : j, to = k == 0 ? j : i;
    WB_CHECK(cudaSetDevice(from));
    const cudaError_t err = cudaDeviceDisablePeerAccess(to);
    if (err == cudaErrorPeerAccessNotEnabled) {
      (void)cudaGetLastError();
      continue;
    }
    WB_CHECK(err);
  }
}

struct PeerResult {
  bool copied = false;  // the pair was capable and a copy was checked
  bool ok = true;
  std::string detail;
};

// Part 3 for the ordered pair (i, j): capability, link attributes, the staged copy,
// your enabled copy (checked, then timed).
PeerResult peer_pair(int i, int j, size_t bytes, int reps) {
  PeerResult res;
  int can = 0, atomics = 0;
  WB_CHECK(cudaDeviceCanAccessPeer(&can, i, j));
  WB_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, i, j));
  wb::metric(wb::detail::format("p2p_capable_%d_%d", i, j).c_str(), can, "0/1");
  wb::metric(wb::detail::format("p2p_native_atomics_%d_%d", i, j).c_str(), atomics, "0/1");
  if (!can) {
    std::printf("[p2p]    %d -> %d: no peer access (a cudaMemcpyPeer between them is staged through host memory)\n", i,
                j);
    return res;
  }
  const size_t words = bytes / sizeof(std::uint32_t);
  const std::uint32_t salt = 0x51u + 16u * static_cast<std::uint32_t>(i) + static_cast<std::uint32_t>(j);
  std::uint32_t *src = nullptr, *dst = nullptr;
  cudaStream_t s = nullptr;
  WB_CHECK(cudaSetDevice(j));
  WB_CHECK(cudaMalloc(&dst, bytes));
  WB_CHECK(cudaSetDevice(i));
  WB_CHECK(cudaMalloc(&src, bytes));
  WB_CHECK(cudaStreamCreate(&s));
  fill_pattern<<<1024, 256, 0, s>>>(src, words, salt);
  WB_CHECK_LAUNCH();

  // Without peer access (nothing enabled yet): the driver stages the copy through host
  // memory. The harness's own call, so this figure does not depend on your code.
  const double off = copy_gbps([&] { WB_CHECK(cudaMemcpyPeerAsync(dst, j, src, i, bytes, s)); }, i, s, bytes, reps);
  wb::metric(wb::detail::format("p2p_off_gbps_%d_%d", i, j).c_str(), off, "GB/s");

  // Your enable and copy, into a poisoned destination.
  WB_CHECK(cudaSetDevice(j));
  WB_CHECK(cudaMemset(dst, 0xFF, bytes));
  WB_CHECK(cudaDeviceSynchronize());
  enable_peer(i, j);
  WB_CHECK(cudaSetDevice(i));
  copy_peer(dst, j, src, i, bytes, s);
  WB_CHECK(cudaStreamSynchronize(s));
  std::vector<std::uint32_t> got(words);
  WB_CHECK(cudaMemcpy(got.data(), dst, words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t k = 0; k < words; ++k) bad += got[k] != pattern_word(k, salt) ? 1 : 0;
  res.copied = true;
  res.ok = bad == 0;
  res.detail = res.ok ? wb::detail::format("%d->%d: all %zu bytes arrived", i, j, bytes)
                      : wb::detail::format("%d->%d: %zu of %zu words wrong or missing", i, j, bad, words);
  if (res.ok) {
    const double on = copy_gbps([&] { copy_peer(dst, j, src, i, bytes, s); }, i, s, bytes, reps);
    wb::metric(wb::detail::format("p2p_gbps_%d_%d", i, j).c_str(), on, "GB/s");
    std::printf("[p2p]    %d -> %d: %.1f GB/s with peer access, %.1f GB/s without (%.1fx)\n", i, j, on, off, on / off);
  } else {
    std::printf("[p2p]    %d -> %d: the copy with peer access is wrong: not timed\n", i, j);
  }
  disable_peers(i, j);
  WB_CHECK(cudaSetDevice(i));
  WB_CHECK(cudaStreamDestroy(s));
  WB_CHECK(cudaFree(src));
  WB_CHECK(cudaSetDevice(j));
  WB_CHECK(cudaFree(dst));
  return res;
}

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module23/multi_gpu");
  const long long n_param = wb::param("N", (1LL << 26) + 3, (1LL << 22) + 3);
  const long long reps_param = wb::param("REPS", 5, 3);
  const long long mb_param = wb::param("P2P_MB", 256, 32);
  wb::params_done();
  if (n_param < 1 || n_param > (1LL << 28)) wb::bad_argument("N must be between 1 and 2^28");
  if (reps_param < 1 || reps_param > 100) wb::bad_argument("REPS must be between 1 and 100");
  if (mb_param < 1 || mb_param > 4096) wb::bad_argument("P2P_MB must be between 1 and 4096");
  const size_t n = static_cast<size_t>(n_param);
  const int reps = static_cast<int>(reps_param);
  const size_t p2p_bytes = static_cast<size_t>(mb_param) << 20;

  // ---- Part 1: the devices ---------------------------------------------------------
  int ndev = 0;
  WB_CHECK(cudaGetDeviceCount(&ndev));
  wb::metric("gpus", ndev, "count");
  for (int d = 0; d < ndev; ++d) {
    cudaDeviceProp prop;
    WB_CHECK(cudaGetDeviceProperties(&prop, d));
    std::printf("[gpus]   device %d: %s (cc %d.%d, %d SMs, %.1f GiB)\n", d, prop.name, prop.major, prop.minor,
                prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / 1073741824.0);
  }

  // ---- Part 2: the split add ---------------------------------------------------------
  Host h;
  h.a = alloc_host(n);
  h.b = alloc_host(n);
  h.c = alloc_host(n);
  wb::fill_uniform(h.a, n + kSlack, -1.0f, 1.0f, 1);
  wb::fill_uniform(h.b, n + kSlack, -1.0f, 1.0f, 2);
  std::vector<float> ref(n);
  add_cpu(h.a, h.b, ref.data(), n);

  // The plan: your shares, your streams, the harness's buffers.
  std::vector<DeviceWork> split(ndev);
  for (int d = 0; d < ndev; ++d) {
    split[d].dev = d;
    device_share(n, ndev, d, split[d].first, split[d].count);
    std::printf("[split]  device %d: elements [%zu, %zu), %zu of them (%.4f of N)\n", d, split[d].first,
                split[d].first + split[d].count, split[d].count, static_cast<double>(split[d].count) / n);
    wb::metric(wb::detail::format("share_dev%d", d).c_str(), static_cast<double>(split[d].count) / n, "fraction");
  }
  const bool shares_ok = check_shares(split, n);
  // A share that reaches past the spare floats would copy outside the host buffers.
  bool fits = true;
  for (const DeviceWork& w : split) fits = fits && w.count <= n + kSlack && w.first + w.count <= n + kSlack;

  bool add_ok = false, bounds_ok = false;
  if (fits) {
    alloc_buffers(split);
    create_streams(split);
    fill_nan(h.c, n);
    idle_all(ndev);
    enqueue_split(h, split);
    wait_split(split);
    // Read right after your wait: if it returned early, c is still NaN here.
    add_ok = wb::compare("split_add_ok", h.c, ref.data(), n, 0.0, 0.0);
    size_t before = 0, after = 0;
    std::string where;
    for (const DeviceWork& w : split) {
      WB_CHECK(cudaSetDevice(w.dev));
      WB_CHECK(cudaDeviceSynchronize());
      size_t b = 0, a = 0;
      canary_damage(w.c, w.count, b, a);
      if (a) where += wb::detail::format("%sdevice %d wrote %zu elements past the end of its share", where.empty() ? "" : "; ", w.dev, a);
      if (b) where += wb::detail::format("%sdevice %d wrote %zu elements before its share", where.empty() ? "" : "; ", w.dev, b);
      before += b;
      after += a;
    }
    bounds_ok = wb::check("split_add_bounds", before + after == 0, static_cast<double>(before + after), 0.0,
                          where.empty() ? wb::detail::format("no device wrote outside its share of c (%zu canary bytes either side of each)",
                                                             wb::kCanaryBytes)
                                        : where + ": a missing or off-by-one bounds guard (i < n)");
  } else {
    wb::check("split_add_ok", false, "not run: a share reaches past the end of the arrays (see split_shares_ok)");
    wb::check("split_add_bounds", false, "not run: a share reaches past the end of the arrays (see split_shares_ok)");
  }

  if (shares_ok && add_ok && bounds_ok) {
    // The baseline: the same function, the whole array on device 0 alone.
    std::vector<DeviceWork> single(1);
    single[0].dev = 0;
    single[0].count = n;
    alloc_buffers(single);
    create_streams(single);
    run_job_ms(h, single, ndev);  // warm-up

    // Each share also runs alone (the same buffers and stream, no other device busy):
    // its own time, and what the split would cost if the devices took turns.
    std::vector<std::vector<DeviceWork>> alone;
    for (const DeviceWork& w : split)
      if (w.count > 0) alone.push_back({w});
    std::vector<std::vector<double>> alone_samples(alone.size());
    std::vector<double> split_samples, single_samples;
    for (int r = 0; r < reps; ++r) {  // interleaved, so a drift of the machine hits all alike
      split_samples.push_back(run_job_ms(h, split, ndev));
      single_samples.push_back(run_job_ms(h, single, ndev));
      for (size_t k = 0; k < alone.size(); ++k) alone_samples[k].push_back(run_job_ms(h, alone[k], ndev));
    }
    wb::Stats st_split = wb::stats_of(split_samples), st_single = wb::stats_of(single_samples);
    st_split.clock = st_single.clock = "host";
    wb::metric("split_ms", st_split, "ms");
    wb::metric("single_ms", st_single, "ms");
    wb::metric("split_speedup", st_single.median / st_split.median, "x");
    double sum_alone = 0.0;
    for (size_t k = 0; k < alone.size(); ++k) {
      wb::Stats s = wb::stats_of(alone_samples[k]);
      s.clock = "host";
      wb::metric(wb::detail::format("dev%d_ms", alone[k][0].dev).c_str(), s, "ms");
      sum_alone += s.median;
    }
    // G when the G shares ran fully at the same time, 1 when they took turns.
    wb::metric("split_overlap", sum_alone / st_split.median, "x");
    free_work(single);
  } else {
    std::printf("the split add failed a check: nothing is timed\n");
  }
  if (fits) free_work(split);
  free_host(h.a);
  free_host(h.b);
  free_host(h.c);

  // ---- Part 3: peer to peer ----------------------------------------------------------
  if (ndev < 2) {
    std::printf("[p2p]    n/a (one GPU): peer access needs a second device; no p2p figure is reported\n");
  } else {
    bool any = false, all_ok = true;
    std::string detail;
    for (int i = 0; i < ndev; ++i) {
      for (int j = 0; j < ndev; ++j) {
        if (i == j) continue;
        const PeerResult r = peer_pair(i, j, p2p_bytes, reps);
        if (!r.copied) continue;
        any = true;
        all_ok = all_ok && r.ok;
        detail += (detail.empty() ? "" : "; ") + r.detail;
      }
    }
    if (any) wb::check("p2p_copy_ok", all_ok, detail);
    else std::printf("[p2p]    no pair of devices has peer access: nothing to copy\n");
  }
  WB_CHECK(cudaSetDevice(0));
  return wb::finish();
}
