// `workbook journal import`: merging exports from other machines (journal_export.hpp)
// into this journal.
//
// - Rows are matched by uid: a row whose uid is already here is skipped, so importing a
//   file twice changes nothing the second time, and A into B holds the same rows as B
//   into A. Imports only INSERT: a prediction is never updated or deleted (the journal's
//   triggers would refuse it anyway).
// - Atomic: every file of one import goes in one transaction; a file that cannot be read,
//   is not an export, comes from a newer schema, or holds a malformed row (a missing or
//   unknown column, a value of the wrong type, a parent that is nowhere) changes nothing,
//   and the error names the file, the table, the row and what is wrong.
// - A prediction for a run this journal already holds is refused (the whole import): a
//   run's predictions are fixed once it started, and one added later would be graded as
//   if made before the run.
// - Only a regular file of at most kMaxImportBytes, nesting at most kMaxImportDepth
//   levels, is parsed: a pipe, /dev/zero or a hostile file is refused before it is read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

// The largest export `journal import` reads. A run exports to about 4.4 KB (measured: 4
// runs of the fixture pass_lab, 5 figures and 3 predictions each, 17.7 KB), so even 5,000
// runs of a busy semester are about 25 MB; this leaves a tenfold margin.
inline constexpr std::size_t kMaxImportBytes = std::size_t{256} << 20;  // 256 MB
// An export nests four levels (document, tables, rows, row); anything deeper is not one.
inline constexpr std::size_t kMaxImportDepth = 64;

struct TableImport {
  std::string table;
  long long added = 0, skipped = 0;
};

struct ImportedFile {
  std::string path, machine, exported_at;
  int schema_version = 0;
};

struct ImportSummary {
  std::vector<ImportedFile> files;
  std::vector<TableImport> tables;  // in synced_tables() order
  long long added(const std::string& table) const;
  long long added_total() const;
};

// Imports `files` into `journal`. `before_commit` runs inside the transaction after every
// row is in (the command rebuilds the FSRS cards there); if it throws, nothing is kept.
ImportSummary import_journal_files(Journal& journal, const std::vector<std::filesystem::path>& files,
                                   const std::function<void(const ImportSummary&)>& before_commit = {});

}  // namespace workbook
