// divergent_barrier.cu: what does a __syncthreads() that not every thread reaches do on
// this GPU, and does compute-sanitizer report it?
//
// One block of 64 threads (two warps) sums the values 1 ... n held in shared memory.
// Three versions, chosen by the first argument:
//
//   control       every thread reaches every barrier (the tree of Module 13): the
//                 reference case, which no tool should flag
//   branch        the tree with each step's __syncthreads() INSIDE `if (t < half)`: the
//                 threads that skip the branch stay alive, so a barrier in a divergent
//                 branch (across warps at the first step, inside warp 0 after that)
//   early_return  the lecture kernel's pattern: threads t >= n return before the one
//                 barrier (n = 40: warp 1 keeps 8 live threads), then thread 0 adds the
//                 n slots that were written (so only the barrier is in question, not a
//                 read of unwritten memory)
//
// Each version prints the sum it got and the one expected (n (n + 1) / 2) and exits
// 0 when they match, 1 when they differ, 3 when the kernel has not finished after 10 s
// (a hang: the process exits, which ends the kernel with it), 4 on a CUDA error.
//
// Build with line information, so the sanitizer names source lines, and run each
// version plainly and under the two tools (sm_90 for the course H200):
//
//   nvcc -O3 -lineinfo -arch=sm_90 scripts/device/probes/divergent_barrier.cu -o divergent_barrier
//   for m in control branch early_return; do
//     ./divergent_barrier $m; echo "plain $m: exit $?"
//     compute-sanitizer --tool synccheck --error-exitcode 99 ./divergent_barrier $m; echo "synccheck $m: exit $?"
//     compute-sanitizer --tool racecheck --error-exitcode 99 ./divergent_barrier $m; echo "racecheck $m: exit $?"
//   done
//
// Exit 99 from a tool means it reported at least one error. Self-contained: no harness.

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

constexpr int TPB = 64;

#define CHECK(call)                                                                            \
  do {                                                                                         \
    const cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(4);                                                                            \
    }                                                                                          \
  } while (0)

// The reference: every thread of the block reaches every barrier.
__global__ void tree_control(const float* in, float* out, int n) {
  __shared__ float s[TPB];
  const int t = threadIdx.x;
  s[t] = t < n ? in[t] : 0.0f;
  __syncthreads();
  for (int half = TPB / 2; half >= 1; half >>= 1) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();  // outside the branch: all 64 threads, every step
  }
  if (t == 0) *out = s[0];
}

// The barrier of each step inside the branch: threads with t >= half skip it and run on.
__global__ void tree_branch(const float* in, float* out, int n) {
  __shared__ float s[TPB];
  const int t = threadIdx.x;
  s[t] = t < n ? in[t] : 0.0f;
  __syncthreads();
  for (int half = TPB / 2; half >= 1; half >>= 1) {
    if (t < half) {
      s[t] += s[t + half];
      __syncthreads();  // DIVERGENT: only the threads with t < half get here
    }
  }
  if (t == 0) *out = s[0];
}

// The lecture's early return: threads past n leave before the barrier.
__global__ void early_return(const float* in, float* out, int n) {
  __shared__ float s[TPB];
  const int t = threadIdx.x;
  if (t >= n) return;  // DIVERGENT: these threads never reach the barrier below
  s[t] = in[t];
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += s[k];  // only the slots that were written
    *out = sum;
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int n = 0;
  void (*kernel)(const float*, float*, int) = nullptr;
  if (std::strcmp(mode, "control") == 0) {
    kernel = tree_control, n = TPB;
  } else if (std::strcmp(mode, "branch") == 0) {
    kernel = tree_branch, n = TPB;
  } else if (std::strcmp(mode, "early_return") == 0) {
    kernel = early_return, n = 40;
  } else {
    std::fprintf(stderr, "usage: %s control|branch|early_return\n", argv[0]);
    return 2;
  }

  float host_in[TPB];
  for (int i = 0; i < TPB; ++i) host_in[i] = static_cast<float>(i + 1);  // sums are exact in float
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, sizeof host_in));
  CHECK(cudaMalloc(&d_out, sizeof(float)));
  CHECK(cudaMemcpy(d_in, host_in, sizeof host_in, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xFF, sizeof(float)));  // NaN until the kernel writes the sum

  kernel<<<1, TPB>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());

  // Wait at most 10 s: a barrier that never completes must not hold the probe forever.
  const auto start = std::chrono::steady_clock::now();
  cudaError_t state = cudaErrorNotReady;
  while ((state = cudaStreamQuery(0)) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10)) {
      std::printf("%s: the kernel did not finish within 10 s (a hang)\n", mode);
      std::fflush(stdout);
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(state);

  float got = 0.0f;
  CHECK(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  const float want = 0.5f * n * (n + 1);
  int dev = 0, major = 0, minor = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  std::printf("%s (cc %d.%d): sum %.1f, expected %.1f: %s\n", mode, major, minor, got, want,
              got == want ? "right" : "WRONG");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return got == want ? 0 : 1;
}
