// wb_harness.cu: the CUDA lab harness (workbook.cuh and wb_host.hpp) compiled once.
//
// `workbook run` builds this file into its build cache, once per nvcc, flags and GPU
// architecture, and links it into each CUDA lab compiled with -DWB_HARNESS_LINKED, so a
// changed lab compiles only the lab. By hand, either way works:
//   nvcc -I labs/common lab.cu -o lab                      (header-only)
//   nvcc -I labs/common -c labs/common/wb_harness.cu -o wb_harness.o
//   nvcc -I labs/common -DWB_HARNESS_LINKED lab.cu wb_harness.o -o lab
#define WB_HARNESS_IMPL
#include "workbook.cuh"
