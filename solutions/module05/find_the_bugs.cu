/*
Module 5 lab: find the bugs in a five-line CUDA program. SOLUTION.

The worked example of Module 5 squares a million floats on the GPU in five lines, and
every line is wrong:

  A  float h_x[1000000];                 a 4 MB array on the host stack
  B  cudaMalloc(d_x, bytes);             the pointer's value instead of its address
  C  cudaMemcpy(h_x, d_x, bytes, ...);   destination and source swapped
  D  square<<<1000000/256, 256>>>(d_x);  the block count is rounded down
  E  printf("%f\n", d_x[0]);             the host reads through a device pointer

Design. Each line became one small function in the section "YOUR CODE" below, and the
harness tests each function on its own, surrounded by correct code, with checks named
after the line (bug_a_host_buffer ... bug_e_read_result; line D has three). So one bug
never hides another, and no bug can take the lab down:

  - CUDA errors that your functions cause are not fatal here. The harness reads the
    cudaError_t your call returned and then cudaGetLastError() (which also clears the
    error, so that it cannot surface later in someone else's check) and records them in
    the failing check's detail. WB_CHECK, which ends a lab with exit 4, guards only the
    harness's own calls.
  - Line A runs on a thread whose stack the harness made 64 MB large, so the 4 MB array
    cannot overflow here (on a default 8 MB stack it may, and a larger N certainly
    would). The check looks up that thread's stack range and fails when your buffer
    lies inside it.
  - Line B: the workbook's version does not compile (a float* is not a void**). The
    starter adds the cast that makes it compile; at run time cudaMalloc then receives
    a null address to store the pointer in, refuses with cudaErrorInvalidValue, and the
    pointer stays null.
  - Line C: the workbook's line names cudaMemcpyHostToDevice while its pointers say
    device-to-host. CUDA leaves such a mismatch undefined (it may fail, or copy the
    wrong way), so the starter states the direction its pointers really describe: it
    copies backwards, from the (poisoned) device buffer over your input.
  - Line D: the harness runs your launch at N and at 1000 (neither a multiple of 256)
    on arrays that sit between two canary bands (wb::alloc_output). bug_d_grid wants
    every element squared; bug_d_bounds_n and bug_d_bounds_1000 want both bands
    untouched, so a launch that rounds up but forgets the bounds check (or writes it
    as i <= n) fails too, without corrupting anything.
  - Line E: reading a cudaMalloc pointer on the host raises SIGSEGV on a discrete GPU.
    The harness catches that one signal around this one call (sigsetjmp/siglongjmp)
    and records a failing check instead of dying. (On a system whose CPU can read GPU
    memory, such as Grace Hopper, the read may even work; the check cannot tell.)

When all five pass, check end_to_end runs your five functions together as one program.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common solutions/module05/find_the_bugs.cu -o find_the_bugs -lpthread && ./find_the_bugs

Parameters (NAME=VALUE): N (elements, default 1000000, 100000 with quick=1; at most
1000000, the size of line A's array), seed (random inputs), quick=1 (smaller N).
*/

#include <cuda_runtime.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "workbook.cuh"

// Line A's array in the workbook holds exactly this many floats (4 MB).
constexpr int kWorkbookN = 1000000;
constexpr int kThreadsPerBlock = 256;

// ============================================================================
// YOUR CODE: the five lines of the workbook program, one function each.
// ============================================================================

// Line A. Provide a host buffer of n floats and hand it to use(); the buffer must stay
// valid until use() returns, and is yours to release afterwards.
void with_host_buffer(int n, const std::function<void(float*)>& use) {
  // Heap memory: any size, and nothing left on the stack. std::vector frees it at the
  // end of the scope.
  std::vector<float> h_x(static_cast<size_t>(n));
  use(h_x.data());
}

// Line B. Allocate `bytes` of device memory, store cudaMalloc's status in *status and
// return the device pointer.
float* device_alloc(size_t bytes, cudaError_t* status) {
  float* d_x = nullptr;
  *status = cudaMalloc(&d_x, bytes);  // the ADDRESS of d_x: cudaMalloc writes into it
  return d_x;
}

// Line C. Copy the n inputs (bytes bytes) from the host buffer h_x into the device
// buffer d_x; return cudaMemcpy's status.
cudaError_t upload(float* d_x, float* h_x, size_t bytes) {
  return cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);  // (dst, src, size, kind)
}

// Line D, device side: square x[0..n) in place, one element per thread.
__global__ void square(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the last block has spare threads when n % blockDim.x != 0
  x[i] = x[i] * x[i];
}

