// Timing probe (issue 9, study 5): does CUPTI's concurrent-kernel tracing cost a kernel
// time in proportion to its blocks? The same cold vector add written two ways: one
// element per thread (65,536 blocks of 256 for N = 2^24) and a grid-stride loop over
// 4 blocks per SM. If tracing instruments every block, the first slows under tracing
// and the second hardly does.
//   nvcc -O3 -arch=sm_90 -I labs/common scripts/device/probes/tracing_cost.cu -o tracing_cost
//   WB_TIMING=<mode> ./tracing_cost      (prints "name median_us clock")
#include "workbook.cuh"

__global__ void probe_add_per_thread(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void probe_add_strided(const float* a, const float* b, float* c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "tracing_cost");
  const int n = 1 << 24;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  WB_CHECK(cudaMalloc(&a, n * sizeof(float)));
  WB_CHECK(cudaMalloc(&b, n * sizeof(float)));
  WB_CHECK(cudaMalloc(&c, n * sizeof(float)));
  WB_CHECK(cudaMemset(a, 0x3f, n * sizeof(float)));  // 0.75-ish everywhere: finite inputs
  WB_CHECK(cudaMemset(b, 0x3e, n * sizeof(float)));
  int sms = 0;
  WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const wb::Stats per_thread =
      wb::time_kernel([&] { probe_add_per_thread<<<(n + 255) / 256, 256>>>(a, b, c, n); });
  const wb::Stats strided = wb::time_kernel([&] { probe_add_strided<<<4 * sms, 256>>>(a, b, c, n); });
  std::printf("probe_add_per_thread %.3f %s\nprobe_add_strided %.3f %s\n", per_thread.median * 1e3,
              per_thread.clock.c_str(), strided.median * 1e3, strided.clock.c_str());
  WB_CHECK(cudaFree(a));
  WB_CHECK(cudaFree(b));
  WB_CHECK(cudaFree(c));
  return 0;
}
