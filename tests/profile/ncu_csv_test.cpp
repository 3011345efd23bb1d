// Tests for profile/ncu_csv: the wide raw CSV of Nsight Compute read by column name,
// figures per kernel and block, the permission error, and the command line.
#include <catch2/catch.hpp>

#include <algorithm>

#include "profile/ncu_csv.hpp"
#include "profile_fixture.hpp"

using namespace workbook;

namespace {

MetricSource ncu_source(const std::string& kernel, const std::string& metric, const std::string& stat = "median",
                        const std::string& block = "") {
  MetricSource s;
  s.tool = "ncu";
  s.kernel = kernel;
  s.metric = metric;
  s.stat = stat;
  s.block = block;
  return s;
}

const std::string kSectorsLd = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";

}  // namespace

TEST_CASE("ncu's raw CSV (recorded on the H200) is read by column name", "[profile]") {
  // module12/coalescing under `run --ncu --quick`: 50 launches, 295 columns (ncu adds the
  // device attributes, launch settings and its own counters to the metrics asked for).
  const NcuTable t = parse_ncu_csv(wbtest::profile_fixture("ncu_raw_coalescing.csv"));
  REQUIRE(t.rows.size() == 50);
  CHECK(t.columns.size() == 295);
  CHECK(t.column("Kernel Name") == 4);
  CHECK(t.column(kSectorsLd) >= 0);
  CHECK(t.column("no_such_metric") == -1);
  CHECK(t.units[static_cast<std::size_t>(t.column("dram__bytes_read.sum"))] == "byte");
  CHECK(t.kernel(0) == "copy_row_wise(const float *, float *, int, int)");  // the full signature
  CHECK(t.block(0) == "32,8,1");  // the 1021 x 1021 check comes first
  CHECK(t.block(2) == "32,1,1");
  CHECK(t.messages.size() == 3);  // the clocks warning, Connected, Disconnected
  CHECK(t.errors.empty());
  CHECK_FALSE(t.permission_denied);
  CHECK_FALSE(t.no_kernels);
}

TEST_CASE("ncu's CSV on stdout, with the lab's own lines mixed in (recorded on the H200)", "[profile]") {
  // module15/matvec run directly under ncu, 25 launches of matvec_warp, printed by base name.
  const NcuTable t = parse_ncu_csv(wbtest::profile_fixture("ncu_stdout_matvec_warp.csv"));
  REQUIRE(t.rows.size() == 25);
  CHECK(t.kernel(0) == "matvec_warp");
  CHECK(t.block(0) == "256,1,1");
  CHECK(t.messages.size() == 3);
  CHECK(ncu_figure(t, ncu_source("matvec_warp", "gpu__time_duration.sum", "count")) == Approx(25));
  CHECK(ncu_figure(t, ncu_source("matvec_warp", "gpu__time_duration.sum", "min")) == Approx(7072));
  CHECK(ncu_figure(t, ncu_source("matvec_warp", "gpu__time_duration.sum", "median")) == Approx(18912));
}

TEST_CASE("ncu numbers carry thousands separators", "[profile]") {
  CHECK(ncu_number("4,194,816") == Approx(4194816));
  CHECK(ncu_number("41.37") == Approx(41.37));
  CHECK(ncu_number("32.00") == Approx(32));  // the real CSV mixes "32" and "32.00"
  CHECK_FALSE(ncu_number(""));
  CHECK_FALSE(ncu_number("n/a"));
  CHECK_FALSE(ncu_number("NVIDIA H200"));
}

TEST_CASE("ncu figures on the H200: coalesced 4 and strided 32 sectors per request, per kernel and block", "[profile]") {
  const NcuTable t = parse_ncu_csv(wbtest::profile_fixture("ncu_raw_coalescing.csv"));
  CHECK(ncu_figure(t, ncu_source("copy_row_wise", kSectorsLd)) == Approx(4));   // 24 x 4 and one 4.86
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", kSectorsLd)) == Approx(32));  // 16 x 32, 31.91, 8 x 8
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", kSectorsLd, "median", "8,32,1")) == Approx(8));
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", kSectorsLd, "median", "32,1,1")) == Approx(32));
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", kSectorsLd, "min", "32,8,1")) == Approx(31.91));
  CHECK(ncu_figure(t, ncu_source("copy_row_wise", kSectorsLd, "max")) == Approx(4.86));
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", kSectorsLd, "min")) == Approx(8));
  CHECK(ncu_figure(t, ncu_source("copy_row_wise", "dram__bytes_read.sum", "sum")) == Approx(104909312));
  CHECK(ncu_figure(t, ncu_source("copy_", "gpu__time_duration.sum", "count")) == Approx(50));
  CHECK(ncu_figure(t, ncu_source("copy_col_wise", "gpu__time_duration.sum", "count", "8,32,1")) == Approx(8));
  CHECK(ncu_figure(t, ncu_source("", "sm__warps_active.avg.pct_of_peak_sustained_active", "max")) == Approx(81.12));
  CHECK_FALSE(ncu_figure(t, ncu_source("transpose", kSectorsLd)));
  CHECK_FALSE(ncu_figure(t, ncu_source("copy_row_wise", "no_such_metric.sum")));
}

TEST_CASE("ncu without access to the counters is recognised", "[profile]") {
  const NcuTable t = parse_ncu_csv(wbtest::profile_fixture("ncu_permission.txt"));
  CHECK(t.permission_denied);
  CHECK(t.no_kernels);
  CHECK(t.rows.empty());
}

TEST_CASE("run --ncu's argument splits into metrics and sections, and the command keeps the clocks alone", "[profile]") {
  const NcuSelection s = parse_ncu_selection("SpeedOfLight, dram__bytes_read.sum,MemoryWorkloadAnalysis_Tables,");
  CHECK(s.sections == std::vector<std::string>{"SpeedOfLight", "MemoryWorkloadAnalysis_Tables"});
  CHECK(s.metrics == std::vector<std::string>{"dram__bytes_read.sum"});
  NcuSelection what;
  what.metrics = {"a__b.sum", "c__d.sum", "a__b.sum"};
  const auto argv = ncu_command("/usr/local/cuda/bin/ncu", what, {"copy_row_wise", "copy_col_wise"}, "/tmp/x.csv");
  auto at = [&](const std::string& flag) {
    auto it = std::find(argv.begin(), argv.end(), flag);
    return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
  };
  CHECK(argv.front() == "/usr/local/cuda/bin/ncu");
  CHECK(at("--clock-control") == "none");
  CHECK(at("--page") == "raw");
  CHECK(at("--log-file") == "/tmp/x.csv");
  CHECK(at("--launch-count") == std::to_string(kNcuLaunchCap));
  CHECK(at("--metrics") == "a__b.sum,c__d.sum");
  CHECK(at("-k") == "regex:copy_row_wise|copy_col_wise");
  CHECK(std::find(argv.begin(), argv.end(), "--csv") != argv.end());
  CHECK(std::find(argv.begin(), argv.end(), "-k") == argv.end() - 2);
  const auto all = ncu_command("ncu", {}, {}, "/tmp/y.csv");
  CHECK(std::find(all.begin(), all.end(), "-k") == all.end());
}
