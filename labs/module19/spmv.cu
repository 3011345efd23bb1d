/*
Module 19 lab: sparse matrix times dense vector (SpMV) in CSR, two ways and the library.
STARTER: build_row_ptr, spmv_cpu, spmv_scalar, spmv_vector and effective_gbps below are
yours to write (see their TODOs); the generator, the launchers, cuSPARSE and main are
complete.

y = A x, where A is a ROWS x ROWS sparse matrix stored in CSR (row_ptr, col, val) and x a
dense vector. Every stored value is used once, for one multiply and one add, and costs
8 bytes (its value and its column index) plus a gathered x: SpMV is memory-bound and is
judged in GB/s. Three versions:

  spmv_scalar    one thread per row: each thread walks its own row. Neighbouring lanes
                 read val/col about NNZ entries apart (uncoalesced), and a warp lasts as
                 long as its longest row (load imbalance)
  spmv_vector    one warp per row: the 32 lanes walk the row together, 32 neighbouring
                 entries per step (coalesced), then fold their partial sums with
                 __shfl_down_sync. Good for long rows; wasteful when a row has a handful
                 of entries, since most lanes then idle
  cusparseSpMV   the library (generic API, CSR, CUSPARSE_SPMV_ALG_DEFAULT)

The lab runs two random matrices with the same shape: about NNZ stored entries a row
(uniform in NNZ +- NNZ/4: 48..80 for 64) and about NNZ_SHORT a row (3..5 for 4). Column
indices are drawn uniformly over all columns (distinct and sorted within a row), values
and x uniformly in [-1, 1], all from the run's seed.

What is checked:
  - effective_gbps against a case worked by hand (gbps_formula);
  - on a small irregular matrix (1001 x 997: not a multiple of 256 threads or 8 warps a
    block; every ninth row empty, one row of 600 entries, the rest 1..90 entries): the
    row pointers against the row lengths (csr_row_ptr), the CPU reference against a dense
    double product (cpu_odd), then the scalar kernel, the vector kernel and cuSPARSE
    against the CPU reference, with y between canary bands (*_odd_bounds);
  - each version on both big matrices (scalar_ok, vector_ok, cusparse_ok and *_short_ok).
Each version that passes is then timed with wb::time_kernel (median of single launches,
each after an L2 flush: the default matrix is 52 MB, which an H200's 60 MB L2 could
otherwise hold between launches) and its effective bandwidth reported by the workbook's
count: (8 nnz + 8 rows + 4 cols) bytes over the time.

The device copies of the matrix carry a tail: row_ptr repeats nnz for kPadRows more
entries, col and val hold kPadEntries zeros past the end. A kernel with a missing guard
or a loop that runs one entry too far then reads an empty row or a zero instead of
faulting, and its mistake shows up as a failed check (with row numbers) or a canary hit.

Build and run by hand (note -lcusparse):
  nvcc -O3 -arch=native -I labs/common labs/module19/spmv.cu -o spmv -lcusparse && ./spmv

Parameters (NAME=VALUE): ROWS (rows = columns, default 100,000; 50,000 with quick=1),
NNZ (mean entries a row of the first matrix, default 64), NNZ_SHORT (of the second,
default 4), seed, quick=1.
*/

#include <cusparse.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "workbook.cuh"

