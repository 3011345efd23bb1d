/*
Module 6 lab: map threads to data, in 1D and in 2D. STARTER: grid_1d, map_1d, grid_2d
and map_2d in the section YOUR CODE are yours to fix (see the TODOs).

Instead of reading printf lines in whatever order the blocks happen to run, this lab
has every thread log what it did into device buffers, and then counts:

  1D  N = 20 elements, TPB = 8 threads per block. How many blocks are launched, how
      many threads exist, and which global indices have no element to work on?
  2D  a 5 x 7 matrix (H rows, W columns) with 4 x 4 blocks. What is the grid, how many
      threads do work (the 35 lines the workbook's printf kernel prints), and how many
      elements does block (1, 1) handle?

You write the grid sizes (grid_1d, grid_2d) and the index + guard in the two kernels.
The kernels report through two harness helpers: note_launched() marks that a thread
ran, do_work_1d / do_work_2d record which element it handled (refusing, and counting,
indices outside the data) and return the element's result, which the kernel stores in
out[] like any kernel stores its output. out[] sits between two canary bands
(wb::alloc_output), so a store past its end is caught by a check (bounds_*) and never
lands in memory the lab still needs.

Checks, for the small cases and for the workbook's larger ones (N = 263,149 with
TPB = 256; a 1000 x 600 image with 16 x 16 blocks):
  grid_*   the number of blocks launched is the rounded-up one
  cover_*  every element handled exactly once, no thread outside the data, and every
           out[] element holding its result
  index_*  element i handled by global thread i (1D); in 2D, element (r, c) by the
           thread whose global x index is the column c and whose global y index is
           the row r, stored row-major (x -> column)
  large_1d, large_2d   all three at the larger sizes
  bounds_1d, bounds_2d, bounds_large_1d, bounds_large_2d   nothing stored outside out[]
All four sizes leave the last block (in 2D, the last row and column of blocks) partly
idle, so a grid that rounds down and a missing or off-by-one guard both show.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common labs/module06/thread_mapping.cu -o thread_mapping && ./thread_mapping

Parameters (NAME=VALUE): N (20), TPB (8), W (7), H (5), B (block edge, 4), seed,
quick=1 (same sizes: the lab is tiny).
*/

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// ----------------------------------------------------------------------------
// Harness: the per-thread log (device side)

struct Trace {
  int* launched;      // [capacity]: 1 for every thread that ran, by flat thread id
  int* worked;        // [capacity]: the element a thread handled, or -1 (idle)
  int* times_done;    // [elements]: how many threads handled each element
  int* owner;         // [elements]: flat id of the thread that handled it
  int* out_of_range;  // [1]: attempts to work on an element outside the data
  long long capacity;
  int elements;
};

// Flat id of the calling thread: blocks numbered x first, then y; threads likewise.
__device__ long long flat_thread_id() {
  const long long block = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
  const long long in_block = static_cast<long long>(threadIdx.y) * blockDim.x + threadIdx.x;
  return block * (blockDim.x * blockDim.y) + in_block;
}

__device__ void note_launched(const Trace& t) {
  const long long f = flat_thread_id();
  if (f < t.capacity) t.launched[f] = 1;
}

__device__ void record(const Trace& t, int element) {
  const long long f = flat_thread_id();
  atomicAdd(&t.times_done[element], 1);
  t.owner[element] = static_cast<int>(f);
  if (f < t.capacity) t.worked[f] = element;
}

// Element i of a 1D array of n. Returns the element's result, i (-1 when i is outside
// the data: refused and counted).
__device__ int do_work_1d(const Trace& t, int i, int n) {
  if (i < 0 || i >= n) {
    atomicAdd(t.out_of_range, 1);
    return -1;
  }
  record(t, i);
  return i;
}

// Element (r, c) of an H x W row-major matrix, stored at idx. Returns the element's
// result: its row-major position r * W + c, computed here from r and c, so a kernel
// that stores it anywhere but out[r * W + c] leaves a wrong value (-1 when (r, c) is
// outside the matrix: refused and counted).
__device__ int do_work_2d(const Trace& t, int r, int c, int idx, int W, int H) {
  if (r < 0 || r >= H || c < 0 || c >= W || idx < 0 || idx >= W * H) {
    atomicAdd(t.out_of_range, 1);
    return -1;
  }
  record(t, idx);
  return r * W + c;
}

