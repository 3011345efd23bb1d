// Tests for journal/journal_export: the streamed export is the same document as the one
// built whole, written in pieces of whole rows, and imports like it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"

#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
using nlohmann::json;
using wbtest::TempDir;

namespace {

// `runs` finished runs, each with a prediction and an explanation of `text_bytes` bytes.
void fill(Journal& j, int runs, std::size_t text_bytes) {
  for (int i = 0; i < runs; ++i) {
    const long long run = j.begin_run({"module01/pass_lab", "starter", "/ws/pass_lab.cpp", "{}", 1, "Tesla T4", "sm_75"});
    j.record_prediction(run, "module01/pass_lab", {"count_guess", std::to_string(i), static_cast<double>(i)});
    j.finish_run(run, Verdict::pass, 0, "");
    j.record_explanation(run, std::string(text_bytes, static_cast<char>('a' + i % 26)));
  }
}

json without_time(json doc) {
  doc.erase("exported_at");
  return doc;
}

}  // namespace

TEST_CASE("write_export streams the document export_journal builds, in pieces of whole rows", "[journal][export]") {
  TempDir dir;
  Journal j(dir.path / "a.db");
  fill(j, 600, 2000);  // over a megabyte of explanations: more than one piece
  std::vector<std::string> pieces;
  const ExportSummary summary = write_export(j, "laptop", [&](const std::string& p) { pieces.push_back(p); });
  REQUIRE(pieces.size() >= 2);
  std::string text;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i + 1 < pieces.size()) {
      CHECK(pieces[i].size() >= std::size_t{1} << 20);
      CHECK(pieces[i].back() == '}');  // a piece ends with a whole row
    }
    text += pieces[i];
  }
  const json streamed = json::parse(text);
  const json built = export_journal(j, "laptop");
  CHECK(without_time(streamed) == without_time(built));
  CHECK(streamed["exported_at"] == summary.exported_at);
  CHECK(summary.schema_version == built["schema_version"].get<int>());
  CHECK(summary.machine == "laptop");
  for (const auto& [table, rows] : built["tables"].items()) {
    INFO(table);
    CHECK(summary.rows.at(table) == static_cast<long long>(rows.size()));
  }
  CHECK(summary.rows.at("runs") == 600);

  // It imports as the whole document does.
  const std::filesystem::path file = dir.path / "a.json";
  wbtest::write_file(file, text);
  Journal b(dir.path / "b.db");
  import_journal_files(b, {file});
  CHECK(without_time(export_journal(b, "laptop"))["tables"] == built["tables"]);
}

TEST_CASE("write_export of an empty journal is a document with every table empty", "[journal][export]") {
  TempDir dir;
  Journal j(dir.path / "a.db");
  std::string text;
  write_export(j, "x", [&](const std::string& p) { text += p; });
  const json doc = json::parse(text);
  CHECK(doc["format"] == kJournalExportFormat);
  CHECK(without_time(doc) == without_time(export_journal(j, "x")));
}