// Line D, host side: launch square over all n elements of d_x (enqueue only).
void launch_square(float* d_x, int n) {
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;  // round UP
  square<<<blocks, kThreadsPerBlock>>>(d_x, n);
}

// Line E. Return the first result, d_x[0], to the host.
float read_first_result(const float* d_x) {
  float first = 0.0f;
  // A device address means nothing to the CPU: copy the value into host memory first.
  // (If the copy fails, `first` stays 0 and the check reports the status it left.)
  cudaMemcpy(&first, d_x, sizeof(float), cudaMemcpyDeviceToHost);
  return first;
}

// ============================================================================
// Harness: everything below tests the functions above.
// ============================================================================

// ----------------------------------------------------------------------------
// CPU reference

void square_cpu(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * x[i];
}

// Reads the sticky-free "last error" and clears it, as text for a check's detail.
std::string take_last_error() {
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorName(e));
}

std::string status_text(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : cudaGetErrorName(e); }

// ----------------------------------------------------------------------------
// Line A: run with_host_buffer on a thread with a known 64 MB stack.

struct LineAResult {
  bool called = false;    // use() was called
  bool on_stack = false;  // the buffer lies inside the calling thread's stack
  bool usable = false;    // n floats could be written and read back
  size_t stack_bytes = 0;
};

struct LineAJob {
  int n;
  LineAResult result;
};

void* line_a_thread(void* arg) {
  LineAJob* job = static_cast<LineAJob*>(arg);
  // This thread's stack range, from the attributes glibc keeps for it.
  pthread_attr_t attr;
  void* stack_lo = nullptr;
  size_t stack_size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &stack_lo, &stack_size);
    pthread_attr_destroy(&attr);
  }
  const char* lo = static_cast<const char*>(stack_lo);
  job->result.stack_bytes = stack_size;
  with_host_buffer(job->n, [&](float* h) {
    job->result.called = true;
    const char* p = reinterpret_cast<const char*>(h);
    job->result.on_stack = stack_size > 0 && p >= lo && p < lo + stack_size;
    if (h == nullptr) return;
    // Write and read back every element: the buffer must really hold n floats.
    wb::fill_uniform(h, static_cast<size_t>(job->n), -2.0f, 2.0f, 100);
    std::vector<float> again(static_cast<size_t>(job->n));
    wb::fill_uniform(again.data(), again.size(), -2.0f, 2.0f, 100);
    job->result.usable = std::memcmp(h, again.data(), again.size() * sizeof(float)) == 0;
  });
  return nullptr;
}

bool test_line_a(int n) {
  LineAJob job{n, {}};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64u << 20);
  pthread_t thread;
  const int rc = pthread_create(&thread, &attr, line_a_thread, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) wb::fatal("find_the_bugs.cu", "could not start the line-A thread");
  pthread_join(thread, nullptr);

  const LineAResult& r = job.result;
  std::string detail;
  if (!r.called) detail = "with_host_buffer never called use()";
  else if (r.on_stack)
    detail = wb::detail::format("the %zu-byte buffer lies on the thread's stack (%zu MB here, often 8 MB): allocate it "
                                "on the heap (malloc or std::vector)",
                                static_cast<size_t>(n) * sizeof(float), r.stack_bytes >> 20);
  else if (!r.usable) detail = "the buffer did not hold n floats";
  else detail = "host buffer on the heap";
  return wb::check("bug_a_host_buffer", r.called && !r.on_stack && r.usable, detail);
}

// ----------------------------------------------------------------------------
// Line B

bool test_line_b(int n) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaError_t status = cudaErrorUnknown;
  float* d = device_alloc(bytes, &status);
  const std::string last = take_last_error();
  bool is_device = false;
  if (d != nullptr) {
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, d) == cudaSuccess) is_device = attr.type == cudaMemoryTypeDevice;
    take_last_error();
  }
  const bool pass = status == cudaSuccess && d != nullptr && is_device;
  std::string detail = "cudaMalloc returned " + status_text(status);
  detail += d == nullptr ? "; the pointer is still null" : (is_device ? "; device pointer set" : "; not a device pointer");
  if (!last.empty()) detail += "; last error " + last;
  if (is_device) WB_CHECK(cudaFree(d));
  return wb::check("bug_b_cuda_malloc", pass, detail);
}

// ----------------------------------------------------------------------------
// Line C

