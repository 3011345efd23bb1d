// Tests for device/probe_problem: a probe's CUDA error that means "no usable GPU" becomes
// a sentence naming what nvidia-smi listed; any other failure is left as it is.
#include <catch2/catch.hpp>

#include "device/probe_problem.hpp"

using workbook::no_usable_gpu;

TEST_CASE("no_usable_gpu: the CUDA errors of a missing, old or mismatched driver are said in words", "[device]") {
  const std::string failure =
      "device_query.cu:46: cudaGetDeviceCount(&count): cudaErrorInsufficientDriver: CUDA driver version is insufficient "
      "for CUDA runtime version";
  const auto p = no_usable_gpu(failure, "Tesla T4");
  REQUIRE(p);
  CHECK(p->what == "nvidia-smi lists Tesla T4, but CUDA cannot use it: the NVIDIA driver is missing or older than this "
                   "CUDA toolkit needs");
  CHECK(p->what.find("cudaError") == std::string::npos);
  CHECK(p->hint.find("nvidia-smi") != std::string::npos);
  for (const char* e : {"cudaErrorNoDevice", "cudaErrorSystemDriverMismatch", "cudaErrorDevicesUnavailable",
                        "cudaErrorInitializationError", "cudaErrorCompatNotSupportedOnDevice"}) {
    INFO(e);
    const auto q = no_usable_gpu(std::string("x.cu:1: call: ") + e + ": text", "");
    REQUIRE(q);
    CHECK(q->what.rfind("A GPU was expected, but CUDA cannot use it: ", 0) == 0);
  }
  CHECK_FALSE(no_usable_gpu("killed by signal 11 (Segmentation fault)", "Tesla T4"));
  CHECK_FALSE(no_usable_gpu("x.cu:9: kernel: cudaErrorIllegalAddress: an illegal memory access", "Tesla T4"));
}
