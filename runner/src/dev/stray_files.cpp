// Stray files under labs/ and solutions/ (see stray_files.hpp).
#include "dev/stray_files.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace workbook {

namespace fs = std::filesystem;

std::vector<std::string> stray_file_problems(const fs::path& root,
                                             const std::map<std::string, std::set<std::string>>& sources) {
  std::vector<std::string> out;
  for (const char* top : {"labs", "solutions"}) {
    std::error_code ec;
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(root / top, ec)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    for (const auto& entry : entries) {
      const std::string name = entry.filename().string();
      const std::string rel = std::string(top) + "/" + name;
      if (std::string(top) == "labs" && name == "common") continue;
      const auto module = sources.find(name);
      if (module == sources.end() || !fs::is_directory(entry, ec)) {
        out.push_back(fmt::format("{}: not a module folder of a module with labs: a stray entry (remove it, or give "
                                  "modules/{}/module.yaml a lab that uses it)",
                                  rel, name));
        continue;
      }
      std::vector<fs::path> files;
      for (const auto& f : fs::directory_iterator(entry, ec)) files.push_back(f.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        const std::string file = f.filename().string();
        if (module->second.count(file) && fs::is_regular_file(f, ec)) continue;
        out.push_back(fmt::format("{}/{}: no lab of modules/{}/module.yaml has it as its source: a stray file (remove "
                                  "it, or declare its lab)",
                                  rel, file, name));
      }
    }
  }
  return out;
}

}  // namespace workbook
