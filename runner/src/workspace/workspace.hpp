// The learner's workspace: their copies of the labs (which they edit) and the journal.
//
//   <workspace>/labs/moduleNN/<lab>.cu   the learner's copy of each starter
//   <workspace>/.workbook/journal.db     the SQLite journal (WAL)
//   <workspace>/.workbook/build/         the content-hash build cache
//
// The workspace is, in order: `--workspace DIR`, $WORKBOOK_WORKSPACE, the nearest folder
// at or above the current directory that holds .workbook/, and ~/workbook.
#pragma once

#include <filesystem>
#include <optional>

#include "content/catalog.hpp"

namespace workbook {

class Workspace {
 public:
  explicit Workspace(std::filesystem::path root) : root_(std::move(root)) {}

  // Resolves the workspace as described above (does not create it).
  static Workspace resolve(const std::optional<std::filesystem::path>& flag);

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path state_dir() const { return root_ / ".workbook"; }
  std::filesystem::path journal_path() const { return state_dir() / "journal.db"; }
  std::filesystem::path build_cache() const { return state_dir() / "build"; }
  std::filesystem::path runs_dir() const { return state_dir() / "runs"; }
  std::filesystem::path lab_copy(const LabSpec& lab) const;

  // Creates the workspace folders if missing; throws UsageError if it cannot.
  void ensure() const;

  // Copies the lab's starter into the workspace unless a copy exists. Never overwrites.
  // Returns true when it made the copy.
  bool ensure_lab_copy(const Catalog& catalog, const LabSpec& lab) const;

  // Replaces the learner's copy with the starter (the old copy is kept as <file>.bak).
  void restore_starter(const Catalog& catalog, const LabSpec& lab) const;

 private:
  std::filesystem::path root_;
};

}  // namespace workbook
