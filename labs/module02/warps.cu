/*
Module 2 lab: see warps in action. STARTER: the kernel who_am_i below is yours to
write (see its TODO); everything else is complete.

One block of THREADS threads (96 = three warps by default). Every thread works out which
warp it belongs to and which lane of that warp it is, prints one line with device
printf, and also writes (thread, warp, lane) into a device buffer at the position an
atomic counter hands out.

The lab reads both back:
  - the device buffer, to check that every thread reported exactly once with the right
    warp and lane numbers;
  - the printed lines themselves: stdout is redirected into a temporary file while the
    kernel runs and its printf buffer is flushed, then the lines are parsed and echoed.
    From their order the lab reports whether each warp's lines stayed together, whether
    the lanes of each warp came out in order, and whether the warps came out in order.

Build and run by hand (POSIX: uses dup/dup2 to capture stdout):
  nvcc -O3 -arch=native -I labs/common labs/module02/warps.cu -o warps && ./warps

Parameters (NAME=VALUE): THREADS (block size, 1-1024, default 96), seed (unused: no
random inputs), quick=1 (same size).
*/

#include <unistd.h>

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

// ----------------------------------------------------------------------------
// GPU kernel

// One line and one record per thread. `next` is a counter in device memory (zeroed
// before the launch): atomicAdd returns its old value, so each thread gets its own slot.
__global__ void who_am_i(Entry* entries, unsigned* next) {
  // TODO (Module 2.2): until you write this, nothing is printed, the buffer stays at -1
  // and all three checks fail.
  //
  // 1. Take this thread's index t from threadIdx.x (one block, so it is also the
  //    thread's number in the block).
  // 2. Work out its warp (which group of warpSize = 32 consecutive threads it is in)
  //    and its lane (its position inside that warp), using integer division and
  //    remainder by warpSize.
  // 3. Print one line: printf(WHO_LINE, t, warp, lane). Keep WHO_LINE: the lab parses
  //    those lines to see in which order they came out.
  // 4. Claim a slot with atomicAdd(next, 1u) (it returns the counter's old value, so
  //    no two threads get the same slot) and store Entry{t, warp, lane} there.
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

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module02/warps");
  const long long threads_param = wb::param("THREADS", 96);
  wb::params_done();
  if (threads_param < 1 || threads_param > 1024) wb::bad_argument("THREADS must be between 1 and 1024");
  const int threads = static_cast<int>(threads_param);
  const int warp_size = 32;
  const int warps = (threads + warp_size - 1) / warp_size;

  Entry* d_entries = nullptr;
  unsigned* d_next = nullptr;
  WB_CHECK(cudaMalloc(&d_entries, threads * sizeof(Entry)));
  WB_CHECK(cudaMalloc(&d_next, sizeof(unsigned)));
  wb::poison(d_entries, threads * sizeof(Entry));  // every field reads -1 until written
  WB_CHECK(cudaMemset(d_next, 0, sizeof(unsigned)));

  cudaError_t launch_err = cudaSuccess, sync_err = cudaSuccess;
  const std::string printed = capture_stdout([&] {
    who_am_i<<<1, threads>>>(d_entries, d_next);
    launch_err = cudaGetLastError();
    sync_err = cudaDeviceSynchronize();  // flushes the device printf buffer
  });
  WB_CHECK(launch_err);
  WB_CHECK(sync_err);
  std::fputs(printed.c_str(), stdout);  // show the learner what the kernel printed

  // ---- the device records: every thread once, right numbers
  std::vector<Entry> entries(threads);
  unsigned counted = 0;
  WB_CHECK(cudaMemcpy(entries.data(), d_entries, threads * sizeof(Entry), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(&counted, d_next, sizeof counted, cudaMemcpyDeviceToHost));
  std::vector<int> seen(threads, 0);
  int wrong_numbers = 0;
  for (const Entry& e : entries) {
    if (e.thread < 0 || e.thread >= threads) continue;  // unwritten (-1) or garbage
    ++seen[e.thread];
    if (e.warp != e.thread / warp_size || e.lane != e.thread % warp_size) ++wrong_numbers;
  }
  int once = 0;
  for (int s : seen) once += s == 1;
  wb::check("each_thread_once", once == threads && counted == static_cast<unsigned>(threads), once, threads,
            "threads with exactly one record; the atomic counter reached " + std::to_string(counted));
  wb::check("warp_lane_correct", once == threads && wrong_numbers == 0, wrong_numbers, 0,
            "records whose warp is not thread/32 or whose lane is not thread%32");

  // ---- the printed lines, in the order they came out
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
  std::vector<int> printed_seen(threads, 0);
  int printed_wrong = 0;
  for (const Entry& e : lines) {
    if (e.thread < 0 || e.thread >= threads) {
      ++printed_wrong;
      continue;
    }
    ++printed_seen[e.thread];
    if (e.warp != e.thread / warp_size || e.lane != e.thread % warp_size) ++printed_wrong;
  }
  int printed_once = 0;
  for (int s : printed_seen) printed_once += s == 1;
  wb::check("lines_printed", printed_once == threads && printed_wrong == 0 && lines.size() == static_cast<size_t>(threads),
            printed_once, threads, std::to_string(lines.size()) + " lines parsed, " + std::to_string(printed_wrong) +
                                      " with a wrong thread, warp or lane number");

  // Order of the printed lines: runs of one warp, lane order inside each warp, warp order.
  std::vector<int> runs(warps, 0), last_lane(warps, -1), lanes_ok(warps, 1);
  std::vector<int> warp_order;  // warps in the order their first line appeared
  int prev_warp = -1;
  for (const Entry& e : lines) {
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
  wb::metric("threads_reported", printed_once, "count");
  wb::metric("warps_seen", static_cast<double>(warp_order.size()), "count");
  wb::metric("warps_grouped", grouped, "count");
  wb::metric("lanes_in_order", lanes_in_order, "count");
  wb::metric("warps_in_order", warps_in_order ? 1 : 0, "bool");
  wb::metric("first_warp", warp_order.empty() ? -1 : warp_order.front(), "count");

  WB_CHECK(cudaFree(d_entries));
  WB_CHECK(cudaFree(d_next));
  return wb::finish();
}
