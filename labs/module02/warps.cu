/*
Module 2 lab: see warps in action. STARTER: the kernel who_am_i below is yours to
write (see its TODO); everything else is complete.

One block of THREADS threads (96 = three warps by default). Every thread works out which
warp it belongs to and which lane of that warp it is, prints one line with device
printf, and also writes (thread, warp, lane) into a device buffer at the position an
atomic counter hands out.

What CUDA guarantees, and what the lab therefore checks:
  - every thread runs once: the buffer holds exactly one record per thread, with
    warp = thread / 32 and lane = thread % 32, and nothing is written outside it (the
    buffer sits between canary bands, wb::alloc_output);
  - every printf call reaches the output once: the set of printed lines is exactly one
    line per thread, with the right warp and lane numbers (so warp w printed as many
    lines as it has active lanes).
What CUDA does not guarantee is the ORDER of the lines, between warps or even inside a
warp. The lab reports what order this run happened to show (warps kept together, lanes
in order, warps in order) as observations, never as checks.

The same is then done with a block of 100 threads (ODD_THREADS), a size that is not a
multiple of 32: four warps, the last with 4 working lanes and 28 idle ones.

The printed lines are read back by redirecting stdout into a temporary file while the
kernel runs and its printf buffer is flushed (at the synchronization).

Build and run by hand (POSIX: uses dup/dup2 to capture stdout):
  nvcc -O3 -arch=native -I labs/common labs/module02/warps.cu -o warps && ./warps

Parameters (NAME=VALUE): THREADS (block size, 1-1024, default 96), seed (unused: no
random inputs), quick=1 (same size).
*/

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "workbook.cuh"

// The line every thread prints. The lab parses it back, so keep the wording.
#define WHO_LINE "who: thread %4d  warp %2d  lane %2d\n"

// What a thread writes into the record buffer.
struct Entry {
  int thread, warp, lane;
};

// The second block size: not a multiple of 32 (the Module 2 exercise's block of 100).
constexpr int kOddThreads = 100;
constexpr int kWarpSize = 32;

// ----------------------------------------------------------------------------
// GPU kernel

// One line and one record per thread. `next` is a counter in device memory (zeroed
// before the launch): atomicAdd returns its old value, so each thread gets its own slot.
__global__ void who_am_i(Entry* entries, unsigned* next) {
  // TODO (Module 2.2): until you write this, nothing is printed, the buffer stays at -1
  // and the record and line checks fail.
  //
  // 1. Take this thread's index t from threadIdx.x (one block, so it is also the
  //    thread's number in the block).
  // 2. Work out its warp (which group of warpSize = 32 consecutive threads it is in)
  //    and its lane (its position inside that warp), using integer division and
  //    remainder by warpSize.
  // 3. Print one line in the WHO_LINE format with t, warp and lane. Keep WHO_LINE: the
  //    lab parses those lines back to check that every thread printed once, and to show you in
  //    which order the lines came out (an order CUDA does not promise).
  // 4. Claim a slot in entries that no other thread can get (the counter *next is
  //    shared by every thread, so an ordinary increment would race) and store this
  //    thread's record there.
  //
  // The lab runs this with THREADS threads (96) and again with 100, which is not a
  // multiple of 32: the last warp then has only 4 working lanes.
  (void)entries, (void)next;
}

// ----------------------------------------------------------------------------
// Capturing the printed lines

// Runs `body` with the process's stdout pointing at a temporary file and returns what
// was written there. Device printf output is written to stdout by the CUDA runtime at
// the next synchronization, so `body` must synchronize before it returns.
template <class F>
std::string capture_stdout(F&& body) {
  std::fflush(stdout);
  std::FILE* tmp = std::tmpfile();
  const int saved = dup(STDOUT_FILENO);
  const bool redirected = tmp && saved >= 0 && dup2(fileno(tmp), STDOUT_FILENO) >= 0;
  body();
  std::fflush(stdout);
  std::string text;
  if (redirected) {
    dup2(saved, STDOUT_FILENO);
    std::rewind(tmp);
    char buf[4096];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, tmp)) > 0) text.append(buf, got);
  }
  if (saved >= 0) close(saved);
  if (tmp) std::fclose(tmp);
  return text;
}

