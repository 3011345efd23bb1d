// A small training-like loop for `workbook experiment` on a GPU: linear regression by
// gradient descent over N samples of D features, the samples stored in FP32, or in BF16
// when built with -DTRAIN_BF16 (half the bytes each step reads; sums stay in FP32). Each
// step is two memory-bound passes over the samples (the forward product with its loss,
// then the gradient) and an update; it prints llm.c-style lines:
//   step 3/40: train loss 0.1234 (1.52 ms, 172000000 tok/s)      ("tok/s": samples per second)
//   val loss 0.0102
// Build: nvcc -O3 -arch=native train_loop.cu -o train_fp32
//        nvcc -O3 -arch=native -DTRAIN_BF16 train_loop.cu -o train_bf16
// Run:   ./train_fp32 [steps] [N] [D]      (defaults 40, 262144, 1024)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

#ifdef TRAIN_BF16
using Sample = __nv_bfloat16;
__device__ __forceinline__ float as_float(Sample v) { return __bfloat162float(v); }
__device__ __forceinline__ Sample from_float(float v) { return __float2bfloat16(v); }
static const char* kPrecision = "bf16";
#else
using Sample = float;
__device__ __forceinline__ float as_float(Sample v) { return v; }
__device__ __forceinline__ Sample from_float(float v) { return v; }
static const char* kPrecision = "fp32";
#endif

// A value in [-1, 1) from a counter (no cuRAND needed).
__device__ __forceinline__ float hashed(unsigned long long i, unsigned seed) {
  unsigned long long z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) / static_cast<float>(1ull << 23) - 1.0f;
}

// Samples, the true weights and the targets y = x . w_true + small noise.
__global__ void make_data(Sample* x, float* y, const float* w_true, int n, int d, unsigned seed) {
  const int row = blockIdx.x;
  float dot = 0;
  for (int j = threadIdx.x; j < d; j += blockDim.x) {
    const Sample v = from_float(hashed(static_cast<unsigned long long>(row) * d + j, seed));
    x[static_cast<size_t>(row) * d + j] = v;
    dot += as_float(v) * w_true[j];
  }
  __shared__ float part[256];
  part[threadIdx.x] = dot;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0 && row < n) y[row] = part[0] + 0.01f * hashed(row, seed + 7);
}

__global__ void true_weights(float* w, int d) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < d) w[j] = hashed(j, 12345u) * 0.1f;
}

// One warp per sample: residual r = x . w - y, and the sum of r^2 into *loss.
__global__ void forward_loss(const Sample* x, const float* y, const float* w, float* r, float* loss, int n, int d) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= n) return;
  const Sample* row = x + static_cast<size_t>(warp) * d;
  float dot = 0;
  for (int j = lane; j < d; j += 32) dot += as_float(row[j]) * w[j];
  for (int o = 16; o > 0; o /= 2) dot += __shfl_down_sync(0xffffffffu, dot, o);
  if (lane == 0) {
    const float res = dot - y[warp];
    r[warp] = res;
    atomicAdd(loss, res * res);
  }
}

// g[j] += sum over a chunk of samples of x[i][j] * r[i]: consecutive threads read
// consecutive features of one sample (coalesced); chunks of samples run side by side.
__global__ void gradient(const Sample* x, const float* r, float* g, int n, int d, int rows_per_chunk) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= d) return;
  const int first = blockIdx.y * rows_per_chunk, last = min(n, first + rows_per_chunk);
  float acc = 0;
  for (int i = first; i < last; ++i) acc += as_float(x[static_cast<size_t>(i) * d + j]) * r[i];
  atomicAdd(&g[j], acc);
}

__global__ void update(float* w, float* g, int d, float lr_over_n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < d) {
    w[j] -= lr_over_n * g[j];
    g[j] = 0;
  }
}

struct Problem {
  int n, d;
  Sample* x;
  float *y, *r;
};

Problem make_problem(int n, int d, const float* w_true, unsigned seed) {
  Problem p{n, d, nullptr, nullptr, nullptr};
  CHECK(cudaMalloc(&p.x, sizeof(Sample) * static_cast<size_t>(n) * d));
  CHECK(cudaMalloc(&p.y, sizeof(float) * n));
  CHECK(cudaMalloc(&p.r, sizeof(float) * n));
  make_data<<<n, 256>>>(p.x, p.y, w_true, n, d, seed);
  CHECK(cudaGetLastError());
  return p;
}

// The mean squared residual / 2 of `p` under `w` (one forward pass).
float loss_of(const Problem& p, const float* w, float* d_loss) {
  CHECK(cudaMemset(d_loss, 0, sizeof(float)));
  forward_loss<<<(p.n * 32 + 255) / 256, 256>>>(p.x, p.y, w, p.r, d_loss, p.n, p.d);
  CHECK(cudaGetLastError());
  float h = 0;
  CHECK(cudaMemcpy(&h, d_loss, sizeof(float), cudaMemcpyDeviceToHost));
  return h / (2.0f * p.n);
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 40;
  const int n = argc > 2 ? std::atoi(argv[2]) : 262144;
  const int d = argc > 3 ? std::atoi(argv[3]) : 1024;
  float *w_true, *w, *g, *d_loss;
  CHECK(cudaMalloc(&w_true, sizeof(float) * d));
  CHECK(cudaMalloc(&w, sizeof(float) * d));
  CHECK(cudaMalloc(&g, sizeof(float) * d));
  CHECK(cudaMalloc(&d_loss, sizeof(float)));
  true_weights<<<(d + 255) / 256, 256>>>(w_true, d);
  CHECK(cudaMemset(w, 0, sizeof(float) * d));
  CHECK(cudaMemset(g, 0, sizeof(float) * d));
  const Problem train = make_problem(n, d, w_true, 1u), val = make_problem(n / 8, d, w_true, 2u);
  CHECK(cudaDeviceSynchronize());
  std::printf("train_loop (%s): %d samples x %d features, %d steps\n", kPrecision, n, d, steps);
  const int chunk = 1024;
  const dim3 grad_grid((d + 255) / 256, (n + chunk - 1) / chunk);
  const float lr = 1.5f;  // the features are uniform in [-1, 1): the Hessian is about I/3
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  for (int s = 1; s <= steps; ++s) {
    CHECK(cudaEventRecord(t0));
    CHECK(cudaMemsetAsync(d_loss, 0, sizeof(float)));
    forward_loss<<<(n * 32 + 255) / 256, 256>>>(train.x, train.y, w, train.r, d_loss, n, d);
    gradient<<<grad_grid, 256>>>(train.x, train.r, g, n, d, chunk);
    update<<<(d + 255) / 256, 256>>>(w, g, d, lr / n);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaGetLastError());
    float ms = 0, h_loss = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(cudaMemcpy(&h_loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("step %d/%d: train loss %.6g (%.3f ms, %.0f tok/s)\n", s, steps, h_loss / (2.0f * n), ms,
                n / (ms * 1e-3));
  }
  std::printf("val loss %.6g\n", loss_of(val, w, d_loss));
  return 0;
}
