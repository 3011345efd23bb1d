// A stand-in for CUPTI, for checking libworkbook_trace.so's own code on a machine
// without a GPU (scripts/trace/fake_cupti.sh): linked with runner/trace/wb_trace_inject.cpp,
// it hands the library 5,000 synthetic records (kernels and runtime API calls, one slot
// each) at the exit flush. tests/fixtures/profile/trace_fake_cupti_capped.jsonl is its
// output with WB_TRACE_MAX_RECORDS=100.
#include <cupti.h>
#include <cstdlib>
#include <cstring>
#include <vector>
static CUpti_BuffersCallbackRequestFunc g_req; static CUpti_BuffersCallbackCompleteFunc g_done;
struct Slot { union { CUpti_ActivityKernel10 k; CUpti_ActivityAPI a; CUpti_ActivityMemcpy6 m; } u; };
extern "C" {
CUptiResult cuptiGetVersion(uint32_t* v) { *v = 130000; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc r, CUpti_BuffersCallbackCompleteFunc d) { g_req = r; g_done = d; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityEnable(CUpti_ActivityKind) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityConfigureUnifiedMemoryCounter(CUpti_ActivityUnifiedMemoryCounterConfig*, uint32_t) { return CUPTI_ERROR_NOT_SUPPORTED; }
CUptiResult cuptiGetResultString(CUptiResult, const char** s) { *s = "fake"; return CUPTI_SUCCESS; }
CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain, uint32_t, const char** n) { *n = "cudaLaunchKernel_v7000"; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* d) { *d = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityGetNextRecord(uint8_t* buf, size_t valid, CUpti_Activity** rec) {
  uint8_t* next = *rec ? reinterpret_cast<uint8_t*>(*rec) + sizeof(Slot) : buf;
  if (next + sizeof(Slot) > buf + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *rec = reinterpret_cast<CUpti_Activity*>(next); return CUPTI_SUCCESS;
}
static int g_flushed = 0;
CUptiResult cuptiActivityFlushAll(uint32_t) {
  if (g_flushed++) return CUPTI_SUCCESS;
  uint8_t* b; size_t size, maxr; g_req(&b, &size, &maxr);
  const int n = 5000; size_t used = 0;
  for (int i = 0; i < n; ++i) {
    Slot* s = reinterpret_cast<Slot*>(b + used); std::memset(s, 0, sizeof *s);
    if (i % 2 == 0) { s->u.k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL; s->u.k.name = "_Z9heat_stepPfi"; s->u.k.start = 1000 + i * 100; s->u.k.end = 1050 + i * 100; s->u.k.streamId = 7; }
    else { s->u.a.kind = CUPTI_ACTIVITY_KIND_RUNTIME; s->u.a.cbid = 1; s->u.a.start = 990 + i * 100; s->u.a.end = 1000 + i * 100; }
    used += sizeof(Slot);
  }
  g_done(nullptr, 0, b, size, used);
  return CUPTI_SUCCESS;
}
}
extern "C" int InitializeInjection(void);
int main() { InitializeInjection(); return 0; }
