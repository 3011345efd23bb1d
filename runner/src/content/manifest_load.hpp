// Loading and validating module manifests (modules/moduleNN/module.yaml).
#pragma once

#include <filesystem>

#include "content/manifest.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {

struct GpuSpec;

// Reads one manifest and checks its own fields. Problems (syntax, missing or unknown keys,
// bad values, expressions naming unknown figures, values that make no sense at default
// parameters, lab sources that do not exist) are added to `problems`; the returned module
// holds whatever could be read. `content_root` is used to check that each lab's starter
// and solution exist (they are not read).
Module read_module(const std::filesystem::path& file, int number,
                   const std::filesystem::path& content_root, Problems& problems);

// The checks that read files beyond the manifest, which `dev check` runs and a load does
// not: every variant's edits apply to its lab's solution (each `from` exactly once), and
// the values that can be computed before a run make sense with the `t4` sheet's figures
// (nullptr: not checked).
void check_module_beyond_manifest(const Module& module, const std::filesystem::path& content_root, const GpuSpec* t4,
                                  Problems& problems);

}  // namespace workbook