// The WHO_LINE lines of a captured text, in the order they came out.
std::vector<Entry> parse_lines(const std::string& printed) {
  std::vector<Entry> lines;
  size_t pos = 0;
  while (pos < printed.size()) {
    size_t end = printed.find('\n', pos);
    if (end == std::string::npos) end = printed.size();
    const std::string line = printed.substr(pos, end - pos);
    Entry e{};
    if (std::sscanf(line.c_str(), "who: thread %d warp %d lane %d", &e.thread, &e.warp, &e.lane) == 3)
      lines.push_back(e);
    pos = end + 1;
  }
  return lines;
}

// ----------------------------------------------------------------------------
// One launch of one block, and the checks on what it guarantees

struct BlockRun {
  std::vector<Entry> lines;  // printed, in output order
  int threads_printed = 0;   // threads whose line was found exactly once
  int warps_recorded = 0;    // distinct warp numbers among correct records
};

// Launches who_am_i with one block of `threads` threads and records the checks
// <prefix>each_thread_once, <prefix>warp_lane_correct, <prefix>lines_printed and
// <prefix>entries_bounds. With echo, the captured lines are shown as they came out.
BlockRun run_block(int threads, const std::string& prefix, bool echo) {
  Entry* d_entries = wb::alloc_output<Entry>(threads);  // every field reads -1 until written
  unsigned* d_next = nullptr;
  WB_CHECK(cudaMalloc(&d_next, sizeof(unsigned)));
  WB_CHECK(cudaMemset(d_next, 0, sizeof(unsigned)));

  cudaError_t launch_err = cudaSuccess, sync_err = cudaSuccess;
  const std::string printed = capture_stdout([&] {
    who_am_i<<<1, threads>>>(d_entries, d_next);
    launch_err = cudaGetLastError();
    sync_err = cudaDeviceSynchronize();  // flushes the device printf buffer
  });
  WB_CHECK(launch_err);
  WB_CHECK(sync_err);
  if (echo) std::fputs(printed.c_str(), stdout);  // show the learner what the kernel printed

  // ---- the device records: every thread once, right numbers, nothing outside the buffer
  std::vector<Entry> entries(threads);
  unsigned counted = 0;
  WB_CHECK(cudaMemcpy(entries.data(), d_entries, threads * sizeof(Entry), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(&counted, d_next, sizeof counted, cudaMemcpyDeviceToHost));
  std::vector<int> seen(threads, 0);
  std::vector<char> warp_seen((threads + kWarpSize - 1) / kWarpSize, 0);
  int wrong_numbers = 0;
  for (const Entry& e : entries) {
    if (e.thread < 0 || e.thread >= threads) continue;  // unwritten (-1) or garbage
    ++seen[e.thread];
    if (e.warp != e.thread / kWarpSize || e.lane != e.thread % kWarpSize) ++wrong_numbers;
    else warp_seen[e.warp] = 1;
  }
  int once = 0;
  for (int s : seen) once += s == 1;
  const std::string n = std::to_string(threads);
  wb::check((prefix + "each_thread_once").c_str(), once == threads && counted == static_cast<unsigned>(threads), once,
            threads, "of " + n + " threads, those with exactly one record; the atomic counter reached " +
                         std::to_string(counted));
  wb::check((prefix + "warp_lane_correct").c_str(), once == threads && wrong_numbers == 0, wrong_numbers, 0,
            "records whose warp is not thread/32 or whose lane is not thread%32");
  wb::check_bounds((prefix + "entries_bounds").c_str(), d_entries);

  // ---- the printed lines as a set: one per thread, right numbers (order not checked)
  BlockRun run;
  run.lines = parse_lines(printed);
  std::vector<int> printed_seen(threads, 0);
  int printed_wrong = 0;
  for (const Entry& e : run.lines) {
    if (e.thread < 0 || e.thread >= threads) {
      ++printed_wrong;
      continue;
    }
    ++printed_seen[e.thread];
    if (e.warp != e.thread / kWarpSize || e.lane != e.thread % kWarpSize) ++printed_wrong;
  }
  // ncu replays each kernel several times to collect its counters, so under it every line
  // repeats: a thread counts once it printed at all, and the line count is not checked.
  const char* tool = wb::under_profiler();
  const bool replayed = tool && std::string(tool) == "ncu";
  for (int s : printed_seen) run.threads_printed += replayed ? s >= 1 : s == 1;
  if (replayed) {
    wb::skip_check((prefix + "lines_printed").c_str(), "ncu replays each kernel, so every printf line repeats");
  } else {
    wb::check((prefix + "lines_printed").c_str(),
              run.threads_printed == threads && printed_wrong == 0 && run.lines.size() == static_cast<size_t>(threads),
              run.threads_printed, threads,
              std::to_string(run.lines.size()) + " lines parsed for " + n + " threads, " + std::to_string(printed_wrong) +
                  " with a wrong thread, warp or lane number");
  }
  run.warps_recorded = static_cast<int>(std::count(warp_seen.begin(), warp_seen.end(), 1));

  wb::free_output(d_entries);
  WB_CHECK(cudaFree(d_next));
  return run;
}

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module02/warps");
  const long long threads_param = wb::param("THREADS", 96);
  wb::params_done();
  if (threads_param < 1 || threads_param > 1024) wb::bad_argument("THREADS must be between 1 and 1024");
  const int threads = static_cast<int>(threads_param);
  const int warps = (threads + kWarpSize - 1) / kWarpSize;

  const BlockRun run = run_block(threads, "", true);

  // Observations, not checks: the order the lines came out in this run. Runs of one
  // warp, lane order inside each warp, warp order.
  std::vector<int> runs(warps, 0), last_lane(warps, -1), lanes_ok(warps, 1);
  std::vector<int> warp_order;  // warps in the order their first line appeared
  int prev_warp = -1;
  for (const Entry& e : run.lines) {
    if (e.warp < 0 || e.warp >= warps) continue;
    if (e.warp != prev_warp) {
      if (runs[e.warp] == 0) warp_order.push_back(e.warp);
      ++runs[e.warp];
      prev_warp = e.warp;
    }
    if (e.lane < last_lane[e.warp]) lanes_ok[e.warp] = 0;
    last_lane[e.warp] = e.lane;
  }
  int grouped = 0, lanes_in_order = 0;
  for (int w = 0; w < warps; ++w) {
    grouped += runs[w] == 1;
    lanes_in_order += runs[w] > 0 && lanes_ok[w];
  }
  bool warps_in_order = static_cast<int>(warp_order.size()) == warps;
  for (size_t i = 0; i < warp_order.size(); ++i) warps_in_order = warps_in_order && warp_order[i] == static_cast<int>(i);

  std::string order_text;
  for (int w : warp_order) order_text += (order_text.empty() ? "" : ", ") + std::to_string(w);
  std::printf("warps in the order their lines appeared: %s\n", order_text.c_str());
  wb::metric("threads_reported", run.threads_printed, "count");
  wb::metric("warps_seen", static_cast<double>(warp_order.size()), "count");
  wb::metric("warps_grouped", grouped, "count");
  wb::metric("lanes_in_order", lanes_in_order, "count");
  wb::metric("warps_in_order", warps_in_order ? 1 : 0, "bool");
  wb::metric("first_warp", warp_order.empty() ? -1 : warp_order.front(), "count");

  // The same kernel with a block that is not a multiple of 32; its lines are checked
  // but not shown.
  std::printf("now one block of %d threads (lines captured, not shown)\n", kOddThreads);
  const BlockRun odd = run_block(kOddThreads, "odd_", false);
  wb::metric("odd_warps", odd.warps_recorded, "count");
  wb::metric("odd_idle_lanes", odd.warps_recorded * kWarpSize - odd.threads_printed, "count");

  return wb::finish();
}
