// Lab variants (see VariantSpec in manifest.hpp): the solution's text with a list of
// exact edits applied, used by `dev check` and `run --variant` as known-wrong and
// correct-but-slow test inputs.
#pragma once

#include <filesystem>
#include <string>

#include "content/manifest.hpp"

namespace workbook {

// Applies the variant's edits to `text` in order. Each edit's `from` must occur exactly
// once in the text as it stands at that point; otherwise throws ContentError naming the
// edit, so a variant that no longer matches its solution is reported, never skipped.
// Problems read "<file>:<line>: <field>.<id>.edits[i].from: ...".
std::string apply_variant(const std::string& text, const VariantSpec& variant, const std::string& file,
                          const std::string& field = "variants");

// The variant with this id, or throws UsageError listing the lab's variants.
const VariantSpec& find_variant(const LabSpec& lab, const std::string& id);

// Writes the variant's source (the solution with its edits applied) to
// `dir`/<lab name>.<variant id>.<ext> and returns the path.
std::filesystem::path write_variant_source(const LabSpec& lab, const VariantSpec& variant,
                                           const std::filesystem::path& solution, const std::filesystem::path& dir);

}  // namespace workbook
