// Printers of `workbook device` (see device_print.hpp).
#include "present/device_print.hpp"

#include <fmt/format.h>

#include <optional>

#include "build/toolchain_config.hpp"
#include "model/figures.hpp"
#include "util/json_or_null.hpp"

namespace workbook {

namespace {

std::string opt_text(std::optional<double> v, const std::string& unit = "") {
  if (!v) return "-";
  return unit.empty() ? format_number(*v) : format_number(*v) + " " + unit;
}

// The spec sheet value a calibrated figure is compared with, and what it is.
std::pair<std::optional<double>, std::string> sheet_value(const GpuSpec* sheet, const std::string& figure) {
  const std::string spec_name = figure == "d2d_gbps" || figure == "memcpy_d2d_gbps" ? "dram_gbps" : figure;
  if (!sheet) return {std::nullopt, ""};
  if (auto it = sheet->figures.find(spec_name); it != sheet->figures.end()) return {it->second, "spec sheet"};
  Figures nominal = nominal_measured_figures(*sheet);
  if (auto it = nominal.find(spec_name); it != nominal.end()) return {it->second, "nominal"};
  return {std::nullopt, ""};
}

nlohmann::json rows_json(const std::vector<ComparisonRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"figure", r.figure}, {"unit", r.unit}, {"yours", json_or_null(r.yours)}, {"yours_source", r.yours_source},
                   {"t4", json_or_null(r.t4)}, {"h100", json_or_null(r.h100)}, {"note", r.note}});
  }
  return out;
}

void print_rows(const std::vector<ComparisonRow>& rows, const std::string& yours_name, const Style& s) {
  fmt::print("\n{}\n", s.bold(fmt::format("Your GPU ({}) vs Colab T4 vs cluster H100 SXM", yours_name)));
  fmt::print("  {:<38} {:>16} {:>10} {:>10}\n", "", "yours", "T4", "H100");
  for (const auto& r : rows) {
    std::string label = r.unit.empty() || r.unit == "yes/no" ? r.figure : fmt::format("{} ({})", r.figure, r.unit);
    auto cell = [&](std::optional<double> v) {
      if (!v) return std::string("-");
      if (r.unit == "yes/no") return std::string(*v > 0 ? "yes" : "no");
      return format_number(*v);
    };
    std::string mine = cell(r.yours);
    if (r.yours && !r.yours_source.empty() && r.yours_source != "query") mine += fmt::format(" ({})", r.yours_source);
    fmt::print("  {:<38} {:>16} {:>10} {:>10}\n", label, mine, cell(r.t4), cell(r.h100));
    fmt::print("      {}\n", s.dim(r.note));
  }
}

}  // namespace

nlohmann::json calibration_json(const CalibrationView& v) {
  const Calibration& cal = v.run.cal;
  nlohmann::json figs = nlohmann::json::array();
  for (const auto& name : calibration_figure_names()) {
    const auto& f = cal.figures.at(name);
    auto [sheet, what] = sheet_value(v.sheet, name);
    figs.push_back({{"name", name}, {"value", f.value}, {"unit", f.unit}, {"sheet", json_or_null(sheet)}, {"sheet_kind", what},
                    {"diff_pct", sheet && *sheet > 0 ? nlohmann::json((f.value - *sheet) / *sheet * 100.0) : nlohmann::json()}});
  }
  return {{"calibration_id", cal.id}, {"gpu", cal.gpu_name}, {"uuid", cal.gpu_uuid}, {"driver", cal.driver},
          {"measured_at", cal.measured_at}, {"sm_clock_mhz", json_or_null(cal.sm_clock_mhz)}, {"arch", cal.arch},
          {"spec", v.sheet ? nlohmann::json(v.sheet->id) : nlohmann::json()}, {"figures", figs},
          {"d2d_crosscheck_pct", json_or_null(v.run.d2d_crosscheck_pct)},
          {"fp32_clock_ceiling_tflops", json_or_null(v.run.fp32_ceiling_tflops)},
          {"checks_failed", v.run.failed_checks}, {"figures_source", v.figures_source}};
}

void print_calibration(const CalibrationView& v, const Style& s) {
  const Calibration& cal = v.run.cal;
  fmt::print("\n{}\n", s.bold(fmt::format("Calibration of {} (stored, id {})", cal.gpu_name, cal.id)));
  fmt::print("  {:<20} {:>12} {:>12} {:>9}  {}\n", "figure", "measured", "sheet", "diff", "");
  for (const auto& name : calibration_figure_names()) {
    const auto& f = cal.figures.at(name);
    auto [sheet, what] = sheet_value(v.sheet, name);
    std::string diff = sheet && *sheet > 0 ? fmt::format("{:+.1f} %", (f.value - *sheet) / *sheet * 100.0) : "-";
    fmt::print("  {:<20} {:>12} {:>12} {:>9}  {}\n", name, format_number(f.value) + " " + f.unit,
               sheet ? format_number(*sheet) : "-", diff, s.dim(what));
  }
  if (const auto& ceiling = v.run.fp32_ceiling_tflops) {
    const double fp32 = cal.figures.at("fp32_tflops").value;
    fmt::print("  {}\n", s.dim(fmt::format("FP32 ceiling at the max SM clock (2 x {} SMs x {} lanes x {} MHz): {} TFLOP/s; "
                                          "measured {:.1f} % of it",
                                          format_number(v.run.sm_count), format_number(v.run.fp32_lanes_per_sm),
                                          format_number(v.run.sm_clock_khz / 1e3), format_number(*ceiling),
                                          fp32 / *ceiling * 100.0)));
  }
  fmt::print("  {}\n", s.dim(fmt::format("driver {}, SM clock {} MHz just after the run; expected ranges now use: {}",
                                        cal.driver, opt_text(cal.sm_clock_mhz), v.figures_source)));
  if (!v.run.failed_checks.empty()) fmt::print("{} {}\n", s.yellow("warning:"), v.run.failed_checks);
}

