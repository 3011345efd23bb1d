// The device query and the comparison table (see device_report.hpp).
#include "device/device_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace workbook {

namespace {

using Opt = std::optional<double>;

Opt spec_figure(const GpuSpec* s, const std::string& name) {
  if (!s) return std::nullopt;
  auto it = s->figures.find(name);
  if (it == s->figures.end()) return std::nullopt;
  return it->second;
}

std::string show(Opt v, int digits = 3) {
  if (!v) return "?";
  return fmt::format("{:.{}g}", *v, digits);
}

// Resident 256-thread blocks per SM, from threads, blocks and registers (at 32 regs/thread).
Opt blocks_256(Opt threads_per_sm, Opt max_blocks) {
  if (!threads_per_sm || !max_blocks) return std::nullopt;
  return std::min(std::floor(*threads_per_sm / 256.0), *max_blocks);
}

Opt ratio(Opt a, Opt b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

// Largest TILE with two float TILE x TILE tiles in `kb` KB of shared memory.
Opt max_tile(Opt kb) {
  if (!kb) return std::nullopt;
  return std::floor(std::sqrt(*kb * 1024.0 / 8.0));
}

Opt pow2_floor(Opt v) {
  if (!v || *v < 1) return std::nullopt;
  return std::exp2(std::floor(std::log2(*v)));
}

bool has_bf16(const GpuSpec* s) { return s && s->tensor_tflops.count("bf16"); }

}  // namespace

const std::vector<QueryField>& device_query_fields() {
  static const std::vector<QueryField> fields = {
      {"cc_major", "compute capability (major)"},
      {"cc_minor", "compute capability (minor)"},
      {"sm_count", "SMs (multiprocessors)"},
      {"warp_size", "warp size"},
      {"max_threads_per_block", "max threads per block"},
      {"max_threads_per_sm", "max threads per SM"},
      {"max_warps_per_sm", "max warps per SM"},
      {"max_blocks_per_sm", "max blocks per SM"},
      {"regs_per_sm", "registers per SM"},
      {"regs_per_block", "registers per block"},
      {"shared_per_sm_bytes", "shared memory per SM (bytes)"},
      {"shared_per_block_optin_bytes", "shared memory per block, opt-in (bytes)"},
      {"l2_bytes", "L2 cache (bytes)"},
      {"global_bytes", "global memory (bytes)"},
      {"mem_clock_khz", "memory clock (kHz)"},
      {"bus_width_bits", "memory bus width (bits)"},
      {"sm_clock_khz", "SM clock, max (kHz)"},
      {"async_engines", "async copy engines"},
      {"dram_gbps", "theoretical DRAM GB/s (2 x clock x bus / 8)"},
      {"mig", "MIG instance (1 yes, 0 no)"},
  };
  return fields;
}

std::optional<double> DeviceQuery::field(const std::string& metric) const {
  auto it = fields.find(metric);
  if (it == fields.end()) return std::nullopt;
  return it->second;
}

DeviceQuery device_query_from_results(const LabResults& results) {
  DeviceQuery q;
  q.name = results.device_name.value_or("");
  q.cc = results.device_cc.value_or("");
  for (const auto& m : results.metrics) q.fields[m.name] = m.value;
  return q;
}

namespace {

// The comparison table being built: the sources of each column and the rows so far.
struct Comparison {
  const DeviceQuery* query;
  const GpuSpec* yours;
  const Calibration* cal;
  const GpuSpec* t4;
  const GpuSpec* h100;
  std::vector<ComparisonRow> rows;

