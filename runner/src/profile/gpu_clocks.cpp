// GPU clocks and throttle reasons (see gpu_clocks.hpp).
#include "profile/gpu_clocks.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "exec/nvidia_smi.hpp"
#include "exec/process.hpp"
#include "profile/lines.hpp"
#include "util/file_text.hpp"
#include "util/text.hpp"

namespace workbook {

const std::vector<std::string>& clock_query_fields() {
  static const std::string readings = "clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,";
  static const std::string power = "temperature.gpu,power.draw,power.limit,pstate,driver_version";
  static const std::vector<std::string> f{
      readings + "clocks_event_reasons.active," + power,
      readings + "clocks_throttle_reasons.active," + power,
      readings + "temperature.gpu,power.draw,pstate",
  };
  return f;
}

namespace {

std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells = csv_fields(line);
  for (auto& c : cells) c = trim(c);
  return cells;
}

std::optional<double> number(const std::string& cell) {
  if (cell.empty() || cell.front() == '[' || cell == "N/A") return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (end == cell.c_str()) return std::nullopt;
  return v;
}

// A text cell; "" for "[N/A]", "N/A" and the like.
std::string text(const std::string& cell) { return cell.empty() || cell.front() == '[' || cell == "N/A" ? "" : cell; }

// "clocks.current.sm [MHz]" -> "clocks.current.sm"
std::string column_name(const std::string& header) {
  const auto bracket = header.find(" [");
  return trim(bracket == std::string::npos ? header : header.substr(0, bracket));
}

void assign(GpuClocks& c, const std::string& name, const std::string& cell) {
  if (name == "clocks.current.sm" || name == "clocks.sm") c.sm_mhz = number(cell);
  else if (name == "clocks.current.memory" || name == "clocks.mem") c.mem_mhz = number(cell);
  else if (name == "clocks.max.sm") c.max_sm_mhz = number(cell);
  else if (name == "clocks.max.memory" || name == "clocks.max.mem") c.max_mem_mhz = number(cell);
  else if (name == "temperature.gpu") c.temp_c = number(cell);
  else if (name == "power.draw" || name == "power.draw.instant") c.power_w = number(cell);
  else if (name == "power.limit" || name == "enforced.power.limit") c.power_limit_w = number(cell);
  else if (name == "pstate") c.pstate = text(cell);
  else if (name == "driver_version") c.driver = text(cell);
  else if (name == "cuda_version") c.cuda_version = text(cell);
  else if (name == "clocks_event_reasons.active" || name == "clocks_throttle_reasons.active") {
    if (cell.rfind("0x", 0) == 0) c.reasons = std::strtoull(cell.c_str() + 2, nullptr, 16);
  }
}

}  // namespace

std::optional<GpuClocks> parse_clock_query(const std::string& csv) {
  std::vector<std::string> lines;
  for (const auto& l : split_lines(csv))
    if (!trim(l).empty()) lines.push_back(l);
  if (lines.size() < 2) return std::nullopt;
  const std::vector<std::string> header = csv_cells(lines[0]);
  const std::vector<std::string> row = csv_cells(lines[1]);
  if (header.size() != row.size()) return std::nullopt;
  GpuClocks c;
  for (std::size_t i = 0; i < header.size(); ++i) assign(c, column_name(header[i]), row[i]);
  if (!c.sm_mhz && !c.mem_mhz) return std::nullopt;
  return c;
}

std::string format_cuda_version(int version) {
  if (version < 1000) return "";
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::string driver_cuda_version() {
  void* lib = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) return "";
  using DriverGetVersion = int (*)(int*);  // CUresult cuDriverGetVersion(int*); 0 is CUDA_SUCCESS
  auto get = reinterpret_cast<DriverGetVersion>(::dlsym(lib, "cuDriverGetVersion"));
  int version = 0;
  std::string text = get != nullptr && get(&version) == 0 ? format_cuda_version(version) : "";
  ::dlclose(lib);
  return text;
}

