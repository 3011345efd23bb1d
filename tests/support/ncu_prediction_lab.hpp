// module14/tiled_gemm's shape, cut down: a timed prediction (speedup, on tiled_ms) and one
// scored on an ncu figure through a derived ratio (read_ratio = naive_reads / 1e6), which
// only a run under --ncu asks. Shared by the tests of run/predictions and present/lab_page.
#pragma once

#include "content/manifest.hpp"

namespace wbtest {

inline workbook::LabSpec lab_with_ncu_prediction() {
  workbook::LabSpec lab;
  lab.id = "module14/tiled_gemm";
  workbook::MetricSpec time;
  time.name = "tiled_ms";
  workbook::MetricSpec reads;
  reads.name = "naive_reads";
  reads.source = workbook::MetricSource{};
  reads.source->tool = "ncu";
  lab.metrics = {time, reads};
  workbook::MetricSpec ratio;
  ratio.name = "read_ratio";
  ratio.expr = "naive_reads / 1e6";
  lab.derived = {ratio};
  workbook::PredictionSpec speed;
  speed.id = "speedup";
  speed.prompt = "How much faster?";
  speed.metric = "tiled_ms";
  workbook::PredictionSpec dram;
  dram.id = "read_ratio";
  dram.prompt = "How many MB read?";
  dram.metric = "read_ratio";
  lab.predictions = {speed, dram};
  return lab;
}

}  // namespace wbtest
