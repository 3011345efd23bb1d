// The content tree: where it is, and the modules it holds.
//
// The root is, in order: `--content DIR`, $WORKBOOK_CONTENT, the first folder above the
// running binary that holds modules/ and labs/common/ (a source tree or build tree), the
// first such folder above the current one (a binary built elsewhere, started inside a
// checkout), and <prefix>/share/workbook next to an installed binary.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
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

// Each module's manifest is read once, on first use, and kept: every later load_module,
// load_all and find_lab of the same catalog answers from memory (safe from several
// threads), so a command reads a manifest at most once (GlobalOptions::catalog gives each
// command one catalog). A load checks the manifest's own fields; the checks that read
// further files run in `dev check` (content/manifest_load.hpp).
class Catalog {
 public:
  explicit Catalog(std::filesystem::path root) : root_(std::move(root)) {}
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path common_dir() const { return root_ / "labs" / "common"; }

  // Module numbers that have a manifest, ascending.
  std::vector<int> module_numbers() const;
  // One module; throws ContentError (all problems) or UsageError (no such module).
  const Module& load_module(int number) const;
  // Every module; throws ContentError listing the problems of all of them.
  std::vector<Module> load_all() const;
  // Finds a lab by reference; throws UsageError naming the labs that exist.
  const LabSpec& find_lab(const LabRef& ref) const;
  // The lab `id` ("module14/tiled_gemm") names, or nullptr: no such lab, or its module does
  // not load (the journal's labs that are gone from the content).
  const LabSpec* lab_or_null(const std::string& id) const;

  std::filesystem::path starter_path(const LabSpec& lab) const;
  std::filesystem::path solution_path(const LabSpec& lab) const;

 private:
  struct Read {
    Module module;
    std::vector<std::string> problems;
  };
  const Read& read(int number) const;  // the manifest, read on the first call

  std::filesystem::path root_;
  mutable std::mutex mutex_;
  mutable std::map<int, Read> read_;  // by module number; never erased, so references stay valid
};

}  // namespace workbook
