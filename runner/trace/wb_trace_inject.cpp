// libworkbook_trace.so: a CUPTI injection library behind `workbook run LAB --trace`.
//
// The CUDA driver loads the library named by CUDA_INJECTION64_PATH into any program at
// cuInit and calls its InitializeInjection(), so an unmodified lab (or any CUDA program)
// is traced without a rebuild. The library asks CUPTI for activity records of kernels
// (concurrent kind, so streams that overlap stay overlapped), memory copies and sets,
// CUDA runtime API calls and Unified Memory counters, and writes one JSON object a line
// to $WORKBOOK_TRACE (default ./workbook-trace.jsonl). The runner reads that file
// (runner/src/profile/trace_parse.hpp documents the records).
//
// Size: a graph lab launches half a million kernels. Every record is counted in-process
// (per type, name and stream: calls, total/min/max ns, bytes; and the GPU's busy and
// overlapped time), and only the first $WB_TRACE_MAX_RECORDS records (default 20,000)
// are written one by one, for the timeline; the totals, and an end line saying how many
// records were not written, follow at the program's exit (profile/trace_totals.hpp).
//
// The harness's own kernel clock (labs/common/wb_kernel_clock.hpp) also uses CUPTI. In
// one process there is one set of activity callbacks: had the lab registered its own, it
// would have taken the records away from this trace (and its serialising kernel kind
// would have serialised the streams). So this library sets WB_TIMING=events before the
// lab's first timing call, and the harness times with CUDA events while it is traced.
#include <cupti.h>
#include <cxxabi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "profile/trace_totals.hpp"

namespace {

using workbook::trace_format::append_json_string;
using workbook::trace_format::TotalKey;

std::FILE* g_out = nullptr;
std::mutex g_mutex;                           // guards everything below
workbook::trace_format::Totals g_totals;      // every record, written or not
unsigned long long g_max_records = workbook::trace_format::kDefaultMaxRecords;
unsigned long long g_records = 0;             // records seen
unsigned long long g_written = 0;             // records written one by one
std::atomic<unsigned long long> g_dropped{0};  // records CUPTI dropped (its buffers were full)

void append_escaped(std::string& s, const char* text) { append_json_string(s, text ? text : ""); }

void write_raw(const std::string& line) {  // the caller holds g_mutex
  if (!g_out) return;
  std::fputs(line.c_str(), g_out);
  std::fputc('\n', g_out);
}

// A line that is not a record (meta, note): always written.
void write_line(const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  write_raw(line);
}

// A record: counted in the totals; written while under the cap.
void write_record_line(const TotalKey& key, uint64_t start, uint64_t end, uint64_t bytes, const std::string& line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_totals.add(key, start, end, bytes);
  ++g_records;
  if (g_written >= g_max_records) return;
  write_raw(line);
  ++g_written;
}

// One lab launches the same few kernels many times: demangle each name once. The cache
// is never destroyed: it is first used after atexit(finish) was registered, so as a
// function-local static it would be destroyed before finish's last flush uses it.
std::string demangled(const char* name) {
  if (!name) return "?";
  static auto* cache = new std::unordered_map<std::string, std::string>();
  static auto* cache_mutex = new std::mutex();
  std::lock_guard<std::mutex> lock(*cache_mutex);
  auto it = cache->find(name);
  if (it != cache->end()) return it->second;
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : name;
  std::free(d);
  cache->emplace(name, s);
  return s;
}

const char* memory_kind(uint8_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return "managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return "device_static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return "managed_static";
    default: return "unknown";
  }
}

const char* copy_kind(uint8_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "DtoA";
    default: return "unknown";
  }
}

const char* um_counter(CUpti_ActivityUnifiedMemoryCounterKind k) {
  switch (k) {
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD: return "bytes_htod";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH: return "bytes_dtoh";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD: return "bytes_dtod";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT: return "cpu_page_fault";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT: return "gpu_page_fault";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING: return "thrashing";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING: return "throttling";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP: return "remote_map";
    default: return "unknown";
  }
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"
std::string api_name(uint32_t cbid) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) != CUPTI_SUCCESS || !name) {
    return "cbid_" + std::to_string(cbid);
  }
  std::string s = name;
  const auto v = s.rfind("_v");
  if (v != std::string::npos && v + 2 < s.size() &&
      s.find_first_not_of("0123456789", v + 2) == std::string::npos)
    s.resize(v);
  return s;
}

