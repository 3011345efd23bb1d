// nvidia-smi through run_process (see nvidia_smi.hpp).
#include "exec/nvidia_smi.hpp"

#include "exec/process.hpp"
#include "util/error.hpp"

namespace workbook {

std::optional<std::string> nvidia_smi(const std::vector<std::string>& args, double timeout_s) {
  if (!find_in_path("nvidia-smi")) return std::nullopt;
  ProcessOptions o;
  o.argv = {"nvidia-smi"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.timeout_s = timeout_s;
  try {
    ProcessResult r = run_process(o);
    if (!r.exited_ok()) return std::nullopt;
    return r.out;
  } catch (const Error&) {
    return std::nullopt;  // it could not be started
  }
}

}  // namespace workbook