std::optional<GpuClocks> query_gpu_clocks() {
  if (!find_in_path("nvidia-smi")) return std::nullopt;
  for (const std::string& fields : clock_query_fields()) {
    try {
      if (const auto out = nvidia_smi({"--query-gpu=" + fields, "--format=csv,nounits"}, 10))
        if (auto c = parse_clock_query(*out)) {
          // One driver per process: asked once, not before and after every run.
          static const std::string driver_cuda = driver_cuda_version();
          if (c->cuda_version.empty()) c->cuda_version = driver_cuda;
          return c;
        }
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string read_power_source(const std::string& root) {
  namespace fs = std::filesystem;
  bool battery = false;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string type = trim(read_file_text(it->path() / "type").value_or(""));
    if (type == "Battery") battery = true;
    if ((type == "Mains" || type == "USB") && trim(read_file_text(it->path() / "online").value_or("")) == "1") return "mains";
  }
  return battery ? "battery" : "";
}

std::vector<std::string> clock_reason_names(std::uint64_t mask) {
  static const std::pair<std::uint64_t, const char*> bits[] = {
      {0x1, "gpu_idle"},      {0x2, "applications_clocks"}, {0x4, "sw_power_cap"},
      {0x8, "hw_slowdown"},   {0x10, "sync_boost"},         {0x20, "sw_thermal"},
      {0x40, "hw_thermal"},   {0x80, "hw_power_brake"},     {0x100, "display_clocks"}};
  std::vector<std::string> names;
  for (const auto& [bit, name] : bits)
    if (mask & bit) names.push_back(name);
  if (mask & ~std::uint64_t{0x1ff}) names.push_back(fmt::format("other (0x{:x})", mask & ~std::uint64_t{0x1ff}));
  return names;
}

std::string describe(const GpuClocks& c) {
  std::string s = c.sm_mhz ? fmt::format("SM {:g} MHz", *c.sm_mhz) : "SM ? MHz";
  if (c.max_sm_mhz) s += fmt::format(" (max {:g})", *c.max_sm_mhz);
  if (c.mem_mhz) s += fmt::format(", memory {:g} MHz", *c.mem_mhz);
  if (c.temp_c) s += fmt::format(", {:g} C", *c.temp_c);
  if (c.power_w) s += fmt::format(", {:g} W", *c.power_w);
  if (c.power_limit_w) s += fmt::format(" (limit {:g} W)", *c.power_limit_w);
  if (!c.pstate.empty()) s += ", " + c.pstate;
  if (c.reasons) {
    std::string r;
    for (const auto& n : clock_reason_names(*c.reasons)) r += (r.empty() ? "" : ", ") + n;
    s += "; reasons: " + (r.empty() ? std::string("none") : r);
  }
  return s;
}

std::vector<std::string> clock_warnings(const std::optional<GpuClocks>& before, const std::optional<GpuClocks>& after) {
  std::vector<std::string> w;
  auto check = [&](const std::optional<GpuClocks>& c, const char* when) {
    if (!c) return;
    if (c->reasons && (*c->reasons & kThrottleReasons)) {
      std::string r;
      for (const auto& n : clock_reason_names(*c->reasons & kThrottleReasons)) r += (r.empty() ? "" : ", ") + n;
      w.push_back(fmt::format("the GPU was throttled {} the run ({}): its figures may be lower than it can give", when, r));
    }
    const bool idle = !c->reasons || (*c->reasons & 0x1);  // without reasons an idle clock cannot be told apart
    if (!idle && c->sm_mhz && c->max_sm_mhz && *c->sm_mhz < 0.8 * *c->max_sm_mhz) {
      w.push_back(fmt::format("the SM clock was {:g} MHz {} the run, below 80 % of its maximum {:g} MHz "
                              "(power saving, a power cap or a laptop on battery?)",
                              *c->sm_mhz, when, *c->max_sm_mhz));
    }
  };
  check(before, "before");
  check(after, "after");
  return w;
}

}  // namespace workbook
