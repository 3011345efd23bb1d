// Tests for journal/journal_export: the export is written in pieces of whole rows, says
// what it holds, and imports.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"

#include "../support/export_document.hpp"
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

}  // namespace

TEST_CASE("write_export streams the export document in pieces of whole rows, and it imports", "[journal][export]") {
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
  const json doc = json::parse(text);
  CHECK(doc["format"] == kJournalExportFormat);
  CHECK(doc["machine"] == "laptop");
  CHECK(doc["exported_at"] == summary.exported_at);
  CHECK(doc["schema_version"] == summary.schema_version);
  CHECK(summary.schema_version > 0);
  CHECK(summary.machine == "laptop");
  for (const auto& [table, rows] : doc["tables"].items()) {
    INFO(table);
    CHECK(summary.rows.at(table) == static_cast<long long>(rows.size()));
  }
  CHECK(summary.rows.size() == doc["tables"].size());
  REQUIRE(doc["tables"]["runs"].size() == 600);
  REQUIRE(doc["tables"]["explanations"].size() == 600);
  CHECK(doc["tables"]["explanations"][599]["text"] == std::string(2000, static_cast<char>('a' + 599 % 26)));
  CHECK(doc["tables"]["explanations"][599]["run_uid"] == doc["tables"]["runs"][599]["uid"]);

  // It imports, and the journal it makes exports the same rows.
  const std::filesystem::path file = dir.path / "a.json";
  wbtest::write_file(file, text);
  Journal b(dir.path / "b.db");
  import_journal_files(b, {file});
  CHECK(wbtest::export_document(b, "laptop")["tables"] == doc["tables"]);
}

TEST_CASE("write_export of an empty journal is a document with every table empty", "[journal][export]") {
  TempDir dir;
  Journal j(dir.path / "a.db");
  std::string text;
  const ExportSummary summary = write_export(j, "x", [&](const std::string& p) { text += p; });
  const json doc = json::parse(text);
  CHECK(doc["format"] == kJournalExportFormat);
  REQUIRE_FALSE(doc["tables"].empty());
  for (const auto& [table, rows] : doc["tables"].items()) {
    INFO(table);
    CHECK(rows.empty());
    CHECK(summary.rows.at(table) == 0);
  }
}