// ============================================================================
// YOUR CODE: grid sizes and thread indices
// ============================================================================

// Blocks for n elements with tpb threads per block: enough to cover every element.
int grid_1d(int n, int tpb) {
  // TODO (6.3): return how many blocks of tpb threads to launch so that each of the n
  // elements has a thread (grid_1d, cover_1d; n = 20 and 263,149 are not multiples of
  // tpb). Pitfall: n / tpb alone leaves the last n % tpb elements without a thread.
  return n / tpb;
}

// One thread per element i < n; its result goes to out[i].
__global__ void map_1d(Trace t, int* out, int n) {
  note_launched(t);
  // TODO (6.2, 6.3): give each thread of the whole grid its own element: global thread
  // i handles element i (index_1d), so no two blocks may share an element. The grid
  // has spare threads in its last block; they must do no work and store nothing, since
  // out has exactly n elements between canary bands (cover_1d, bounds_1d).
  // Pitfall: threadIdx.x is the position inside one block only.
  const int i = threadIdx.x;
  out[i] = do_work_1d(t, i, n);
}

// Grid for an H x W matrix with b x b blocks: x covers the columns, y the rows.
dim3 grid_2d(int W, int H, int b) {
  // TODO (6.5): the 2D grid that covers all W columns (x) and H rows (y) with b x b
  // blocks, neither dimension short (grid_2d; 7 x 5 with b = 4, 1000 x 600 with 16).
  return dim3(W / b, H / b);
}

// One thread per element (r, c) of an H x W row-major matrix; its result goes to
// out[r * W + c].
__global__ void map_2d(Trace t, int* out, int W, int H) {
  note_launched(t);
  // TODO (6.5): as map_1d in two dimensions: the thread's global x position is its
  // column c, its global y position its row r (index_2d), and a thread outside the
  // H x W matrix does nothing (cover_2d, bounds_2d). Pitfall: a spare thread can be
  // outside in x, in y or in both, and r * W + c of one outside in x alone still
  // lands inside out[], on another row's element.
  const int c = threadIdx.x;
  const int r = threadIdx.y;
  const int idx = r * W + c;  // row-major: row * width + column
  out[idx] = do_work_2d(t, r, c, idx, W, H);
}

// ============================================================================
// Harness (host side)
// ============================================================================

// The log on the host after a launch.
struct Log {
  dim3 grid, block;
  std::vector<int> launched, worked, times_done, owner;
  std::vector<int> out;       // the kernel's output, one result per element
  int* d_out = nullptr;       // ...still on the device, between canary bands, until
                              // bounds_check() has read them and freed it
  int out_of_range = 0;
  long long threads_run = 0;  // threads that noted their launch
  bool too_big = false;
};

constexpr long long kMaxThreads = 64ll << 20;

