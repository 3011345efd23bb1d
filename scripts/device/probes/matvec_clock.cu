// Timing probe (issue 9, study 7): the one kernel left outside "within 3 % of ncu" is
// module15's warp matvec (18.75 us on the H200), where the serial CUPTI record's fixed
// offset (~0.5-0.7 us) is 3.8 %. Can a batch method meet 3 %? The same warp-per-row
// matvec (D = N = 4096, W 67 MB) timed five ways:
//   serial_cold    the harness default: L2 flushed, one launch, CUPTI serial record
//   serial_rot     CUPTI serial records, back-to-back launches over 4 copies of W (268 MB,
//                  several times the L2, so each launch streams W from DRAM)
//   events_rot     CUDA events around a batch of back-to-back launches over the 4 copies,
//                  queued behind a hold kernel; per launch = batch time / launches
//   graph_rot      CUDA events around replays of a captured graph of 32 launches over
//                  the 4 copies; per launch = replay time / 32
//   graph_diff     (T(64 launches) - T(32 launches)) / 32 from two graphs: the replay's
//                  own fixed cost cancels, the per-launch gap stays
// plus the same batch methods on an empty kernel (the gap between back-to-back kernels).
//   nvcc -O3 -arch=sm_90 -I labs/common scripts/device/probes/matvec_clock.cu -o matvec_clock
//   ./matvec_clock                       (prints "name median_us")
//   ncu --csv --page raw --clock-control none --metrics gpu__time_duration.sum \
//       -k regex:probe_matvec -c 40 ./matvec_clock
#include <algorithm>
#include <vector>

#include "workbook.cuh"

__global__ void probe_matvec_warp(const float* W, const float* x, float* y, int d, int n) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= d) return;
  const float* w = W + static_cast<size_t>(row) * n;
  float acc = 0.0f;
  for (int j = lane; j < n; j += 32) acc += w[j] * x[j];
  for (int step = 16; step > 0; step /= 2) acc += __shfl_down_sync(0xffffffffu, acc, step);
  if (lane == 0) y[row] = acc;
}

__global__ void probe_empty_kernel() {}

// Values in [-1, 1) from a hash of the index: never zeros, different per copy.
__global__ void probe_fill(float* p, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    p[i] = static_cast<float>(h & 0xffffff) / 8388608.0f - 1.0f;
  }
}

// Median per-launch microseconds of a graph holding `count` calls of `body(k)`.
template <class Body>
double graph_us(int count, Body body, int replays = 30) {
  cudaStream_t s;
  WB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t exec;
  WB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < count; ++k) body(k, s);
  WB_CHECK(cudaStreamEndCapture(s, &g));
  WB_CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaEvent_t a, b;
  WB_CHECK(cudaEventCreate(&a));
  WB_CHECK(cudaEventCreate(&b));
  std::vector<double> v;
  for (int r = 0; r < replays + 3; ++r) {
    WB_CHECK(cudaEventRecord(a, s));
    WB_CHECK(cudaGraphLaunch(exec, s));
    WB_CHECK(cudaEventRecord(b, s));
    WB_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 3) v.push_back(ms * 1e3);
  }
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  WB_CHECK(cudaGraphExecDestroy(exec));
  WB_CHECK(cudaGraphDestroy(g));
  WB_CHECK(cudaStreamDestroy(s));
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "matvec_clock");
  const int d = 4096, n = 4096, copies = 4;
  const size_t wcount = static_cast<size_t>(d) * n;
  std::vector<float*> W(copies);
  float *x = nullptr, *y = nullptr;
  for (int c = 0; c < copies; ++c) {
    WB_CHECK(cudaMalloc(&W[c], wcount * sizeof(float)));
    probe_fill<<<1024, 256>>>(W[c], wcount, 17u + c);
  }
  WB_CHECK(cudaMalloc(&x, n * sizeof(float)));
  WB_CHECK(cudaMalloc(&y, d * sizeof(float)));
  probe_fill<<<16, 256>>>(x, n, 99u);
  WB_CHECK(cudaDeviceSynchronize());
  const int blocks = (d * 32 + 255) / 256;
  int turn = 0;
  auto rotating = [&] { probe_matvec_warp<<<blocks, 256>>>(W[turn++ % copies], x, y, d, n); };

  const wb::Stats cold = wb::time_kernel([&] { probe_matvec_warp<<<blocks, 256>>>(W[0], x, y, d, n); });
  wb::TimingOptions warm;
  warm.flush_l2 = false;
  const wb::Stats serial_rot = wb::time_kernel(rotating, warm);
  wb::TimingOptions events = warm;
  events.kernel_clock = false;
  const wb::Stats events_rot = wb::time_kernel(rotating, events);
  auto mv = [&](int k, cudaStream_t s) { probe_matvec_warp<<<blocks, 256, 0, s>>>(W[k % copies], x, y, d, n); };
  const double g32 = graph_us(32, mv) / 32;
  const double g64 = graph_us(64, mv) / 64;
  const double diff = (g64 * 64 - g32 * 32) / 32;
  auto empty = [](int, cudaStream_t s) { probe_empty_kernel<<<1, 32, 0, s>>>(); };
  const double e32 = graph_us(32, empty) / 32;
  const wb::Stats empty_events = wb::time_kernel([] { probe_empty_kernel<<<1, 32>>>(); }, events);
  std::printf("serial_cold %.3f %s\nserial_rot %.3f %s\nevents_rot %.3f %s\n", cold.median * 1e3,
              cold.clock.c_str(), serial_rot.median * 1e3, serial_rot.clock.c_str(), events_rot.median * 1e3,
              events_rot.clock.c_str());
  std::printf("graph_rot32 %.3f\ngraph_rot64 %.3f\ngraph_diff %.3f\n", g32, g64, diff);
  std::printf("empty_graph32 %.3f\nempty_events_batch %.3f\n", e32, empty_events.median * 1e3);
  for (float* p : W) WB_CHECK(cudaFree(p));
  WB_CHECK(cudaFree(x));
  WB_CHECK(cudaFree(y));
  return 0;
}