  // Your value: the query's (converted), else the spec sheet's.
  std::pair<Opt, std::string> mine(const char* spec_name, const char* query_name, double scale) const {
    if (query && query_name) {
      if (auto v = query->field(query_name)) return {*v * scale, "query"};
    }
    if (auto v = spec_figure(yours, spec_name)) return {v, "spec"};
    return {std::nullopt, ""};
  }
  // Your value: the calibration's, else the spec sheet's.
  std::pair<Opt, std::string> measured(const char* spec_name, const char* cal_name) const {
    if (cal) {
      if (auto v = cal->figure(cal_name)) return {v, "measured"};
    }
    if (auto v = spec_figure(yours, spec_name)) return {v, "spec"};
    return {std::nullopt, ""};
  }
  ComparisonRow& add(std::string figure, std::string unit, std::pair<Opt, std::string> y, const char* spec_name) {
    rows.push_back({std::move(figure), std::move(unit), y.first, y.second, spec_figure(t4, spec_name),
                    spec_figure(h100, spec_name), ""});
    return rows.back();
  }
  Opt t4_of(const char* name) const { return spec_figure(t4, name); }
  Opt h100_of(const char* name) const { return spec_figure(h100, name); }
};

// SMs, warps, blocks and registers: what one wave and full occupancy mean.
void add_occupancy_rows(Comparison& c) {
  auto sm = c.mine("sm_count", "sm_count", 1);
  auto threads = c.mine("max_threads_per_sm", "max_threads_per_sm", 1);
  auto blocks = c.mine("max_blocks_per_sm", "max_blocks_per_sm", 1);
  auto wave = [&](Opt s, Opt th, Opt bl) -> Opt {
    auto b = blocks_256(th, bl);
    return s && b ? Opt(*s * *b) : std::nullopt;
  };
  c.add("SMs", "", sm, "sm_count").note = fmt::format(
      "one full wave of 256-thread blocks is {} blocks on yours, {} on the T4, {} on the H100: smaller grids leave SMs idle",
      show(wave(sm.first, threads.first, blocks.first), 6),
      show(wave(c.t4_of("sm_count"), c.t4_of("max_threads_per_sm"), c.t4_of("max_blocks_per_sm")), 6),
      show(wave(c.h100_of("sm_count"), c.h100_of("max_threads_per_sm"), c.h100_of("max_blocks_per_sm")), 6));
  c.add("max warps per SM", "", c.mine("max_warps_per_sm", "max_warps_per_sm", 1), "max_warps_per_sm").note =
      fmt::format("occupancy limit: {} resident 256-thread blocks per SM on yours, {} on the T4, {} on the H100",
                  show(blocks_256(threads.first, blocks.first)),
                  show(blocks_256(c.t4_of("max_threads_per_sm"), c.t4_of("max_blocks_per_sm"))),
                  show(blocks_256(c.h100_of("max_threads_per_sm"), c.h100_of("max_blocks_per_sm"))));
  auto smallest = [](Opt th, Opt bl) -> Opt { return th && bl && *bl > 0 ? Opt(*th / *bl) : std::nullopt; };
  c.add("max blocks per SM", "", blocks, "max_blocks_per_sm").note =
      fmt::format("blocks smaller than {} threads cannot fill an SM on yours ({} on the T4, {} on the H100)",
                  show(smallest(threads.first, blocks.first)),
                  show(smallest(c.t4_of("max_threads_per_sm"), c.t4_of("max_blocks_per_sm"))),
                  show(smallest(c.h100_of("max_threads_per_sm"), c.h100_of("max_blocks_per_sm"))));
  auto regs = c.mine("regs_per_sm", "regs_per_sm", 1);
  c.add("registers per SM", "", regs, "regs_per_sm").note = fmt::format(
      "at full occupancy a thread may use {} registers on yours, {} on the T4, {} on the H100; more spills occupancy",
      show(ratio(regs.first, threads.first)), show(ratio(c.t4_of("regs_per_sm"), c.t4_of("max_threads_per_sm"))),
      show(ratio(c.h100_of("regs_per_sm"), c.h100_of("max_threads_per_sm"))));
}

// Shared memory, L2, global memory and DRAM bandwidth; returns your DRAM figure.
std::pair<Opt, std::string> add_memory_rows(Comparison& c) {
  c.add("shared memory per SM", "KB", c.mine("shared_kb_per_sm", "shared_per_sm_bytes", 1.0 / 1024), "shared_kb_per_sm")
      .note = "blocks that each use S KB of shared memory fit (this / S) to an SM: shared memory can cap occupancy before threads do";
  auto optin = c.mine("shared_kb_per_block_optin", "shared_per_block_optin_bytes", 1.0 / 1024);
  c.add("shared memory per block (opt-in)", "KB", optin, "shared_kb_per_block_optin").note = fmt::format(
      "tile sizes: two float TILE x TILE tiles fit up to TILE = {} (power of two {}) on yours, {} on the T4, {} on the H100 "
      "(beyond 48 KB only with cudaFuncSetAttribute)",
      show(max_tile(optin.first)), show(pow2_floor(max_tile(optin.first))),
      show(pow2_floor(max_tile(c.t4_of("shared_kb_per_block_optin")))),
      show(pow2_floor(max_tile(c.h100_of("shared_kb_per_block_optin")))));
  auto l2 = c.mine("l2_mb", "l2_bytes", 1.0 / 1048576);
  c.add("L2 cache", "MB", l2, "l2_mb").note =
      fmt::format("a working set under about {} MB is served from L2 on yours ({} on the T4, {} on the H100): "
                  "to time DRAM, use buffers of 8x that or flush L2 between samples",
                  show(l2.first), show(c.t4_of("l2_mb")), show(c.h100_of("l2_mb")));
  c.add("global memory", "GB", c.mine("memory_gb", "global_bytes", 1e-9), "memory_gb").note =
      "the largest problem that fits: three N x N float matrices need 12 N^2 bytes";
  auto dram = c.measured("dram_gbps", "d2d_gbps");
  auto per_gb = [](Opt bw) -> Opt { return bw ? Opt(1e3 / *bw) : std::nullopt; };
  c.add("DRAM bandwidth", "GB/s", dram, "dram_gbps").note =
      fmt::format("moving 1 GB through DRAM (reads + writes) takes at least {} ms on yours, {} ms on the T4, {} ms on the H100",
                  show(per_gb(dram.first)), show(per_gb(c.t4_of("dram_gbps"))), show(per_gb(c.h100_of("dram_gbps"))));
  return dram;
}

// FP32, FP64, the machine balance and BF16 matrix units.
void add_compute_rows(Comparison& c, const std::pair<Opt, std::string>& dram) {
  auto fp32 = c.measured("fp32_tflops", "fp32_tflops");
  auto gemm_ms = [](Opt tf) -> Opt { return tf && *tf > 0 ? Opt(2.0 * 4096.0 * 4096.0 * 4096.0 / (*tf * 1e12) * 1e3) : std::nullopt; };
  c.add("FP32 (non-tensor)", "TFLOP/s", fp32, "fp32_tflops").note =
      fmt::format("a 4096^3 SGEMM (137 GFLOP) takes at least {} ms on yours, {} ms on the T4, {} ms on the H100",
                  show(gemm_ms(fp32.first)), show(gemm_ms(c.t4_of("fp32_tflops"))), show(gemm_ms(c.h100_of("fp32_tflops"))));
  auto fp64 = c.measured("fp64_tflops", "fp64_tflops");
  Opt g = ratio(fp32.first, fp64.first);
  c.add("FP64 (non-tensor)", "TFLOP/s", fp64, "fp64_tflops").note = fmt::format(
      "FP64 is 1/{} of FP32 on yours, 1/{} on the T4, 1/{} on the H100: {}", show(g, 2),
      show(ratio(c.t4_of("fp32_tflops"), c.t4_of("fp64_tflops")), 2),
      show(ratio(c.h100_of("fp32_tflops"), c.h100_of("fp64_tflops")), 2),
      g && *g > 8 ? "use double only where the accuracy needs it" : "double costs about 2x here");
  auto balance = [](Opt tf, Opt bw) -> Opt { return tf && bw && *bw > 0 ? Opt(*tf * 1e3 / *bw) : std::nullopt; };
  Opt bal = balance(fp32.first, dram.first);
  std::string bal_src = fp32.second == "measured" && dram.second == "measured" ? "measured" : fp32.second.empty() ? "" : "spec";
  c.rows.push_back({"machine balance (FP32)", "FLOP/byte", bal, bal_src, balance(c.t4_of("fp32_tflops"), c.t4_of("dram_gbps")),
                    balance(c.h100_of("fp32_tflops"), c.h100_of("dram_gbps")), ""});
  c.rows.back().note = fmt::format("a kernel below {} FLOP per DRAM byte is memory-bound on yours ({} on the T4, {} on the H100)",
                                   show(bal), show(c.rows.back().t4), show(c.rows.back().h100));
  auto bf16 = [](const GpuSpec* s) -> Opt {
    if (!s) return std::nullopt;
    return has_bf16(s) ? 1.0 : 0.0;
  };
  Opt my_bf16 = bf16(c.yours);
  if (!my_bf16 && c.query) {
    if (auto major = c.query->field("cc_major")) my_bf16 = *major >= 8 ? 1.0 : 0.0;
  }
  c.rows.push_back({"BF16 tensor cores", "yes/no", my_bf16, c.yours ? "spec" : "query", bf16(c.t4), bf16(c.h100), ""});
  c.rows.back().note = my_bf16 && *my_bf16 > 0
                           ? "bf16 and tf32 matrix units run here; on the T4 (cc 7.5) they do not, so its figures use fp16"
                           : "no bf16 matrix units (cc < 8.0): use fp16 tensor cores or FP32, as on the T4";
}

}  // namespace

std::vector<ComparisonRow> compare_gpus(const DeviceQuery* query, const GpuSpec* yours, const Calibration* cal,
                                        const GpuSpec* t4, const GpuSpec* h100) {
  Comparison c{query, yours, cal, t4, h100, {}};
  add_occupancy_rows(c);
  const auto dram = add_memory_rows(c);
  add_compute_rows(c, dram);
  return c.rows;
}

}  // namespace workbook
