// Timing probe (issue 9): how far apart do the harness's kernel clock (CUPTI activity
// durations) and Nsight Compute's gpu__time_duration sit for kernels too short for any
// cache effect to matter? An empty one-warp kernel and a short grid that writes 1 MB.
// A constant gap here is a difference between the two instruments, not the harness.
//   nvcc -O3 -arch=sm_90 -I labs/common scripts/device/probes/short_kernels.cu -o short_kernels
//   ./short_kernels            (prints "name median_us clock")
#include "workbook.cuh"

__global__ void probe_empty() {}

__global__ void probe_fill(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f + i;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "short_kernels");
  const int n = 1 << 18;
  float* out = nullptr;
  WB_CHECK(cudaMalloc(&out, n * sizeof(float)));
  wb::TimingOptions warm;
  warm.flush_l2 = false;
  wb::TimingOptions cold;  // the default: one launch after an L2 flush
  const wb::Stats e = wb::time_kernel([] { probe_empty<<<1, 32>>>(); }, warm);
  const wb::Stats f = wb::time_kernel([&] { probe_fill<<<n / 256, 256>>>(out, n); }, cold);
  std::printf("probe_empty %.3f %s\nprobe_fill %.3f %s\n", e.median * 1e3, e.clock.c_str(), f.median * 1e3,
              f.clock.c_str());
  WB_CHECK(cudaFree(out));
  return 0;
}
