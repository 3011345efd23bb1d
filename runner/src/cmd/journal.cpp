// `workbook journal export [FILE]` and `workbook journal import FILE...`: one journal
// across machines (the laptop, Colab, the cluster). The logic is in journal/journal_export
// and journal/journal_import; learn/journal_merge rebuilds the FSRS cards after an import.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "cmd/registry.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "learn/journal_merge.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

// Writes `text` to `file` through a temporary file and a rename: never half a file.
void write_whole_file(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw Error(Exit::io_error, fmt::format("cannot write {}", tmp.string()), "check the folder is writable");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error(Exit::io_error, fmt::format("cannot write {}", file.string()), "check the folder is writable");
  }
}

void run_export(const GlobalOptions& global, const std::string& file, bool json) {
  Workspace ws = global.open_workspace();
  if (!std::filesystem::exists(ws.journal_path())) {
    throw UsageError(fmt::format("there is no journal at {}: nothing to export", ws.journal_path().string()),
                     "choose the workspace with --workspace DIR or WORKBOOK_WORKSPACE");
  }
  Journal journal(ws.journal_path());
  const nlohmann::json doc = export_journal(journal, machine_name());
  if (file.empty() || file == "-") {
    fmt::print("{}\n", doc.dump(1));
    return;
  }
  write_whole_file(file, doc.dump(1) + "\n");
  nlohmann::json rows = nlohmann::json::object();
  for (const auto& [table, list] : doc["tables"].items()) rows[table] = list.size();
  if (json) {
    print_json({{"file", file}, {"machine", doc["machine"]}, {"schema_version", doc["schema_version"]},
                {"exported_at", doc["exported_at"]}, {"rows", rows}});
    return;
  }
  fmt::print("Exported {} runs, {} predictions and {} reviews from {} to {} (machine {}, schema version {}).\n",
             rows["runs"].get<long long>(), rows["predictions"].get<long long>(),
             rows["learn_revlog"].get<long long>(), ws.journal_path().string(), file,
             doc["machine"].get<std::string>(), doc["schema_version"].get<int>());
}

void print_import(const ImportSummary& s, int cards) {
  for (const auto& f : s.files) {
    fmt::print("Imported {} (machine {}, exported {}).\n", f.path, f.machine.empty() ? "?" : f.machine,
               f.exported_at.empty() ? "?" : f.exported_at);
  }
  for (const auto& t : s.tables) {
    if (t.added + t.skipped == 0) continue;
    fmt::print("  {:<20} {:>6} added {:>6} already here\n", t.table, t.added, t.skipped);
  }
  if (s.added_total() == 0) fmt::print("Nothing new: this journal had every row already.\n");
  if (cards > 0) fmt::print("Rebuilt {} review cards from the merged review log, in time order.\n", cards);
}

void run_import(const GlobalOptions& global, const std::vector<std::string>& files, bool json) {
  Workspace ws = global.open_workspace();
  ws.ensure();
  Journal journal(ws.journal_path());
  const learn::MergeResult merged =
      learn::merge_journal_files(journal, std::vector<std::filesystem::path>(files.begin(), files.end()));
  const ImportSummary& s = merged.summary;
  const int cards = merged.cards_rebuilt;
  if (!json) {
    print_import(s, cards);
    return;
  }
  nlohmann::json tables = nlohmann::json::object();
  for (const auto& t : s.tables) tables[t.table] = {{"added", t.added}, {"skipped", t.skipped}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& f : s.files) {
    list.push_back({{"file", f.path}, {"machine", f.machine}, {"exported_at", f.exported_at},
                    {"schema_version", f.schema_version}});
  }
  print_json({{"journal", ws.journal_path().string()}, {"files", list}, {"tables", tables},
              {"added", s.added_total()}, {"cards_rebuilt", cards}});
}

}  // namespace

void setup_journal(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("journal", "Carry the journal between machines: export it, import others' exports");
  cmd->require_subcommand(1);
  cmd->footer("Example: workbook journal export laptop.json   (then, on the cluster)   workbook journal import laptop.json");

  auto out = std::make_shared<std::string>();
  auto export_json = std::make_shared<bool>(false);
  auto* exp = cmd->add_subcommand("export", "Write this workspace's journal as JSON (to FILE, or stdout with - or none)");
  exp->add_option("file", *out, "The file to write; - or nothing: standard output");
  exp->add_flag("--json", *export_json, "Print a JSON summary (when writing to a file)");
  exp->footer("Example: workbook journal export laptop.json");
  exp->callback([&ctx, out, export_json] { run_export(ctx.global, *out, *export_json); });

  auto files = std::make_shared<std::vector<std::string>>();
  auto import_json = std::make_shared<bool>(false);
  auto* imp = cmd->add_subcommand(
      "import", "Merge exports from other machines into this journal (no duplicates; all or nothing)");
  imp->add_option("files", *files, "Export files made by `workbook journal export`")->required();
  imp->add_flag("--json", *import_json, "Print what was added and skipped per table as JSON");
  imp->footer("Example: workbook journal import colab.json cluster.json");
  imp->callback([&ctx, files, import_json] { run_import(ctx.global, *files, *import_json); });
}

}  // namespace workbook