bool test_line_c(int n) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> input(n), h_x(n), on_device(n);
  wb::fill_uniform(input.data(), input.size(), -2.0f, 2.0f, 200);
  h_x = input;
  float* d = nullptr;
  WB_CHECK(cudaMalloc(&d, bytes));
  wb::poison(d, bytes);  // NaN until the upload overwrites it

  const cudaError_t status = upload(d, h_x.data(), bytes);
  const std::string last = take_last_error();
  WB_CHECK(cudaMemcpy(on_device.data(), d, bytes, cudaMemcpyDeviceToHost));
  WB_CHECK(cudaFree(d));

  const bool device_ok = std::memcmp(on_device.data(), input.data(), bytes) == 0;
  const bool host_kept = std::memcmp(h_x.data(), input.data(), bytes) == 0;
  std::string detail = "cudaMemcpy returned " + status_text(status);
  if (!device_ok) detail += "; the device buffer does not hold the inputs";
  if (!host_kept) detail += "; the host inputs were overwritten (the copy ran device to host: cudaMemcpy is dst, src)";
  if (!last.empty()) detail += "; last error " + last;
  return wb::check("bug_c_copy_direction", status == cudaSuccess && device_ok && host_kept, detail);
}

// ----------------------------------------------------------------------------
// Line D: every element squared, nothing written past the end.
//
// Both sizes leave the last block partly idle (1,000,000 = 3906 x 256 + 64 and
// 1000 = 3 x 256 + 232), so a launch that rounds down skips elements, and a launch that
// rounds up without the bounds check writes past the end. The array sits between two
// canary bands (wb::alloc_output): a stray write lands in a band, never in memory the
// lab still needs, and wb::check_bounds counts it.

