// The content tree: where it is, and the modules it holds.
//
// The root is, in order: `--content DIR`, $WORKBOOK_CONTENT, the first folder above the
// running binary that holds modules/ and labs/common/ (a source tree or build tree), the
// first such folder above the current one (a binary built elsewhere, started inside a
// checkout), and <prefix>/share/workbook next to an installed binary.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "content/lab_id.hpp"
#include "content/manifest.hpp"

namespace workbook {

// Finds the content root; throws UsageError saying where it looked.
std::filesystem::path find_content_root(const std::optional<std::filesystem::path>& flag);

// The lab of `module` named `name`; throws UsageError naming the module's labs (and the
// one a typo was likely meant to be). Catalog::find_lab, and dev check's --only.
const LabSpec& lab_in(const Module& module, const std::string& name);

class Catalog {
 public:
  explicit Catalog(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path labs_dir() const { return root_ / "labs"; }
  std::filesystem::path common_dir() const { return root_ / "labs" / "common"; }

  // Module numbers that have a manifest, ascending.
  std::vector<int> module_numbers() const;
  // Loads one module; throws ContentError (all problems) or UsageError (no such module).
  Module load_module(int number) const;
  // Loads every module; throws ContentError listing the problems of all of them.
  std::vector<Module> load_all() const;
  // Finds a lab by reference; throws UsageError naming the labs that exist.
  LabSpec find_lab(const LabRef& ref) const;

  std::filesystem::path starter_path(const LabSpec& lab) const;
  std::filesystem::path solution_path(const LabSpec& lab) const;

 private:
  std::filesystem::path root_;
};

}  // namespace workbook