template <class Launch>
Log run_logged(dim3 grid, dim3 block, int elements, Launch launch) {
  Log log;
  log.grid = grid;
  log.block = block;
  const long long capacity = static_cast<long long>(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
  if (capacity <= 0 || capacity > kMaxThreads || grid.z != 1 || block.z != 1) {
    log.too_big = true;  // an empty, absurd or 3D grid: do not launch
    return log;
  }
  Trace t{};
  t.capacity = capacity;
  t.elements = elements;
  const size_t cap = static_cast<size_t>(capacity), el = static_cast<size_t>(elements);
  WB_CHECK(cudaMalloc(&t.launched, cap * sizeof(int)));
  WB_CHECK(cudaMalloc(&t.worked, cap * sizeof(int)));
  WB_CHECK(cudaMalloc(&t.times_done, el * sizeof(int)));
  WB_CHECK(cudaMalloc(&t.owner, el * sizeof(int)));
  WB_CHECK(cudaMalloc(&t.out_of_range, sizeof(int)));
  WB_CHECK(cudaMemset(t.launched, 0, cap * sizeof(int)));
  WB_CHECK(cudaMemset(t.worked, 0xFF, cap * sizeof(int)));  // -1: idle until it works
  WB_CHECK(cudaMemset(t.times_done, 0, el * sizeof(int)));
  WB_CHECK(cudaMemset(t.owner, 0xFF, el * sizeof(int)));
  WB_CHECK(cudaMemset(t.out_of_range, 0, sizeof(int)));

  log.d_out = wb::alloc_output<int>(el);  // interior poisoned: every int is -1
  launch(t, log.d_out);
  WB_CHECK_LAUNCH();

  log.launched.resize(cap);
  log.worked.resize(cap);
  log.times_done.resize(el);
  log.owner.resize(el);
  WB_CHECK(cudaMemcpy(log.launched.data(), t.launched, cap * sizeof(int), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(log.worked.data(), t.worked, cap * sizeof(int), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(log.times_done.data(), t.times_done, el * sizeof(int), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(log.owner.data(), t.owner, el * sizeof(int), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(&log.out_of_range, t.out_of_range, sizeof(int), cudaMemcpyDeviceToHost));
  log.out.resize(el);
  WB_CHECK(cudaMemcpy(log.out.data(), log.d_out, el * sizeof(int), cudaMemcpyDeviceToHost));
  for (int v : log.launched) log.threads_run += v;
  WB_CHECK(cudaFree(t.launched));
  WB_CHECK(cudaFree(t.worked));
  WB_CHECK(cudaFree(t.times_done));
  WB_CHECK(cudaFree(t.owner));
  WB_CHECK(cudaFree(t.out_of_range));
  return log;
}

long long threads_per_block(const Log& g) { return static_cast<long long>(g.block.x) * g.block.y; }
long long blocks_run(const Log& g) { return g.threads_run / threads_per_block(g); }
long long idle_threads(const Log& g) {
  long long idle = 0;
  for (size_t f = 0; f < g.worked.size(); ++f) idle += g.launched[f] && g.worked[f] < 0;
  return idle;
}

// Every element handled exactly once, nothing outside the data, and every output
// element holding its own result (its index: i in 1D, r * W + c in 2D). Returns "" when so.
std::string coverage_problems(const Log& g) {
  long long never = 0, twice = 0, wrong_out = 0;
  int first_never = -1, first_wrong_out = -1;
  for (size_t i = 0; i < g.times_done.size(); ++i) {
    if (g.times_done[i] == 0 && first_never < 0) first_never = static_cast<int>(i);
    never += g.times_done[i] == 0;
    twice += g.times_done[i] > 1;
    if (g.out[i] != static_cast<int>(i)) {
      if (first_wrong_out < 0) first_wrong_out = static_cast<int>(i);
      ++wrong_out;
    }
  }
  std::string p;
  if (never) p += wb::detail::format("%lld elements never handled (first %d); ", never, first_never);
  if (twice) p += wb::detail::format("%lld elements handled more than once; ", twice);
  if (g.out_of_range) p += wb::detail::format("%d threads reached an index outside the data (missing guard?); ", g.out_of_range);
  if (wrong_out)
    p += wb::detail::format("%lld outputs do not hold their element's result (first out[%d] = %d; -1 = never stored); ",
                            wrong_out, first_wrong_out, g.out[static_cast<size_t>(first_wrong_out)]);
  return p;
}

// The canary check of the log's output (a store outside out[] lands in a band), then
// frees it. A grid that was never launched has no output: the check fails.
bool bounds_check(const char* name, Log& g) {
  if (!g.d_out) return wb::check(name, false, "not launched");
  const bool ok = wb::check_bounds(name, g.d_out);
  wb::free_output(g.d_out);
  g.d_out = nullptr;
  return ok;
}

// Which element each thread handled, 1D: thread i must handle element i.
std::string index_problems_1d(const Log& g) {
  long long wrong = 0;
  int first = -1;
  for (size_t i = 0; i < g.owner.size(); ++i) {
    if (g.owner[i] >= 0 && g.owner[i] != static_cast<int>(i)) {
      if (first < 0) first = static_cast<int>(i);
      ++wrong;
    }
  }
  return wrong ? wb::detail::format("%lld elements handled by another thread than global index i (first %d)", wrong, first)
               : std::string();
}

// 2D: element (r, c) must be handled by block (c / bx, r / by), thread (c % bx, r % by).
std::string index_problems_2d(const Log& g, int W) {
  const long long tpb = threads_per_block(g);
  long long wrong = 0;
  int first = -1;
  for (size_t idx = 0; idx < g.owner.size(); ++idx) {
    if (g.owner[idx] < 0) continue;
    const int r = static_cast<int>(idx) / W, c = static_cast<int>(idx) % W;
    const long long block = static_cast<long long>(r / g.block.y) * g.grid.x + c / g.block.x;
    const long long expect = block * tpb + static_cast<long long>(r % g.block.y) * g.block.x + c % g.block.x;
    if (g.owner[idx] != expect) {
      if (first < 0) first = static_cast<int>(idx);
      ++wrong;
    }
  }
  return wrong ? wb::detail::format("%lld elements handled by the wrong thread (first idx %d): x must give the column, "
                                    "y the row, idx = r*W + c",
                                    wrong, first)
               : std::string();
}

bool grid_check(const char* name, const Log& g, long long want_x, long long want_y) {
  if (g.too_big)
    return wb::check(name, false, wb::detail::format("grid (%u, %u) not launched: empty or over %lld threads", g.grid.x,
                                                      g.grid.y, kMaxThreads));
  const bool ok = g.grid.x == want_x && g.grid.y == want_y && blocks_run(g) == want_x * want_y;
  return wb::check(name, ok, wb::detail::format("grid (%u, %u) ran %lld blocks; needed (%lld, %lld)", g.grid.x, g.grid.y,
                                                blocks_run(g), want_x, want_y));
}

bool problems_check(const char* name, const std::string& p) {
  return wb::check(name, p.empty(), p.empty() ? std::string("ok") : p);
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// ----------------------------------------------------------------------------
// 1D

void run_1d(int n, int tpb) {
  const dim3 grid(grid_1d(n, tpb));
  Log g = run_logged(grid, dim3(tpb), n, [&](Trace t, int* out) { map_1d<<<grid, tpb>>>(t, out, n); });
  grid_check("grid_1d", g, ceil_div(n, tpb), 1);
  problems_check("cover_1d", g.too_big ? "not launched" : coverage_problems(g));
  problems_check("index_1d", g.too_big ? "not launched" : index_problems_1d(g));
  bounds_check("bounds_1d", g);
  if (g.too_big) return;

  long long first_skip = -1, last_skip = -1;
  for (size_t f = 0; f < g.worked.size(); ++f) {
    if (g.launched[f] && g.worked[f] < 0) {
      if (first_skip < 0) first_skip = static_cast<long long>(f);
      last_skip = static_cast<long long>(f);
    }
  }
  if (g.worked.size() <= 256) {
    std::printf("1D, N = %d, %d threads per block: what each thread did\n", n, tpb);
    for (size_t f = 0; f < g.worked.size(); ++f) {
      if (!g.launched[f]) continue;
      const int b = static_cast<int>(f) / tpb, t = static_cast<int>(f) % tpb;
      if (g.worked[f] >= 0)
        std::printf("  block %d thread %d -> i = %d\n", b, t, g.worked[f]);
      else
        std::printf("  block %d thread %d -> global index %zu has no element (idle)\n", b, t, f);
    }
  }
  wb::metric("blocks_1d", static_cast<double>(blocks_run(g)), "count");
  wb::metric("threads_1d", static_cast<double>(g.threads_run), "count");
  wb::metric("idle_threads_1d", static_cast<double>(idle_threads(g)), "count");
  wb::metric("first_skipped_index", static_cast<double>(first_skip), "index");
  wb::metric("last_skipped_index", static_cast<double>(last_skip), "index");
}

// The workbook's Module 6 exercise size, checked as one.
void run_1d_large() {
  const int n = 263149, tpb = 256;
  const dim3 grid(grid_1d(n, tpb));
  Log g = run_logged(grid, dim3(tpb), n, [&](Trace t, int* out) { map_1d<<<grid, tpb>>>(t, out, n); });
  std::string p;
  if (g.too_big) {
    p = "not launched";
  } else {
    if (blocks_run(g) != ceil_div(n, tpb))
      p += wb::detail::format("%lld blocks, needed %lld; ", blocks_run(g), ceil_div(n, tpb));
    p += coverage_problems(g) + index_problems_1d(g);
    wb::metric("idle_threads_large_1d", static_cast<double>(idle_threads(g)), "count");
  }
  problems_check("large_1d", p);
  bounds_check("bounds_large_1d", g);
}

// ----------------------------------------------------------------------------
// 2D

void run_2d(int W, int H, int b) {
  const dim3 grid = grid_2d(W, H, b), block(b, b);
  Log g = run_logged(grid, block, W * H, [&](Trace t, int* out) { map_2d<<<grid, block>>>(t, out, W, H); });
  grid_check("grid_2d", g, ceil_div(W, b), ceil_div(H, b));
  problems_check("cover_2d", g.too_big ? "not launched" : coverage_problems(g));
  problems_check("index_2d", g.too_big ? "not launched" : index_problems_2d(g, W));
  bounds_check("bounds_2d", g);
  if (g.too_big) return;

  const long long tpb = threads_per_block(g);
  long long block11 = 0, active = 0;
  for (size_t f = 0; f < g.worked.size(); ++f) {
    if (!g.launched[f] || g.worked[f] < 0) continue;
    ++active;
    const long long blk = static_cast<long long>(f) / tpb;
    if (g.grid.x > 1 && blk == 1ll * g.grid.x + 1) ++block11;  // block (1, 1): x = 1, y = 1
  }
  if (g.worked.size() <= 256) {
    std::printf("2D, %d x %d matrix (H x W), %d x %d blocks: the lines the printf kernel would print\n", H, W, b, b);
    for (size_t f = 0; f < g.worked.size(); ++f) {
      if (!g.launched[f] || g.worked[f] < 0) continue;
      const long long blk = static_cast<long long>(f) / tpb, in = static_cast<long long>(f) % tpb;
      const int idx = g.worked[f];
      std::printf("  block(%lld,%lld) thread(%lld,%lld) -> r=%d c=%d idx=%d\n", blk % g.grid.x, blk / g.grid.x,
                  in % g.block.x, in / g.block.x, idx / W, idx % W, idx);
    }
  }
  wb::metric("grid_x_2d", g.grid.x, "count");
  wb::metric("grid_y_2d", g.grid.y, "count");
  wb::metric("threads_2d", static_cast<double>(g.threads_run), "count");
  wb::metric("active_threads_2d", static_cast<double>(active), "count");
  wb::metric("idle_threads_2d", static_cast<double>(idle_threads(g)), "count");
  wb::metric("block11_elements", static_cast<double>(block11), "count");
}

// The workbook's 1000 x 600 image with 16 x 16 blocks.
void run_2d_large() {
  const int W = 1000, H = 600, b = 16;
  const dim3 grid = grid_2d(W, H, b), block(b, b);
  Log g = run_logged(grid, block, W * H, [&](Trace t, int* out) { map_2d<<<grid, block>>>(t, out, W, H); });
  std::string p;
  if (g.too_big) {
    p = "not launched";
  } else {
    if (g.grid.x != ceil_div(W, b) || g.grid.y != ceil_div(H, b))
      p += wb::detail::format("grid (%u, %u), needed (%lld, %lld); ", g.grid.x, g.grid.y, ceil_div(W, b), ceil_div(H, b));
    p += coverage_problems(g) + index_problems_2d(g, W);
    wb::metric("idle_threads_large_2d", static_cast<double>(idle_threads(g)), "count");
  }
  problems_check("large_2d", p);
  bounds_check("bounds_large_2d", g);
}

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module06/thread_mapping");
  const long long N = wb::param("N", 20);
  const long long TPB = wb::param("TPB", 8);
  const long long W = wb::param("W", 7);
  const long long H = wb::param("H", 5);
  const long long B = wb::param("B", 4);
  wb::params_done();
  if (N < 1 || N > (1 << 24)) wb::bad_argument("N must be between 1 and 16777216");
  if (TPB < 1 || TPB > 1024) wb::bad_argument("TPB must be between 1 and 1024 (threads per block)");
  if (W < 1 || H < 1 || W * H > (1 << 24)) wb::bad_argument("W and H must be at least 1, W*H at most 16777216");
  if (B < 1 || B * B > 1024) wb::bad_argument("B must be between 1 and 32 (B*B threads per block, at most 1024)");

  run_1d(static_cast<int>(N), static_cast<int>(TPB));
  run_2d(static_cast<int>(W), static_cast<int>(H), static_cast<int>(B));
  run_1d_large();
  run_2d_large();
  return wb::finish();
}
