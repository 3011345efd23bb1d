// Loading and validating module manifests (modules/moduleNN/module.yaml).
#pragma once

#include <filesystem>

#include "content/manifest.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {

// Reads one manifest. Problems (syntax, missing or unknown keys, bad values, expressions
// naming unknown figures, lab sources that do not exist) are added to `problems`; the
// returned module holds whatever could be read. `content_root` is used to check that each
// lab's starter and solution exist.
Module read_module(const std::filesystem::path& file, int number,
                   const std::filesystem::path& content_root, Problems& problems);

}  // namespace workbook
