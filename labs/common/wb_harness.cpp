// wb_harness.cpp: the host-only lab harness (wb_host.hpp) compiled once, for labs built
// with the host C++ compiler (the runner's fixture labs): see wb_harness.cu.
#define WB_HARNESS_IMPL
#include "wb_host.hpp"
