// A module 5 with one lab `lab` (starter and solution files written) whose manifest ends
// with `lab_keys`, read back with content/manifest_load: for the tests of one manifest
// section. The lab's `steps:` key is on line 10, so `lab_keys` starts on line 11.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "content/manifest_load.hpp"
#include "problems.hpp"
#include "temp_dir.hpp"

namespace wbtest {

inline workbook::Module read_one_lab_module(const TempDir& root, const std::string& lab_keys,
                                            workbook::Problems& p) {
  namespace fs = std::filesystem;
  fs::create_directories(root.path / "labs/module05");
  fs::create_directories(root.path / "solutions/module05");
  fs::create_directories(root.path / "modules/module05");
  std::ofstream(root.path / "labs/module05/lab.cu") << "// starter\n";
  std::ofstream(root.path / "solutions/module05/lab.cu") << "// solution\n";
  std::ofstream(root.path / "modules/module05/module.yaml")
      << "format_version: 1\nmodule: 5\ntitle: \"T\"\nobjectives: [\"o\"]\nlabs:\n"
         "  - id: lab\n    title: \"A\"\n    goal: \"G\"\n    source: lab.cu\n    steps: [\"Run it.\"]\n"
      << lab_keys;
  return workbook::read_module(root.path / "modules/module05/module.yaml", 5, root.path, p);
}

}  // namespace wbtest
