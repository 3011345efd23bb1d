// Exercise bank loading (see banks.hpp).
#include "learn/banks.hpp"

#include <fmt/format.h>

#include <regex>

#include "util/error.hpp"
#include "content/lab_id.hpp"

namespace workbook::learn {

namespace fs = std::filesystem;

namespace {

fs::path bank_path(const Catalog& catalog, int module) {
  return catalog.root() / "exercises" / (module_id(module) + ".yaml");
}

std::vector<int> bank_modules(const Catalog& catalog) {
  std::vector<int> out;
  for (int n = 1; n <= 24; ++n) {
    if (fs::is_regular_file(bank_path(catalog, n))) out.push_back(n);
  }
  return out;
}

}  // namespace

ExerciseBank load_bank(const Catalog& catalog, int module) {
  fs::path file = bank_path(catalog, module);
  if (!fs::is_regular_file(file)) {
    std::string have;
    for (int n : bank_modules(catalog)) have += (have.empty() ? "" : ", ") + module_id(n);
    throw UsageError(fmt::format("{0} has no exercise bank (exercises/{0}.yaml)", module_id(module)),
                     fmt::format("modules with exercises: {}", have.empty() ? "(none)" : have));
  }
  Problems problems;
  ExerciseBank bank = read_exercises(file, module, "exercises/" + module_id(module) + ".yaml", problems);
  problems.throw_if_any();
  return bank;
}

std::optional<ExerciseBank> find_bank(const Catalog& catalog, int module) {
  if (!fs::is_regular_file(bank_path(catalog, module))) return std::nullopt;
  return load_bank(catalog, module);
}

std::vector<ExerciseBank> load_all_banks(const Catalog& catalog) {
  std::vector<ExerciseBank> out;
  for (int n : bank_modules(catalog)) out.push_back(load_bank(catalog, n));
  return out;
}

int parse_module(const std::string& text) {
  static const std::regex pattern("^(?:module|m)?0*([0-9]{1,2})$", std::regex::icase);
  std::smatch m;
  if (std::regex_match(text, m, pattern)) {
    int n = std::stoi(m[1]);
    if (n >= 1 && n <= 24) return n;
  }
  throw UsageError(fmt::format("'{}' is not a module (1-24, e.g. 14 or module14)", text));
}

}  // namespace workbook::learn
