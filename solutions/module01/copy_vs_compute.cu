/*
Module 1 lab: where does the time go, copies or compute? SOLUTION.

A 4K greyscale image (3840 x 2160 float pixels, about 33 MB) goes through a tone curve:
every pixel value x is replaced by p(x), a polynomial of degree DEGREE = 50 evaluated
with Horner's rule. That is 50 fused multiply-adds, i.e. 100 FLOPs, per pixel: the
workbook's "100 operations per pixel" filter. The program runs the three stages a GPU
offload always has, and times each one on its own with CUDA events:

  h2d     cudaMemcpyAsync of the image, host -> device (pinned host memory by default)
  kernel  the tone curve, one thread per pixel
  d2h     cudaMemcpyAsync of the result, device -> host

The result of the whole round trip is checked against a CPU reference (Horner in
double) on a fresh random image in [0, 1]. The kernel is also checked on its own on an
odd-sized image (1001 x 999 = 999999 pixels, which no block size divides), so that a
grid that rounds down leaves pixels unwritten (NaN) and a missing or off-by-one bounds
guard writes past the end of the output, where canary bands (wb::alloc_output) see it.

Build and run by hand:
  nvcc -O3 -arch=native -I labs/common solutions/module01/copy_vs_compute.cu -o copy_vs_compute && ./copy_vs_compute

Parameters (NAME=VALUE): WIDTH, HEIGHT (image size, default 3840 x 2160, 480 x 270 with
quick=1), PINNED (1: page-locked host buffers from cudaMallocHost, 0: ordinary pageable
malloc memory), seed (random image), quick=1 (small sizes, for a smoke run).
*/

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "workbook.cuh"

// Degree of the tone-curve polynomial: DEGREE multiply-adds = 2 * DEGREE FLOPs per pixel.
constexpr int DEGREE = 50;
constexpr int FLOPS_PER_PIXEL = 2 * DEGREE;

// Coefficients c[0..DEGREE], highest power first: p(x) = (((c0 x + c1) x + c2) x + ...).
// Every thread reads the same coefficient at the same step, which is what the constant
// cache is built for (one read serves the whole warp).
__constant__ float c_coef[DEGREE + 1];

// ----------------------------------------------------------------------------
// CPU reference

// The same Horner recurrence in double precision.
void tone_curve_cpu(const float* in, double* out, size_t n, const float* coef) {
  for (size_t i = 0; i < n; ++i) {
    const double x = in[i];
    double acc = coef[0];
    for (int k = 1; k <= DEGREE; ++k) acc = acc * x + coef[k];
    out[i] = acc;
  }
}

// ----------------------------------------------------------------------------
// GPU kernel

// One thread per pixel: read one float, do DEGREE fused multiply-adds, write one float.
__global__ void tone_curve(const float* in, float* out, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float acc = c_coef[0];
#pragma unroll
  for (int k = 1; k <= DEGREE; ++k) acc = fmaf(acc, x, c_coef[k]);
  out[i] = acc;  // one store per pixel
}

// ----------------------------------------------------------------------------
// Launcher (enqueue only; the caller checks and synchronizes)

void launch_tone_curve(const float* d_in, float* d_out, size_t n) {
  constexpr int kBlock = 256;
  const unsigned grid = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  tone_curve<<<grid, kBlock>>>(d_in, d_out, n);
}

// ----------------------------------------------------------------------------
// main

// Host buffers are either pinned (cudaMallocHost) or pageable (malloc): the copy engine
// can stream pinned memory straight over PCIe, while pageable memory is first staged
// through a pinned bounce buffer by the driver.
float* host_alloc(size_t bytes, bool pinned) {
  void* p = nullptr;
  if (pinned) {  // page-locked: the copy engine reads it directly
    WB_CHECK(cudaMallocHost(&p, bytes));
  } else {
    p = std::malloc(bytes);
    if (!p) wb::fatal("copy_vs_compute.cu", "out of host memory");
  }
  return static_cast<float*>(p);
}

void host_free(float* p, bool pinned) {
  if (pinned) WB_CHECK(cudaFreeHost(p));  // pinned buffers go back to the driver
  else std::free(p);
}

// The odd-sized correctness image: 1001 x 999 = 999999 pixels, a multiple of no block
// size, so the last block sticks out past the end of the data.
constexpr long long kOddWidth = 1001, kOddHeight = 999;

