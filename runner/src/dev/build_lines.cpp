// Checks the by-hand nvcc line of a lab's header (see build_lines.hpp).
#include "dev/build_lines.hpp"

#include <fmt/format.h>

#include <regex>
#include <sstream>

namespace workbook {

namespace {
constexpr int kHeaderLines = 80;  // the header comment sits at the top of the file

// The tokens of `line` that name a CUDA source file (path ending in .cu).
std::vector<std::string> cu_paths(const std::string& line) {
  static const std::regex path(R"(([A-Za-z0-9_./-]+\.cu)(?![A-Za-z0-9_]))");
  std::vector<std::string> out;
  for (std::sregex_iterator it(line.begin(), line.end(), path), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}
}  // namespace

std::vector<std::string> build_line_problems(const LabSpec& lab, const std::string& rel_path, const std::string& text) {
  std::vector<std::string> problems;
  if (lab.language != LabLanguage::cuda) return problems;
  std::istringstream in(text);
  std::string line;
  int number = 0, found = 0;
  while (number < kHeaderLines && std::getline(in, line)) {
    ++number;
    const auto at = line.find("nvcc ");
    if (at == std::string::npos) continue;
    const std::vector<std::string> paths = cu_paths(line.substr(at));
    if (paths.empty()) continue;  // prose that mentions nvcc
    ++found;
    for (const std::string& p : paths) {
      if (p != rel_path)
        problems.push_back(fmt::format("{}:{}: the nvcc line compiles {}; it should compile this file, {}", rel_path,
                                       number, p, rel_path));
    }
    for (const std::string& lib : lab.libs) {
      const std::regex word("(^|\\s)" + std::regex_replace(lib, std::regex(R"([.+*?^$()\[\]{}|\\])"), R"(\$&)") +
                            "(\\s|$|&|;)");
      if (!std::regex_search(line, word))
        problems.push_back(fmt::format("{}:{}: the nvcc line does not link {}, which the manifest's build.libs lists",
                                       rel_path, number, lib));
    }
  }
  if (found == 0)
    problems.push_back(fmt::format("{}: no by-hand build line in the first {} lines (a comment with `nvcc ... {} -o ...`)",
                                   rel_path, kHeaderLines, rel_path));
  return problems;
}

}  // namespace workbook