// Runs launch_square at size n on fresh inputs in a canary-banded array, which it
// returns (the caller checks the bands and frees it); appends what went wrong to
// `problems`.
float* try_line_d(int n, unsigned stream, std::string& problems) {
  std::vector<float> h(n), ref(n), got(n);
  wb::fill_uniform(h.data(), h.size(), -2.0f, 2.0f, stream);
  square_cpu(h.data(), ref.data(), n);

  float* d = wb::alloc_output<float>(static_cast<size_t>(n));
  WB_CHECK(cudaMemcpy(d, h.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  launch_square(d, n);
  const std::string launch_err = take_last_error();
  const cudaError_t sync = cudaDeviceSynchronize();
  if (sync != cudaSuccess) {
    // A fault inside the kernel poisons the whole context: nothing after this can run.
    wb::fatal("find_the_bugs.cu", std::string("square kernel failed: ") + cudaGetErrorString(sync));
  }
  WB_CHECK(cudaMemcpy(got.data(), d, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));

  int missed = 0, first_missed = -1;
  for (int i = 0; i < n; ++i) {
    if (got[i] != ref[i]) {  // one float multiply: CPU and GPU agree exactly
      if (first_missed < 0) first_missed = i;
      ++missed;
    }
  }
  if (!launch_err.empty() || missed > 0) {
    std::string p = wb::detail::format("n=%d:", n);
    if (!launch_err.empty()) p += " launch error " + launch_err + ";";
    if (missed > 0) p += wb::detail::format(" %d elements not squared (first %d);", missed, first_missed);
    problems += (problems.empty() ? "" : " ") + p;
  }
  return d;
}

// Three checks: every element squared (both sizes), and each array's canary bands
// intact (a launch rounded up without the bounds check, or with one that lets i == n
// through, writes into the band after the array).
bool test_line_d(int n) {
  std::string problems;
  float* at_n = try_line_d(n, 300, problems);
  float* at_1000 = try_line_d(1000, 301, problems);  // the Module 6 example size
  const bool squared = problems.empty();
  wb::check("bug_d_grid", squared, squared ? "every element squared at both sizes" : problems);
  const bool bounds_n = wb::check_bounds("bug_d_bounds_n", at_n);
  const bool bounds_1000 = wb::check_bounds("bug_d_bounds_1000", at_1000);
  wb::free_output(at_n);
  wb::free_output(at_1000);
  return squared && bounds_n && bounds_1000;
}

// ----------------------------------------------------------------------------
// Line E: the host reads d_x[0]; a segmentation fault is caught and becomes a FAIL.

sigjmp_buf g_fault_jump;
void on_fault(int) { siglongjmp(g_fault_jump, 1); }

// Calls f() with SIGSEGV and SIGBUS caught; returns true when f faulted.
bool faults(const std::function<void()>& f) {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_fault;
  sigemptyset(&sa.sa_mask);
  struct sigaction old_segv, old_bus;
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  volatile bool faulted = false;
  if (sigsetjmp(g_fault_jump, 1) == 0) {
    f();
  } else {
    faulted = true;
  }
  sigaction(SIGSEGV, &old_segv, nullptr);
  sigaction(SIGBUS, &old_bus, nullptr);
  return faulted;
}

bool test_line_e() {
  float value = 0.0f;
  wb::fill_uniform(&value, 1, 1.0f, 2.0f, 400);
  float* d = nullptr;
  WB_CHECK(cudaMalloc(&d, 256 * sizeof(float)));
  wb::poison(d, 256 * sizeof(float));
  WB_CHECK(cudaMemcpy(d, &value, sizeof(float), cudaMemcpyHostToDevice));

  volatile float got = 0.0f;
  const bool faulted = faults([&] { got = read_first_result(d); });
  const std::string last = take_last_error();
  WB_CHECK(cudaFree(d));

  std::string detail;
  if (faulted) detail = "segmentation fault: the host dereferenced a device pointer (caught by the lab)";
  else if (got != value) detail = wb::detail::format("returned %g, expected %g", static_cast<double>(got), value);
  else detail = "the first result reached the host";
  if (!last.empty()) detail += "; last error " + last;
  return wb::check("bug_e_read_result", !faulted && got == value && last.empty(), detail);
}

// ----------------------------------------------------------------------------
// The whole program, once every line is right.

void test_end_to_end(int n, bool all_lines_pass) {
  if (!all_lines_pass) {
    wb::check("end_to_end", false, "skipped: fix every line first");
    return;
  }
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> input(n), ref(n), got(n);
  wb::fill_uniform(input.data(), input.size(), -2.0f, 2.0f, 500);
  square_cpu(input.data(), ref.data(), n);
  float first = NAN;
  cudaError_t alloc_status = cudaErrorUnknown, copy_status = cudaErrorUnknown;
  with_host_buffer(n, [&](float* h_x) {
    std::memcpy(h_x, input.data(), bytes);
    float* d_x = device_alloc(bytes, &alloc_status);
    if (alloc_status != cudaSuccess) return;
    copy_status = upload(d_x, h_x, bytes);
    launch_square(d_x, n);
    WB_CHECK_LAUNCH();
    first = read_first_result(d_x);
    WB_CHECK(cudaMemcpy(got.data(), d_x, bytes, cudaMemcpyDeviceToHost));
    WB_CHECK(cudaFree(d_x));  // the workbook's program forgot this too
  });
  const bool ok = alloc_status == cudaSuccess && copy_status == cudaSuccess && first == ref[0] &&
                  std::memcmp(got.data(), ref.data(), bytes) == 0;
  wb::check("end_to_end", ok, wb::detail::format("first result %g (expected %g)", first, ref[0]));
}

// ----------------------------------------------------------------------------
// What the original line D leaves out, measured with the harness's own copy of it.

__global__ void mark(int* hit, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hit[i] = 1;
}

void measure_original_grid(int n) {
  int* d = nullptr;
  WB_CHECK(cudaMalloc(&d, static_cast<size_t>(n) * sizeof(int)));
  WB_CHECK(cudaMemset(d, 0, static_cast<size_t>(n) * sizeof(int)));
  const int blocks = n / kThreadsPerBlock;  // the workbook's rounded-down count
  if (blocks > 0) {
    mark<<<blocks, kThreadsPerBlock>>>(d, n);
    WB_CHECK_LAUNCH();
  }
  std::vector<int> hit(n);
  WB_CHECK(cudaMemcpy(hit.data(), d, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaFree(d));
  int skipped = 0;
  for (int v : hit) skipped += v == 0;
  std::printf("the original launch <<<%d/%d, %d>>> = %d blocks leaves %d elements untouched\n", n, kThreadsPerBlock,
              kThreadsPerBlock, blocks, skipped);
  wb::metric("rounded_down_blocks", blocks, "count");
  wb::metric("skipped_elements", skipped, "count");
}

// ----------------------------------------------------------------------------
// main

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module05/find_the_bugs");
  const long long n_param = wb::param("N", kWorkbookN, 100000);
  wb::params_done();
  if (n_param < 1 || n_param > kWorkbookN) wb::bad_argument("N must be between 1 and 1000000 (line A's array)");
  const int n = static_cast<int>(n_param);
  wb::metric("n", n, "count");

  measure_original_grid(n);

  // One check per line, each tested every time, in program order.
  bool all_lines = test_line_a(n);
  all_lines = test_line_b(n) && all_lines;
  all_lines = test_line_c(n) && all_lines;
  all_lines = test_line_d(n) && all_lines;
  all_lines = test_line_e() && all_lines;
  test_end_to_end(n, all_lines);

  return wb::finish();
}
