// Loading the exercise banks (exercises/moduleNN.yaml) of the content tree.
#pragma once

#include <optional>
#include <vector>

#include "content/catalog.hpp"
#include "content/exercises.hpp"

namespace workbook::learn {

// The bank of one module; throws UsageError when the module has none (naming those that
// exist) and ContentError when it does not validate.
ExerciseBank load_bank(const Catalog& catalog, int module);
// The same, but nullopt when the module has no bank.
std::optional<ExerciseBank> find_bank(const Catalog& catalog, int module);
// Every module's bank, in module order (modules without a bank are skipped).
std::vector<ExerciseBank> load_all_banks(const Catalog& catalog);
// Parses "14", "module14", "m14"; throws UsageError for anything else or outside 1-24.
int parse_module(const std::string& text);

}  // namespace workbook::learn