// Runs the kernel alone on a fresh odd-sized image and checks the values and the
// canary bands around the output. True when both pass.
bool check_odd_size(const float* coef) {
  const size_t n = static_cast<size_t>(kOddWidth) * kOddHeight;
  std::vector<float> in(n), out(n);
  wb::fill_uniform(in.data(), n, 0.0f, 1.0f, 2);
  std::vector<double> ref(n);
  tone_curve_cpu(in.data(), ref.data(), n, coef);
  float* d_in = nullptr;
  // A spare block's worth of input past the end, so a kernel without its guard reads
  // junk instead of faulting; the canary check then names the mistake.
  WB_CHECK(cudaMalloc(&d_in, (n + 1024) * sizeof(float)));
  WB_CHECK(cudaMemset(d_in, 0, (n + 1024) * sizeof(float)));
  WB_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float* d_out = wb::alloc_output<float>(n);
  launch_tone_curve(d_in, d_out, n);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  const bool values_ok = wb::compare("filter_odd_ok", out.data(), ref.data(), n, 1e-4, 1e-4, kOddWidth);
  const bool bounds_ok = wb::check_bounds("filter_odd_bounds", d_out);
  WB_CHECK(cudaFree(d_in));
  wb::free_output(d_out);
  return values_ok && bounds_ok;
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module01/copy_vs_compute");
  const long long width = wb::param("WIDTH", 3840, 480);
  const long long height = wb::param("HEIGHT", 2160, 270);
  const bool pinned = wb::param("PINNED", 1) != 0;
  wb::params_done();
  if (width < 1 || height < 1 || width * height > (1LL << 28))
    wb::bad_argument("WIDTH and HEIGHT must be positive, with at most 2^28 pixels");
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  const size_t bytes = n * sizeof(float);
  wb::metric("pixels", static_cast<double>(n), "count");
  std::printf("image %lld x %lld = %zu pixels, %.1f MB each way, %s host memory\n", width, height, n, bytes / 1e6,
              pinned ? "pinned" : "pageable");

  // Fresh inputs: pixel values in [0, 1]; coefficients in [-1, 1] / (k + 1), so the curve
  // stays bounded (|p(x)| < 5) and float32 Horner loses only a few ulps.
  float* h_in = host_alloc(bytes, pinned);
  float* h_out = host_alloc(bytes, pinned);
  wb::fill_uniform(h_in, n, 0.0f, 1.0f, 0);
  float coef[DEGREE + 1];
  wb::fill_uniform(coef, DEGREE + 1, -1.0f, 1.0f, 1);
  for (int k = 0; k <= DEGREE; ++k) coef[k] /= static_cast<float>(DEGREE + 1 - k);
  WB_CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
  std::vector<double> ref(n);
  tone_curve_cpu(h_in, ref.data(), n, coef);

  float* d_in = nullptr;
  WB_CHECK(cudaMalloc(&d_in, bytes + 1024 * sizeof(float)));  // spare block: see check_odd_size
  WB_CHECK(cudaMemset(d_in, 0, bytes + 1024 * sizeof(float)));
  float* d_out = wb::alloc_output<float>(n);  // poisoned (NaN), between canary bands

  // Correctness: the whole round trip, with the device output poisoned (NaN) and the
  // host output filled with NaN too, so an element nobody wrote cannot pass.
  for (size_t i = 0; i < n; ++i) h_out[i] = NAN;
  WB_CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  launch_tone_curve(d_in, d_out, n);
  WB_CHECK_LAUNCH();
  WB_CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
  // |p(x)| < 5 and each of the 50 float32 steps rounds by half an ulp of a value below 5:
  // the error stays near 50 * 0.5 * 5 * 6e-8 = 8e-6 in the worst case; atol = 1e-4 is
  // ten times that, and a wrong recurrence is off by O(0.1).
  const bool round_trip_ok = wb::compare("filter_ok", h_out, ref.data(), n, 1e-4, 1e-4, static_cast<size_t>(width));
  const bool bounds_ok = wb::check_bounds("filter_bounds", d_out);
  const bool odd_ok = check_odd_size(coef);
  const bool ok = round_trip_ok && bounds_ok && odd_ok;

  // Timing: each stage on its own, CUDA events around it, warm-up and median (see
  // wb::time_kernel). Copies do not touch the L2 in a way that matters, so no flush for
  // them; the kernel's input (33 MB) could sit in a large L2, so it is flushed first.
  // A pageable copy makes the host wait for the GPU (it stages the data through a
  // pinned buffer), so it cannot be queued behind time_kernel's hold kernel.
  wb::TimingOptions copy_opt;
  copy_opt.flush_l2 = false;
  copy_opt.max_time_s = 0.5;
  copy_opt.hold = pinned;
  copy_opt.kernel_clock = false;  // copies, not kernels: CUDA events
  const wb::Stats h2d = wb::time_kernel([&] { WB_CHECK(cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice)); }, copy_opt);
  wb::metric("h2d_ms", h2d, "ms");
  wb::metric("h2d_gbps", bytes / (h2d.median * 1e6), "GB/s");

  double kernel_median = 0.0;
  if (ok) {
    const wb::Stats k = wb::time_kernel([&] { launch_tone_curve(d_in, d_out, n); });
    wb::metric("kernel_ms", k, "ms");
    wb::metric("kernel_gflops", static_cast<double>(FLOPS_PER_PIXEL) * n / (k.median * 1e6), "GFLOP/s");
    kernel_median = k.median;
  } else {
    std::printf("the kernel failed a check: not timed\n");
  }

  const wb::Stats d2h = wb::time_kernel([&] { WB_CHECK(cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost)); }, copy_opt);
  wb::metric("d2h_ms", d2h, "ms");
  wb::metric("d2h_gbps", bytes / (d2h.median * 1e6), "GB/s");

  if (kernel_median > 0)
    std::printf("copies %.3f ms vs kernel %.3f ms: the copies take %.1fx as long as the kernel\n",
                h2d.median + d2h.median, kernel_median, (h2d.median + d2h.median) / kernel_median);

  WB_CHECK(cudaFree(d_in));
  wb::free_output(d_out);
  host_free(h_in, pinned);
  host_free(h_out, pinned);
  return wb::finish();
}