// Checks a cuSPARSE status; on failure records an error and exits 4.
#define CUSPARSE_CHECK(call)                                                                       \
  do {                                                                                             \
    const cusparseStatus_t st_ = (call);                                                           \
    if (st_ != CUSPARSE_STATUS_SUCCESS)                                                            \
      wb::fatal(std::string("spmv.cu:") + std::to_string(__LINE__),                                \
                std::string(#call) + ": " + cusparseGetErrorString(st_));                          \
  } while (0)

// ----------------------------------------------------------------------------
// The matrix (host side)

struct Csr {
  int rows = 0, cols = 0;
  long long nnz = 0;
  std::vector<int> row_ptr;  // rows + 1 entries: row r owns entries row_ptr[r] .. row_ptr[r+1]-1
  std::vector<int> col;      // nnz column indices, row after row
  std::vector<float> val;    // nnz values, in the same order
};

// Row pointers from row lengths: row_ptr[0] = 0 and each row starts where the previous
// one ends (an exclusive prefix sum). An empty row has row_ptr[r] == row_ptr[r + 1].
void build_row_ptr(const std::vector<int>& lengths, std::vector<int>& row_ptr) {
  row_ptr.assign(lengths.size() + 1, 0);
  // TODO (Module 19 lab, step 1): until you fill row_ptr, every entry stays 0,
  // csr_row_ptr fails and nothing runs on the matrices.
  // lengths[r] is the number of stored entries of row r; row_ptr (rows + 1 entries,
  // row_ptr[0] already 0) must say where each row's entries start in col and val, with
  // the rows stored one after the other, and its last entry must come out as nnz.
  // Check yourself on lengths {2, 0, 3}: the pointers are {0, 2, 2, 5}. Pitfall: an
  // empty row still has its pointer.
}

// Writes `len` distinct column indices in [0, cols), ascending, to out[0 .. len).
void draw_columns(wb::Rng& rng, int cols, int len, int* out) {
  if (4LL * len > cols) {
    // A dense row: walk the columns once and keep each with probability
    // (still needed) / (still left), which picks exactly `len` of them, in order.
    int needed = len;
    for (int c = 0; c < cols && needed > 0; ++c)
      if (rng.uniform() * (cols - c) < needed) {
        *out++ = c;
        --needed;
      }
    return;
  }
  // A sparse row: draw, sort, drop repeats, draw again for the places they leave.
  int have = 0;
  while (have < len) {
    for (int i = have; i < len; ++i) out[i] = static_cast<int>(rng.uniform() * cols);
    std::sort(out, out + len);
    have = static_cast<int>(std::unique(out, out + len) - out);
  }
}

// A random CSR matrix with the given row lengths. The entries are laid out with a running
// offset of their own, so a wrong build_row_ptr cannot change what the matrix holds (and
// csr_row_ptr can compare the two).
Csr make_csr(int rows, int cols, const std::vector<int>& lengths, unsigned long long stream) {
  Csr a;
  a.rows = rows;
  a.cols = cols;
  for (int len : lengths) a.nnz += len;
  a.col.resize(static_cast<size_t>(a.nnz));
  a.val.resize(static_cast<size_t>(a.nnz));
  wb::Rng rng(stream);
  size_t at = 0;
  for (int r = 0; r < rows; ++r) {
    draw_columns(rng, cols, lengths[r], a.col.data() + at);
    for (int i = 0; i < lengths[r]; ++i) a.val[at + i] = static_cast<float>(2.0 * rng.uniform() - 1.0);
    at += static_cast<size_t>(lengths[r]);
  }
  build_row_ptr(lengths, a.row_ptr);
  return a;
}

// Row lengths uniform in [mean - mean/4, mean + mean/4] (integer division): mean NNZ.
std::vector<int> uniform_lengths(int rows, int mean, unsigned long long stream) {
  const int lo = mean - mean / 4, hi = mean + mean / 4;
  wb::Rng rng(stream);
  std::vector<int> len(static_cast<size_t>(rows));
  for (int& l : len) l = lo + static_cast<int>(rng.uniform() * (hi - lo + 1));
  return len;
}

// ----------------------------------------------------------------------------
// CPU reference

// y = A x in double: the reference every GPU result is compared with.
void spmv_cpu(const Csr& a, const float* x, double* y) {
  // TODO (Module 19 lab, step 1): until you write this loop, y stays NaN: cpu_odd fails,
  // and so does every GPU check (they compare with this reference).
  // y = A x for the CSR matrix a, one output per row, summed in double: this is the
  // reference every GPU check compares with, so it must be the most accurate of all
  // (each product exact, which a float product is not). Checked on the odd matrix
  // (cpu_odd). Pitfall: an empty row still gets its y, 0.
  (void)a;
  (void)x;
  (void)y;
}

// ----------------------------------------------------------------------------
// GPU kernels

// Design 1: thread r computes y[r] alone.
__global__ void spmv_scalar(const int* __restrict__ row_ptr, const int* __restrict__ col,
                            const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y,
                            int rows) {
  // TODO (Module 19 lab, step 2): until you write this kernel, y stays poisoned (NaN)
  // and scalar_odd, scalar_ok and scalar_short_ok fail.
  //
  // Contract: y = A x for the CSR matrix (row_ptr, col, val) with `rows` rows, one
  // thread per row, summed in a float; launch_scalar starts 256-thread blocks, rounded
  // up. Checks: the odd matrix (1001 rows, so the last block has spare threads) with y
  // between canary bands (scalar_odd, scalar_odd_bounds), the default matrix and one of
  // short rows (scalar_ok, scalar_short_ok). Pitfalls: every row must be written, empty
  // ones too; spare threads store nothing. Then ask yourself where the 32 lanes of a
  // warp read val at the same step.
  (void)row_ptr;
  (void)col;
  (void)val;
  (void)x;
  (void)y;
  (void)rows;
}

// Design 2: a warp for each row.
__global__ void spmv_vector(const int* __restrict__ row_ptr, const int* __restrict__ col,
                            const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y,
                            int rows) {
  // TODO (Module 19 lab, step 2): until you write this kernel, y stays poisoned (NaN)
  // and vector_odd, vector_ok and vector_short_ok fail.
  //
  // Contract: the same y as spmv_scalar, but one warp per row: launch_vector starts
  // 8 warps a block, rounded up, so the last block can hold warps with no row. The 32
  // lanes share the row's entries so that at each step they read neighbouring entries
  // of val and col (coalesced); their partial sums are combined inside the warp, with
  // no shared memory or barrier, and the row's total is stored once. Checks: the odd
  // matrix (1001 rows: spare warps in the last block) with y between canary bands
  // (vector_odd, vector_odd_bounds), the default and short-row matrices (vector_ok,
  // vector_short_ok). Pitfalls: warp-wide operations need every lane still running,
  // so a warp without a row leaves as a whole, never lane by lane; empty rows are
  // written too; only one lane stores.
  (void)row_ptr;
  (void)col;
  (void)val;
  (void)x;
  (void)y;
  (void)rows;
}

// ----------------------------------------------------------------------------
// Device copies and launchers (enqueue only)

constexpr int kBlock = 256;        // 256 threads: 256 rows (scalar) or 8 rows (vector) a block
constexpr int kPadRows = kBlock;   // row_ptr entries past the end, all equal to nnz
constexpr int kPadEntries = 32;    // zero col/val entries past the end

int ceil_div(long long a, int b) { return static_cast<int>((a + b - 1) / b); }

struct DeviceCsr {
  int rows = 0, cols = 0;
  long long nnz = 0;
  int* row_ptr = nullptr;
  int* col = nullptr;
  float* val = nullptr;
};

DeviceCsr upload(const Csr& a) {
  DeviceCsr d;
  d.rows = a.rows;
  d.cols = a.cols;
  d.nnz = a.nnz;
  std::vector<int> rp(a.row_ptr);
  rp.resize(static_cast<size_t>(a.rows) + 1 + kPadRows, static_cast<int>(a.nnz));
  std::vector<int> c(a.col);
  c.resize(static_cast<size_t>(a.nnz) + kPadEntries, 0);
  std::vector<float> v(a.val);
  v.resize(static_cast<size_t>(a.nnz) + kPadEntries, 0.0f);
  WB_CHECK(cudaMalloc(&d.row_ptr, rp.size() * sizeof(int)));
  WB_CHECK(cudaMalloc(&d.col, c.size() * sizeof(int)));
  WB_CHECK(cudaMalloc(&d.val, v.size() * sizeof(float)));
  WB_CHECK(cudaMemcpy(d.row_ptr, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(d.col, c.data(), c.size() * sizeof(int), cudaMemcpyHostToDevice));
  WB_CHECK(cudaMemcpy(d.val, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

void release(DeviceCsr& d) {
  WB_CHECK(cudaFree(d.row_ptr));
  WB_CHECK(cudaFree(d.col));
  WB_CHECK(cudaFree(d.val));
  d = DeviceCsr{};
}

void launch_scalar(const DeviceCsr& a, const float* x, float* y) {
  spmv_scalar<<<ceil_div(a.rows, kBlock), kBlock>>>(a.row_ptr, a.col, a.val, x, y, a.rows);
}

void launch_vector(const DeviceCsr& a, const float* x, float* y) {
  spmv_vector<<<ceil_div(32LL * a.rows, kBlock), kBlock>>>(a.row_ptr, a.col, a.val, x, y, a.rows);  // a warp a row
}

// cuSPARSE's generic API: descriptors for the matrix and the two vectors, a work buffer
// sized once, then one cusparseSpMV call per product (y = 1 * A x + 0 * y).
struct CusparseSpmv {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  void* buffer = nullptr;
  float alpha = 1.0f, beta = 0.0f;

  CusparseSpmv(cusparseHandle_t h, const DeviceCsr& a, float* x, float* y) : handle(h) {
    CUSPARSE_CHECK(cusparseCreateCsr(&mat, a.rows, a.cols, a.nnz, a.row_ptr, a.col, a.val, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vx, a.cols, x, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vy, a.rows, y, CUDA_R_32F));
    size_t bytes = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    WB_CHECK(cudaMalloc(&buffer, std::max<size_t>(bytes, 1)));
  }
  void run() {
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  }
  ~CusparseSpmv() {
    cusparseDestroySpMat(mat);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cudaFree(buffer);
  }
};

// ----------------------------------------------------------------------------
// Effective bandwidth, the workbook's count: each stored entry brings its value and its
// column index (8 bytes), each row its row pointer and its y (8 bytes), and x is read
// once (4 bytes a column). Gathers of x that miss the caches are not counted.
double effective_gbps(long long nnz, long long rows, long long cols, double ms) {
  // TODO (Module 19 lab, step 3): until you write it, this returns 0, gbps_formula fails
  // and every *_gbps figure reads 0.
  // Return the effective bandwidth in GB/s (1e9 bytes a second) of one SpMV that took
  // ms milliseconds, counting the bytes the comment above lists (each read or written
  // once). Pitfalls: int products overflow at these sizes; the time is in milliseconds.
  (void)nnz;
  (void)rows;
  (void)cols;
  (void)ms;
  return 0.0;
}

// ----------------------------------------------------------------------------
// main

// Tolerance. A float sum of L products, each of size at most 1, differs from the exact
// sum by at most about L * eps * (sum of |products|) in the worst case, and by a few eps
// times sqrt(L) typically. rtol 1e-4 covers rows whose sum is not small; for sums that
// cancel, atol = 4 L FLT_EPSILON with L the longest row (3.8e-5 at 80 entries, 2.9e-4
// at the odd matrix's 600) is still about 1000 times below the size of one product that
// a wrong kernel adds or drops (about 1/3 on average).
bool check_y(const char* name, const std::vector<float>& got, const std::vector<double>& ref, int longest) {
  return wb::compare(name, got.data(), ref.data(), ref.size(), 1e-4, 4.0 * std::max(longest, 1) * FLT_EPSILON);
}

// Poisons y and re-arms its canary bands, runs one product, checks it; with a
// bounds_name also records whether anything was written outside y.
template <class Launch>
bool run_and_check(const char* name, Launch launch, float* dy, const std::vector<double>& ref, int longest,
                   const char* bounds_name = nullptr) {
  wb::poison_output(dy);
  launch();
  WB_CHECK_LAUNCH();
  if (bounds_name) wb::check_bounds(bounds_name, dy);
  std::vector<float> got(ref.size());
  WB_CHECK(cudaMemcpy(got.data(), dy, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return check_y(name, got, ref, longest);
}

// How many rows of row_ptr disagree with the lengths the matrix was built from (1 when
// its size or its first entry is wrong). Nothing runs on a matrix whose row_ptr is wrong:
// cuSPARSE, given row pointers that do not end at nnz, may read past the arrays.
long long row_ptr_problems(const Csr& a, const std::vector<int>& lengths) {
  if (a.row_ptr.size() != lengths.size() + 1 || a.row_ptr[0] != 0) return 1;
  long long bad = 0;
  for (size_t r = 0; r < lengths.size(); ++r) bad += a.row_ptr[r + 1] - a.row_ptr[r] != lengths[r];
  return bad + (a.row_ptr.back() != a.nnz);
}

// Records failed checks for the ones a broken step kept from running.
void not_run(std::initializer_list<std::string> names, const std::string& why) {
  for (const std::string& n : names) wb::check(n.c_str(), false, why);
}

int longest_row(const std::vector<int>& lengths) {
  return lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
}

// The small irregular matrix: every structural problem a kernel can trip over at once.
void odd_case(cusparseHandle_t handle) {
  constexpr int rows = 1001, cols = 997;
  std::vector<int> lengths(rows);
  wb::Rng rng(10);
  for (int r = 0; r < rows; ++r) lengths[r] = 1 + static_cast<int>(rng.uniform() * 90);
  for (int r = 4; r < rows; r += 9) lengths[r] = 0;  // empty rows: y must still be written (0)
  lengths[500] = 600;                                 // a long row: 19 steps of 32 lanes
  const Csr a = make_csr(rows, cols, lengths, 11);
  const long long bad = row_ptr_problems(a, lengths);
  wb::check("csr_row_ptr", bad == 0, static_cast<double>(bad), 0,
            bad ? "row_ptr must start at 0 and grow by each row's length (an exclusive prefix sum)"
                : "row_ptr[0] = 0, every row's extent equals its length, row_ptr[rows] = nnz");
  if (bad) {
    not_run({"cpu_odd", "scalar_odd", "scalar_odd_bounds", "vector_odd", "vector_odd_bounds", "cusparse_odd",
             "cusparse_odd_bounds"},
            "not run: row_ptr does not describe the matrix (csr_row_ptr)");
    return;
  }

  std::vector<float> x(cols);
  wb::fill_uniform(x.data(), x.size(), -1.0f, 1.0f, 12);

  // The CPU reference against the dense product, laid out from the lengths (not row_ptr).
  // Summed in double in the same column order, the two agree to the last bits; 1e-6 also
  // lets through a reference that rounds each product to float before adding (about 6e-8
  // of a product each) and is still 10^5 times below one entry dropped or added twice.
  std::vector<double> dense(static_cast<size_t>(rows) * cols, 0.0), want(rows, 0.0);
  size_t at = 0;
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < lengths[r]; ++i, ++at) dense[static_cast<size_t>(r) * cols + a.col[at]] = a.val[at];
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) want[r] += dense[static_cast<size_t>(r) * cols + c] * x[c];
  std::vector<double> ref(rows, std::nan(""));
  spmv_cpu(a, x.data(), ref.data());
  wb::compare("cpu_odd", ref.data(), want.data(), rows, 1e-6, 1e-6);

  DeviceCsr d = upload(a);
  float* dx = nullptr;
  WB_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  WB_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  float* dy = wb::alloc_output<float>(rows);
  const int longest = longest_row(lengths);
  run_and_check("scalar_odd", [&] { launch_scalar(d, dx, dy); }, dy, ref, longest, "scalar_odd_bounds");
  run_and_check("vector_odd", [&] { launch_vector(d, dx, dy); }, dy, ref, longest, "vector_odd_bounds");
  {
    CusparseSpmv lib(handle, d, dx, dy);
    run_and_check("cusparse_odd", [&] { lib.run(); }, dy, ref, longest, "cusparse_odd_bounds");
  }
  wb::free_output(dy);
  WB_CHECK(cudaFree(dx));
  release(d);
}

// One big matrix: check the three versions, time those that pass. suffix "" or "_short".
void big_case(cusparseHandle_t handle, int rows, int mean, const std::string& suffix, unsigned long long stream) {
  const std::vector<int> lengths = uniform_lengths(rows, mean, stream);
  const Csr a = make_csr(rows, rows, lengths, stream + 1);
  std::printf("matrix%s: %d x %d, %lld stored entries (%.1f a row, %d to %d), %.1f MB by the workbook's count\n",
              suffix.c_str(), rows, rows, a.nnz, static_cast<double>(a.nnz) / rows, mean - mean / 4, mean + mean / 4,
              (8.0 * a.nnz + 12.0 * rows) / 1e6);
  wb::metric(("nnz" + (suffix.empty() ? std::string("_long") : suffix)).c_str(), static_cast<double>(a.nnz),
             "count");
  if (row_ptr_problems(a, lengths) != 0) {
    not_run({"scalar" + suffix + "_ok", "vector" + suffix + "_ok", "cusparse" + suffix + "_ok"},
            "not run: row_ptr does not describe the matrix (csr_row_ptr)");
    return;
  }

  std::vector<float> x(rows);
  wb::fill_uniform(x.data(), x.size(), -1.0f, 1.0f, stream + 2);
  std::vector<double> ref(rows, std::nan(""));
  spmv_cpu(a, x.data(), ref.data());

  DeviceCsr d = upload(a);
  float* dx = nullptr;
  WB_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  WB_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  float* dy = wb::alloc_output<float>(rows);
  const int longest = longest_row(lengths);
  CusparseSpmv lib(handle, d, dx, dy);

  struct Version {
    std::string name;
    bool ok;
  };
  Version versions[] = {
      {"scalar", run_and_check(("scalar" + suffix + "_ok").c_str(), [&] { launch_scalar(d, dx, dy); }, dy, ref, longest)},
      {"vector", run_and_check(("vector" + suffix + "_ok").c_str(), [&] { launch_vector(d, dx, dy); }, dy, ref, longest)},
      {"cusparse", run_and_check(("cusparse" + suffix + "_ok").c_str(), [&] { lib.run(); }, dy, ref, longest)},
  };
  for (const Version& v : versions) {
    if (!v.ok) {
      std::printf("%s%s failed its check: not timed\n", v.name.c_str(), suffix.c_str());
      continue;
    }
    wb::Stats st;
    if (v.name == "scalar") st = wb::time_kernel([&] { launch_scalar(d, dx, dy); });
    if (v.name == "vector") st = wb::time_kernel([&] { launch_vector(d, dx, dy); });
    if (v.name == "cusparse") st = wb::time_kernel([&] { lib.run(); });
    wb::metric((v.name + suffix + "_ms").c_str(), st, "ms");
    wb::metric((v.name + suffix + "_gbps").c_str(), effective_gbps(a.nnz, rows, rows, st.median), "GB/s");
  }
  wb::free_output(dy);
  WB_CHECK(cudaFree(dx));
  release(d);
}

int main(int argc, char** argv) {
  wb::init_cuda(argc, argv, "module19/spmv");
  const long long rows_param = wb::param("ROWS", 100000, 50000);
  const long long nnz_param = wb::param("NNZ", 64);
  const long long short_param = wb::param("NNZ_SHORT", 4);
  wb::params_done();
  if (rows_param < 1000 || rows_param > 10000000) wb::bad_argument("ROWS must be between 1,000 and 10,000,000");
  if (nnz_param < 1 || nnz_param > 4096 || short_param < 1 || short_param > 4096)
    wb::bad_argument("NNZ and NNZ_SHORT must be between 1 and 4096");
  const long long widest = std::max(nnz_param, short_param);
  if (widest + widest / 4 > rows_param) wb::bad_argument("a row cannot hold more entries than ROWS columns");
  if (rows_param * (widest + widest / 4) > 200000000LL)
    wb::bad_argument("ROWS x NNZ is too large (at most 200 million stored entries)");
  const int rows = static_cast<int>(rows_param);

  // The bandwidth formula on a case worked by hand: 2,000,000 entries, 50,000 rows,
  // 40,000 columns in 0.5 ms: (16,000,000 + 400,000 + 160,000) bytes / 0.5 ms = 33.12 GB/s.
  const double formula = effective_gbps(2000000, 50000, 40000, 0.5);
  wb::check("gbps_formula", std::fabs(formula - 33.12) <= 1e-9 * 33.12, formula, 33.12,
            "effective_gbps(nnz 2e6, rows 5e4, cols 4e4, 0.5 ms) must be 33.12 GB/s");

  cusparseHandle_t handle;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  odd_case(handle);
  big_case(handle, rows, static_cast<int>(nnz_param), "", 20);
  big_case(handle, rows, static_cast<int>(short_param), "_short", 30);
  CUSPARSE_CHECK(cusparseDestroy(handle));
  return wb::finish();
}