std::string times(uint64_t start, uint64_t end, uint32_t stream) {
  return ",\"start\":" + std::to_string(start) + ",\"end\":" + std::to_string(end) +
         ",\"stream\":" + std::to_string(stream);
}

void write_kernel(const CUpti_ActivityKernel10* k) {
  const std::string name = demangled(k->name);
  std::string s = "{\"type\":\"kernel\",\"name\":";
  append_escaped(s, name.c_str());
  s += times(k->start, k->end, k->streamId);
  char buf[256];
  std::snprintf(buf, sizeof buf,
                ",\"device\":%u,\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"regs\":%u,\"smem_static\":%d,"
                "\"smem_dynamic\":%d,\"corr\":%u}",
                k->deviceId, k->gridX, k->gridY, k->gridZ, k->blockX, k->blockY, k->blockZ,
                static_cast<unsigned>(k->registersPerThread), k->staticSharedMemory, k->dynamicSharedMemory,
                k->correlationId);
  write_record_line({"kernel", name, "", "", k->streamId}, k->start, k->end, 0, s + buf);
}

void write_memcpy(const CUpti_ActivityMemcpy6* m) {
  std::string s = std::string("{\"type\":\"memcpy\",\"kind\":\"") + copy_kind(m->copyKind) + "\",\"src\":\"" +
                  memory_kind(m->srcKind) + "\",\"dst\":\"" + memory_kind(m->dstKind) +
                  "\",\"bytes\":" + std::to_string(m->bytes) + times(m->start, m->end, m->streamId) +
                  ",\"async\":" + ((m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) ? "true" : "false") +
                  ",\"corr\":" + std::to_string(m->correlationId) + "}";
  write_record_line({"memcpy", copy_kind(m->copyKind), memory_kind(m->srcKind), memory_kind(m->dstKind), m->streamId},
                    m->start, m->end, m->bytes, s);
}

void write_memset(const CUpti_ActivityMemset4* m) {
  const char* memory = memory_kind(static_cast<uint8_t>(m->memoryKind));
  write_record_line({"memset", memory, "", "", m->streamId}, m->start, m->end, m->bytes,
                    std::string("{\"type\":\"memset\",\"memory\":\"") + memory + "\",\"bytes\":" +
                        std::to_string(m->bytes) + times(m->start, m->end, m->streamId) +
                        ",\"corr\":" + std::to_string(m->correlationId) + "}");
}

void write_api(const CUpti_ActivityAPI* a) {
  const std::string name = api_name(a->cbid);
  std::string s = "{\"type\":\"api\",\"name\":";
  append_escaped(s, name.c_str());
  s += ",\"start\":" + std::to_string(a->start) + ",\"end\":" + std::to_string(a->end) +
       ",\"thread\":" + std::to_string(a->threadId) + ",\"corr\":" + std::to_string(a->correlationId) + "}";
  write_record_line({"api", name, "", "", 0}, a->start, a->end, 0, s);
}

void write_um(const CUpti_ActivityUnifiedMemoryCounter3* u) {
  const char* counter = um_counter(u->counterKind);
  write_record_line({"um", counter, "", "", 0}, u->start, u->end, u->value,
                    std::string("{\"type\":\"um\",\"counter\":\"") + counter + "\",\"value\":" +
                        std::to_string(u->value) + ",\"start\":" + std::to_string(u->start) +
                        ",\"end\":" + std::to_string(u->end) + "}");
}

void write_record(const CUpti_Activity* r) {
  switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: write_kernel(reinterpret_cast<const CUpti_ActivityKernel10*>(r)); break;
    case CUPTI_ACTIVITY_KIND_MEMCPY: write_memcpy(reinterpret_cast<const CUpti_ActivityMemcpy6*>(r)); break;
    case CUPTI_ACTIVITY_KIND_MEMSET: write_memset(reinterpret_cast<const CUpti_ActivityMemset4*>(r)); break;
    case CUPTI_ACTIVITY_KIND_RUNTIME: write_api(reinterpret_cast<const CUpti_ActivityAPI*>(r)); break;
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER:
      write_um(reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3*>(r));
      break;
    default: break;
  }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  constexpr size_t kBytes = size_t{8} << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
  *size = *buffer ? kBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) write_record(record);
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS) g_dropped += dropped;
  std::free(buffer);
}

