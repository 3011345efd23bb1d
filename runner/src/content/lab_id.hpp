// Lab and module ids: "module14/tiled_gemm", "module14", "14". A strict character set,
// so an id can never name a path outside the content tree.
#pragma once

#include <optional>
#include <string>

namespace workbook {

struct LabRef {
  int module = 0;       // 1..24
  std::string name;     // [a-z0-9_]+, may be empty when only a module was named
  std::string module_id() const;  // "module14"
  std::string id() const;         // "module14/tiled_gemm"
};

inline constexpr int kModuleCount = 24;

// Parses "module14/tiled_gemm", "module14", "14" or "m14"; nullopt if malformed.
std::optional<LabRef> parse_lab_ref(const std::string& text);

// Throws UsageError with the accepted forms when `text` is not a valid reference.
LabRef parse_lab_ref_or_throw(const std::string& text);

// True for names made of [a-z0-9_], 1..64 characters, starting with a letter: a lab's
// name, and the manifests' metric, variant, parameter and answer-part names.
bool is_valid_name(const std::string& name);

std::string module_id(int module);  // 14 -> "module14"

}  // namespace workbook
