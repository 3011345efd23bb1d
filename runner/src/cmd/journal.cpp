// `workbook journal export [FILE]` and `workbook journal import FILE...`: one journal
// across machines (the laptop, Colab, the cluster). The logic is in journal/journal_export
// and journal/journal_import; learn/journal_merge rebuilds the FSRS cards after an import.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cmd/registry.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "learn/journal_merge.hpp"
#include "present/journal_transfer.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {

namespace {

// The export on standard output; a failed write (a full disk, a closed pipe) is an I/O error.
void print_to_stdout(const std::string& text) {
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  if (!written || std::fflush(stdout) != 0) {
    throw Error(Exit::io_error, fmt::format("cannot write the export to standard output: {}", std::strerror(errno)),
                "check the disk the output goes to is not full");
  }
}

// True when `a` and `b` name the same file (or, when one does not exist, the same path).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

// An export may only create a new file or replace a regular one, and never the journal
// (or its -wal and -shm files): a device (/dev/full), a pipe or a symbolic link would be
// replaced by a regular file, the journal by JSON text.
void check_export_target(const std::filesystem::path& target, const std::filesystem::path& journal) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::filesystem::path own = journal.string() + suffix;
    if (same_file(target, own)) {
      throw UsageError(fmt::format("{} is the journal itself ({}): exporting onto it would destroy it", target.string(),
                                   own.string()),
                       "export to a file outside the workspace's .workbook/ folder, e.g. workbook journal export laptop.json");
    }
  }
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(target, ec);
  if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) return;
  const char* what = std::filesystem::is_symlink(status)     ? "a symbolic link"
                     : std::filesystem::is_directory(status) ? "a folder"
                     : std::filesystem::is_fifo(status)      ? "a named pipe"
                                                             : "a device or other special file";
  throw UsageError(fmt::format("{} is {}, not a regular file: the export would replace it", target.string(), what),
                   "give a new file name or a regular file to replace; to write elsewhere use standard output: "
                   "workbook journal export - > FILE");
}

void run_export(const GlobalOptions& global, const std::string& file, bool json) {
  Workspace ws = global.open_workspace();
  if (!std::filesystem::exists(ws.journal_path())) {
    throw UsageError(fmt::format("there is no journal at {}: nothing to export", ws.journal_path().string()),
                     "choose the workspace with --workspace DIR or WORKBOOK_WORKSPACE");
  }
  const bool to_stdout = file.empty() || file == "-";
  if (!to_stdout) check_export_target(file, ws.journal_path());
  Journal journal(ws.journal_path(), JournalAccess::read);
  if (to_stdout) {
    write_export(journal, machine_name(), print_to_stdout);
    return;
  }
  FileWriter out(file);
  const ExportSummary written = write_export(journal, machine_name(), [&out](const std::string& piece) { out.write(piece); });
  out.commit();
  ExportReport r{ws.journal_path().string(), file, written.machine, written.exported_at, written.schema_version, {}};
  for (const auto& [table, rows] : written.rows) r.rows[table] = rows;
  print_result(global.output(json), r, export_json, print_export);
}

void run_import(const GlobalOptions& global, const std::vector<std::string>& files, bool json) {
  Workspace ws = global.open_workspace();
  ws.ensure();
  Journal journal(ws.journal_path());
  const learn::MergeResult merged =
      learn::merge_journal_files(journal, std::vector<std::filesystem::path>(files.begin(), files.end()));
  print_result(global.output(json), ImportReport{ws.journal_path().string(), merged.summary, merged.cards_rebuilt},
               import_json, print_import);
}

}  // namespace

void setup_journal(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("journal", "Carry the journal between machines: export it, import others' exports");
  cmd->require_subcommand(1);
  cmd->footer(
      "Example:\n  workbook journal export laptop.json   on the laptop\n  workbook journal import laptop.json   then on the cluster");

  auto out = std::make_shared<std::string>();
  auto export_json = std::make_shared<bool>(false);
  auto* exp = cmd->add_subcommand("export", "Write this workspace's journal as JSON (to FILE, or stdout with - or none)");
  exp->add_option("file", *out, "The file to write; - or nothing: standard output");
  add_json_flag(exp, *export_json, "a JSON summary (when writing to a file)");
  exp->footer("Example:\n  workbook journal export laptop.json");
  exp->callback([&ctx, out, export_json] { run_export(ctx.global, *out, *export_json); });

  auto files = std::make_shared<std::vector<std::string>>();
  auto import_json = std::make_shared<bool>(false);
  auto* imp = cmd->add_subcommand(
      "import", "Merge exports from other machines into this journal (no duplicates; all or nothing)");
  imp->add_option("files", *files, "Export files made by `workbook journal export`")->required();
  add_json_flag(imp, *import_json, "one JSON object: what was added and skipped per table");
  imp->footer("Example:\n  workbook journal import colab.json cluster.json");
  imp->callback([&ctx, files, import_json] { run_import(ctx.global, *files, *import_json); });
}

}  // namespace workbook