nlohmann::json device_json(const DeviceView& v) {
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& [k, val] : v.query.fields) fields[k] = val;
  nlohmann::json calj;
  if (const Calibration* cal = v.calibration) {
    calj = {{"id", cal->id}, {"measured_at", cal->measured_at}, {"driver", cal->driver}, {"sm_clock_mhz", json_or_null(cal->sm_clock_mhz)}};
    for (const auto& [k, f] : cal->figures) calj["figures"][k] = f.value;
  }
  return {{"name", v.query.name}, {"cc", v.query.cc}, {"uuid", v.uuid}, {"driver", v.driver},
          {"spec", v.sheet ? nlohmann::json(v.sheet->id) : nlohmann::json()}, {"query", fields}, {"calibration", calj},
          {"comparison", rows_json(v.rows)}, {"figures_source", v.figures_source}};
}

void print_device(const DeviceView& v, const Style& s) {
  const DeviceQuery& q = v.query;
  fmt::print("{}  {}\n", s.bold(q.name), s.dim(fmt::format("cc {}, driver {}, {}", q.cc, v.driver.empty() ? "?" : v.driver,
                                                           v.sheet ? "spec sheet '" + v.sheet->id + "'" : "no spec sheet matches")));
  fmt::print("\n{}\n", s.bold("Device query (Module 3)"));
  for (const auto& f : device_query_fields()) fmt::print("  {:<46} {}\n", f.label, opt_text(q.field(f.metric)));
  print_rows(v.rows, q.name, s);
  if (const Calibration* cal = v.calibration) {
    fmt::print("\n{}\n", s.dim(fmt::format("(measured): calibration of {} (driver {}); re-run `workbook device --calibrate` "
                                          "after a driver or clock change",
                                          cal->measured_at.substr(0, 16), cal->driver)));
  } else {
    fmt::print("\n{}\n", s.dim("No calibration yet: `workbook device --calibrate` measures bandwidth, FLOP rates, transfers and "
                               "launch overhead, and expected ranges then use them."));
  }
}

nlohmann::json toolchain_json(const ToolchainStatus& st) {
  if (!st.toolchain) return {{"nvcc", nullptr}, {"works", false}, {"problem_kind", "nvcc_missing"}};
  const Toolchain& tc = *st.toolchain;
  auto text_or_null = [](const std::string& t) { return t.empty() ? nlohmann::json() : nlohmann::json(t); };
  nlohmann::json j = {{"nvcc", tc.nvcc.string()}, {"release", text_or_null(tc.release)},
                      {"host_compiler", text_or_null(tc.host.path.string())}, {"host_version", text_or_null(tc.host.version)},
                      {"host_version_line", text_or_null(tc.host.version_line)}, {"ccbin", text_or_null(tc.ccbin.string())},
                      {"ccbin_from", text_or_null(tc.ccbin_from)}, {"allow_unsupported", tc.allow_unsupported},
                      {"flags", toolchain_flags(tc)}, {"config_file", tc.config_file.string()},
                      {"line", describe_toolchain(tc)}, {"works", st.works()}, {"problem_kind", nullptr},
                      {"supported_releases", kSupportedCudaReleases},
                      {"in_supported_range", tc.release.empty() ? nlohmann::json() : nlohmann::json(!st.outside_range)},
                      {"outside_range", st.outside_range ? nlohmann::json(*st.outside_range) : nlohmann::json()}};
  if (st.check && !st.check->ok) {
    j["output"] = st.check->output;
    j["problem_kind"] = st.check->problem ? st.check->problem->kind : "probe_failed";
    if (const auto& p = st.check->problem) {
      j["reason"] = p->reason;
      j["explanation"] = p->explanation;
      j["fixes"] = p->fixes;
    }
  }
  return j;
}

void print_toolchain(const ToolchainStatus& st, const Style& s) {
  if (!st.toolchain) {
    fmt::print("{} {}\n", s.bold("Toolchain:"), s.yellow("no nvcc found (install the CUDA Toolkit, or set WORKBOOK_NVCC)"));
    return;
  }
  const Toolchain& tc = *st.toolchain;
  fmt::print("{} {}\n", s.bold("Toolchain:"), describe_toolchain(tc));
  if (st.outside_range) fmt::print("  {} {}\n", s.yellow("outside the supported CUDA releases:"), *st.outside_range);
  if (st.works()) {
    fmt::print("  {} {}\n", s.green("works:"), s.dim(st.check->cached ? "a one-file CUDA probe compiled with this pair before"
                                                                     : "a one-file CUDA probe compiles with this pair"));
    if (tc.allow_unsupported) fmt::print("  {}", s.yellow(allow_unsupported_warning(tc)));
    return;
  }
  if (const auto& p = st.check->problem) {
    fmt::print("  {} {}\n", s.red(p->kind == "host_compiler_unsupported" ? "unsupported pair:" : "broken headers:"),
               p->evidence);
    fmt::print("{}", render_toolchain_problem(*p));
    return;
  }
  fmt::print("  {} a one-file CUDA probe does not compile with this pair:\n{}", s.red("fails:"), st.check->output);
}

}  // namespace workbook
