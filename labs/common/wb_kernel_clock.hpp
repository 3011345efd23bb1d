// wb_kernel_clock.hpp: kernel durations from CUPTI, for wb::time_kernel.
//
// CUDA events time everything between two points in a stream: the kernels, and also the
// gaps the GPU leaves between them (a few microseconds a launch on an H200; seen: a 58 us
// vector add read as 61 us, an 18.6 us matrix-vector product as 20.3 us). CUPTI's
// activity records carry each kernel's own start and end on the GPU. This file loads
// CUPTI at run time (dlopen, so a lab needs no extra link flag and still runs where CUPTI
// is missing) and sums the durations of the kernels a timed region ran.
//
// Which records: the serialising kernel kind (CUPTI_ACTIVITY_KIND_KERNEL). The concurrent
// kind is what profilers use by default, but CUPTI gets its timestamps by instrumenting
// the kernel's code, and that costs every block: on an H200 a one-element-per-thread
// vector add of 65,536 blocks ran 4.2 us (7 %) slower while traced, a grid-stride one of
// 528 blocks 0.2 us (docs/validation/timing.md, study 5). The serial records leave the
// kernel alone and read a fixed 0.3-1.5 us more than Nsight Compute's gpu__time_duration
// instead. time_kernel runs one stream's kernels one after another anyway, so the
// serialisation costs nothing here.
//
// Where it cannot be used (no cupti.h when compiling, no libcupti when running, or
// another tool already holds CUPTI: nsys, ncu, compute-sanitizer), available() is false
// and time_kernel falls back to events. The library is looked for in $WB_CUPTI_LIB (the
// runner sets it from the toolkit it compiles with), then libcupti.so[.MAJOR] on the
// loader's path, then /usr/local/cuda's lib64 and extras/CUPTI/lib64.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<cupti.h>) && __has_include(<dlfcn.h>)
#define WB_HAVE_CUPTI 1
#endif
#endif

#ifdef WB_HAVE_CUPTI
#include <cupti.h>
#include <dlfcn.h>
#endif

namespace wb {
namespace detail {

#ifdef WB_HAVE_CUPTI
class KernelClock {
 public:
  static KernelClock& get() {
    static KernelClock clock;
    return clock;
  }
  bool available() const { return ok_; }

  // Starts recording kernels (records of the harness's own kernels are skipped).
  bool start() {
    if (!ok_) return false;
    if (enable_(kind_) != CUPTI_SUCCESS) {
      ok_ = false;
      return false;
    }
    total_ns() = 0;
    count() = 0;
    return true;
  }
  // Delivers every record so far (call after the timed work has finished) and returns
  // the summed kernel time in ms and, through `kernels`, how many kernels it covers.
  double take_ms(long long& kernels) {
    flush_(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const double ms = static_cast<double>(total_ns().load()) * 1e-6;
    kernels = count();
    total_ns() = 0;
    count() = 0;
    return ms;
  }
  void stop() {
    if (!ok_) return;
    flush_(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    disable_(kind_);
    total_ns() = 0;
    count() = 0;
  }

 private:
  using RegisterFn = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
  using KindFn = CUptiResult (*)(CUpti_ActivityKind);
  using FlushFn = CUptiResult (*)(uint32_t);
  using NextFn = CUptiResult (*)(uint8_t*, size_t, CUpti_Activity**);

  // Written by CUPTI's buffer callback, which may run on another thread.
  static std::atomic<unsigned long long>& total_ns() {
    static std::atomic<unsigned long long> v{0};
    return v;
  }
  static std::atomic<long long>& count() {
    static std::atomic<long long> v{0};
    return v;
  }
  static NextFn& next_fn() {
    static NextFn f = nullptr;
    return f;
  }

  static void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    constexpr size_t kBytes = 1 << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
    *size = *buffer ? kBytes : 0;
    *max_records = 0;
  }
  // Kernel records of every CUPTI version since 4 (CUpti_ActivityKernel4 .. 10) keep
  // start, end and name at the same offsets, so the oldest layout reads them all.
  static void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    while (next_fn() && next_fn()(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel4*>(record);
      if (k->name && std::strstr(k->name, "wb6detail")) continue;  // hold and flush kernels (namespace wb::detail)
      if (k->end > k->start) {
        total_ns() += static_cast<unsigned long long>(k->end - k->start);
        ++count();
      }
    }
    std::free(buffer);
  }

  KernelClock() {
    const char* forced = std::getenv("WB_TIMING");
    // "events" keeps CUPTI out; "traced" (events-traced) loads it for the study below.
    if (forced && std::string(forced).find("events") != std::string::npos &&
        std::string(forced).find("traced") == std::string::npos)
      return;
    std::vector<std::string> names;
    if (const char* p = std::getenv("WB_CUPTI_LIB")) names.push_back(p);
    names.push_back("libcupti.so");
    names.push_back("libcupti.so." + std::to_string(CUDART_VERSION / 1000));
    names.push_back("/usr/local/cuda/lib64/libcupti.so");
    names.push_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
    void* lib = nullptr;
    for (const std::string& n : names)
      if (!lib && !n.empty()) lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    auto reg = reinterpret_cast<RegisterFn>(dlsym(lib, "cuptiActivityRegisterCallbacks"));
    enable_ = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityEnable"));
    disable_ = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityDisable"));
    flush_ = reinterpret_cast<FlushFn>(dlsym(lib, "cuptiActivityFlushAll"));
    next_fn() = reinterpret_cast<NextFn>(dlsym(lib, "cuptiActivityGetNextRecord"));
    if (!reg || !enable_ || !disable_ || !flush_ || !next_fn()) return;
    // WB_TIMING=concurrent records with the concurrent kind instead (timing study 5).
    if (forced && std::string(forced).find("concurrent") != std::string::npos)
      kind_ = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    ok_ = reg(requested, completed) == CUPTI_SUCCESS;
  }

  bool ok_ = false;
  CUpti_ActivityKind kind_ = CUPTI_ACTIVITY_KIND_KERNEL;
  KindFn enable_ = nullptr, disable_ = nullptr;
  FlushFn flush_ = nullptr;
};
#else
class KernelClock {  // compiled without cupti.h: events only
 public:
  static KernelClock& get() {
    static KernelClock clock;
    return clock;
  }
  bool available() const { return false; }
  bool start() { return false; }
  double take_ms(long long& kernels) {
    kernels = 0;
    return 0.0;
  }
  void stop() {}
};
#endif

}  // namespace detail
}  // namespace wb
