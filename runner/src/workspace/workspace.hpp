// The learner's workspace: their copies of the labs (which they edit) and the journal.
//
//   <workspace>/labs/moduleNN/<lab>.cu   the learner's copy of each starter
//   <workspace>/.workbook/journal.db     the SQLite journal (WAL)
//   <workspace>/.workbook/build/         the content-hash build cache
//   <workspace>/.workbook/runs/          results files of recent runs (the newest kRunsKept)
//
// The workspace is, in order: `--workspace DIR`, $WORKBOOK_WORKSPACE, the nearest folder
// at or above the current directory that holds .workbook/, and ~/workbook.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>

#include "content/catalog.hpp"

namespace workbook {

// What restore_starter did.
struct RestoreResult {
  enum class Kind {
    created,    // there was no copy: the starter was copied in
    unchanged,  // the copy already was the starter: nothing was written
    restored,   // the copy was kept at `backup` and replaced by the starter
  };
  Kind kind = Kind::created;
  std::filesystem::path backup;  // restored: where the learner's copy is kept
  bool already_kept = false;     // restored: `backup` already held the same text, so no new file was made
};

// How many results files runs/ keeps (see Workspace::prune_runs).
inline constexpr std::size_t kRunsKept = 200;

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

  // Keeps <workspace>/labs/common a copy of the course's harness headers (the files
  // directly in labs/common), so the by-hand build line in every lab's header
  // (`nvcc ... -I labs/common labs/moduleNN/x.cu`) works from the workspace's root.
  // Rewrites a file only when it differs; throws UsageError if it cannot.
  void ensure_common(const Catalog& catalog) const;

  // Replaces the learner's copy with the starter, keeping the copy as a backup that is
  // never overwritten: <file>.bak, then <file>.bak.1, <file>.bak.2, ... (one above the
  // highest that exists). A copy that already equals the starter is left alone and no
  // backup is made; a copy that equals an existing backup is not written again.
  RestoreResult restore_starter(const Catalog& catalog, const LabSpec& lab) const;

  // Where restore_starter would keep the learner's copy next.
  std::filesystem::path next_backup(const LabSpec& lab) const;

  // Removes the oldest runs' files in runs/ so that the files of at most `keep` runs
  // remain: a run's results (run-N.jsonl, probe-*.jsonl) and the profilers' files that
  // belong to it (run-N.trace.jsonl, run-N.ncu.csv, run-N.sanitizer.txt) go together,
  // the run's age being that of its newest file. Nothing else in runs/ and nothing
  // outside it (the journal) is touched; errors are ignored. Returns how many files it removed.
  std::size_t prune_runs(std::size_t keep = kRunsKept) const;

 private:
  std::filesystem::path root_;
};

}  // namespace workbook