void note(const char* what, CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  std::string s = "{\"type\":\"note\",\"text\":";
  append_escaped(s, (std::string(what) + ": " + (text ? text : "?")).c_str());
  write_line(s + "}");
}

void enable(CUpti_ActivityKind kind, const char* what) {
  const CUptiResult r = cuptiActivityEnable(kind);
  if (r != CUPTI_SUCCESS) note(what, r);
}

void enable_unified_memory() {
  CUpti_ActivityUnifiedMemoryCounterConfig config[5] = {};
  const CUpti_ActivityUnifiedMemoryCounterKind kinds[5] = {
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING};
  for (int i = 0; i < 5; ++i) {
    config[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
    config[i].kind = kinds[i];
    config[i].deviceId = 0;
    config[i].enable = 1;
  }
  const CUptiResult r = cuptiActivityConfigureUnifiedMemoryCounter(config, 5);
  if (r != CUPTI_SUCCESS) {
    note("unified memory counters not available", r);
    return;
  }
  enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER, "unified memory counters not enabled");
}

// At the exit: the totals of every record, the GPU's busy time, and how many records
// were not written one by one.
void finish() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& [key, total] : g_totals.totals()) write_raw(workbook::trace_format::total_line(key, total));
  write_raw(workbook::trace_format::gpu_line(g_totals.gpu()));
  write_raw("{\"type\":\"end\",\"records\":" + std::to_string(g_records) + ",\"written\":" +
            std::to_string(g_written) + ",\"not_written\":" + std::to_string(g_records - g_written) +
            ",\"dropped\":" + std::to_string(g_dropped.load()) + "}");
  if (g_out) std::fclose(g_out);
  g_out = nullptr;
}

// WB_TRACE_MAX_RECORDS: how many records are written one by one (0: none, totals only).
unsigned long long max_records_from_env() {
  const char* v = std::getenv("WB_TRACE_MAX_RECORDS");
  if (!v || !*v) return workbook::trace_format::kDefaultMaxRecords;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0' || v[0] == '-') {
    std::fprintf(stderr, "workbook trace: WB_TRACE_MAX_RECORDS=%s is not a count; keeping %llu records\n", v,
                 static_cast<unsigned long long>(workbook::trace_format::kDefaultMaxRecords));
    return workbook::trace_format::kDefaultMaxRecords;
  }
  return n;
}

// The harness's kernel clock stays out of CUPTI while this library holds it (see above).
void keep_lab_clock_on_events() {
  const char* mode = std::getenv("WB_TIMING");
  std::string m = mode ? mode : "";
  if (m.find("events") != std::string::npos && m.find("traced") == std::string::npos) return;
  if (m.find("traced") != std::string::npos) m.clear();  // "events-traced" would load CUPTI again
  setenv("WB_TIMING", m.empty() ? "events" : (m + ",events").c_str(), 1);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static bool done = false;
  if (done) return 1;
  done = true;
  const char* path = std::getenv("WORKBOOK_TRACE");
  g_out = std::fopen(path && *path ? path : "workbook-trace.jsonl", "w");
  if (!g_out) {
    std::fprintf(stderr, "workbook trace: cannot write %s; not tracing\n", path ? path : "workbook-trace.jsonl");
    return 1;
  }
  keep_lab_clock_on_events();
  g_max_records = max_records_from_env();
  uint32_t version = 0;
  cuptiGetVersion(&version);
  write_line("{\"type\":\"meta\",\"format\":" + std::to_string(workbook::trace_format::kFormat) +
             ",\"cupti_api\":" + std::to_string(version) + ",\"max_records\":" + std::to_string(g_max_records) + "}");
  const CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) {
    note("CUPTI refused the activity callbacks (another profiler holds CUPTI?)", r);
    finish();
    return 1;
  }
  enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernel records not enabled");
  enable(CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy records not enabled");
  enable(CUPTI_ACTIVITY_KIND_MEMSET, "memset records not enabled");
  enable(CUPTI_ACTIVITY_KIND_RUNTIME, "runtime API records not enabled");
  enable_unified_memory();
  std::atexit(finish);
  return 1;
}
