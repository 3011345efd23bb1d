// Lab reference parsing (see lab_id.hpp).
#include "content/lab_id.hpp"

#include <fmt/format.h>

#include <cctype>

#include "util/error.hpp"

namespace workbook {

std::string module_id(int module) { return fmt::format("module{:02d}", module); }

std::string LabRef::module_id() const { return workbook::module_id(module); }

std::string LabRef::id() const { return name.empty() ? module_id() : module_id() + "/" + name; }

bool is_valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || !std::islower(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return true;
}

namespace {

std::optional<int> parse_module_number(const std::string& s) {
  std::string digits = s;
  if (digits.rfind("module", 0) == 0) digits = digits.substr(6);
  else if (!digits.empty() && digits[0] == 'm') digits = digits.substr(1);
  if (digits.empty() || digits.size() > 2) return std::nullopt;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  int n = std::stoi(digits);
  if (n < 1 || n > kModuleCount) return std::nullopt;
  return n;
}

}  // namespace

std::optional<LabRef> parse_lab_ref(const std::string& text) {
  auto slash = text.find('/');
  std::string mod = text.substr(0, slash);
  auto n = parse_module_number(mod);
  if (!n) return std::nullopt;
  LabRef ref{*n, {}};
  if (slash != std::string::npos) {
    ref.name = text.substr(slash + 1);
    if (!is_valid_name(ref.name)) return std::nullopt;
  }
  return ref;
}

LabRef parse_lab_ref_or_throw(const std::string& text) {
  auto ref = parse_lab_ref(text);
  if (!ref) {
    throw UsageError(fmt::format("'{}' is not a module or lab id", text),
                     "write a module as module14 (or 14) and a lab as module14/tiled_gemm; "
                     "`workbook list` shows them all");
  }
  return *ref;
}

}  // namespace workbook
