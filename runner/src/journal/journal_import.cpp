// Merging journal exports (see journal_import.hpp).
#include "journal/journal_import.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cctype>
#include <climits>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <vector>
#include <nlohmann/json.hpp>

#include "journal/journal_export.hpp"
#include "journal/schema.hpp"
#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/json_depth.hpp"

namespace workbook {

namespace {

using nlohmann::json;
using Stmt = sql::Statement;

constexpr const char* kFixHint = "nothing was imported; export the file again on the machine it came from "
                                 "(workbook journal export FILE) and import that";

enum class Affinity { integer, real, text, any };

struct Column {
  Affinity affinity = Affinity::any;
  bool required = false;  // NOT NULL without a default
};

// SQLite's affinity rules for a declared type.
Affinity affinity_of(std::string type) {
  for (auto& ch : type) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (type.find("INT") != std::string::npos) return Affinity::integer;
  if (type.find("CHAR") != std::string::npos || type.find("TEXT") != std::string::npos) return Affinity::text;
  if (type.find("REAL") != std::string::npos || type.find("FLOA") != std::string::npos ||
      type.find("DOUB") != std::string::npos) {
    return Affinity::real;
  }
  return Affinity::any;
}

std::map<std::string, Column> columns_of(sqlite3* db, const std::string& table) {
  Stmt s(db, fmt::format("SELECT name, type, \"notnull\", dflt_value IS NULL, pk FROM pragma_table_info('{}')", table)
                 .c_str());
  std::map<std::string, Column> out;
  while (s.next()) out[s.text(0)] = {affinity_of(s.text(1)), s.integer(2) != 0 && s.integer(3) != 0 && s.integer(4) == 0};
  return out;
}

std::string kind_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    default: return "a number";
  }
}

bool is_uid(const json& v) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Where a row came from, for error messages.
struct RowPlace {
  const std::string& file;
  const std::string& table;
  std::size_t index;
};

[[noreturn]] void bad_row(const RowPlace& at, const std::string& what) {
  throw Error(Exit::usage, fmt::format("{}: {} row {}: {}", at.file, at.table, at.index + 1, what), kFixHint);
}

void bind_value(Stmt& s, Affinity a, const json& v, const RowPlace& at, const std::string& column) {
  if (v.is_null()) {
    s.bind(std::optional<long long>());
  } else if (a == Affinity::integer && (v.is_boolean() || v.is_number_integer())) {
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
      bad_row(at, fmt::format("{} is {}, too large for a 64-bit integer", column, v.dump()));
    }
    s.bind(v.is_boolean() ? static_cast<long long>(v.get<bool>()) : v.get<long long>());
  } else if (a == Affinity::real && v.is_number()) {
    s.bind(v.get<double>());
  } else if (a == Affinity::real && (v == "inf" || v == "-inf")) {
    s.bind(v == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
  } else if ((a == Affinity::text || a == Affinity::any) && v.is_string()) {
    s.bind(v.get<std::string>());
  } else if (a == Affinity::any && v.is_number()) {
    s.bind(v.get<double>());
  } else {
    const char* want = a == Affinity::integer ? "an integer" : a == Affinity::real ? "a number" : "a string";
    bad_row(at, fmt::format("{} should be {} but is {}", column, want, kind_of(v)));
  }
}

// The import's statements, each prepared once and reset for every further use: one
// prepared a row made SQLite compile the tables' triggers again for every row (a first
// import of 100,000 runs: 36 s with schema 16's summary triggers, 23 s without them).
class Statements {
 public:
  explicit Statements(sqlite3* db) : db_(db) {}
  sqlite3* db() const { return db_; }
  Stmt& operator()(const std::string& sql_text) {
    std::unique_ptr<Stmt>& s = cache_[sql_text];
    if (s) s->reset();
    else s = std::make_unique<Stmt>(db_, sql_text.c_str());
    return *s;
  }
  // Every statement reset (none left part-way through its rows), before the commit.
  void reset_all() {
    for (auto& [text, s] : cache_) s->reset();
  }

 private:
  sqlite3* db_;
  std::map<std::string, std::unique_ptr<Stmt>> cache_;
};

// The local id of the `parent` row whose uid is `uid`; a row error when there is none.
long long parent_id(Statements& st, const SyncedTable& t, const json& uid, const RowPlace& at) {
  const std::string key = t.parent_uid_key();
  if (!is_uid(uid)) bad_row(at, fmt::format("{} should be a uid (32 hex digits) but is {}", key, uid.dump()));
  Stmt& s = st(fmt::format("SELECT id FROM {} WHERE uid=?", t.parent_table));
  s.bind(uid.get<std::string>());
  if (!s.next()) {
    bad_row(at, fmt::format("its {} {} is neither in this journal nor earlier in the import", key,
                            uid.get<std::string>()));
  }
  return s.integer(0);
}

// The tables whose rows belong to one run: an import adds them only with their run. An
// explanation is a record of its own (given after the run, never changing it), so one may
// arrive for a run this journal holds.
bool part_of_a_run(const SyncedTable& t) {
  return (t.parent_table == "runs" || t.parent_table == "experiment_runs") && t.name != "explanations" &&
         t.name != "experiment_explanations";
}

// The highest id each run table had before the import: runs up to it were here already.
struct RunsBefore {
  long long runs = 0, experiment_runs = 0;
  long long of(const std::string& table) const { return table == "runs" ? runs : experiment_runs; }
};

RunsBefore runs_before(sqlite3* db) {
  RunsBefore out;
  Stmt s(db, "SELECT (SELECT COALESCE(MAX(id), 0) FROM runs), (SELECT COALESCE(MAX(id), 0) FROM experiment_runs)");
  if (s.next()) out = {s.integer(0), s.integer(1)};
  return out;
}

// A new row of a run this journal held before the import (a figure, a check, a grade, a
// prediction, a result): a run is imported whole or not at all, so the whole import is
// refused. (The schema refuses it too, once the run has ended: schema.cpp.)
[[noreturn]] void refuse_row_of_held_run(sqlite3* db, const SyncedTable& t, long long parent, const RowPlace& at) {
  Stmt s(db, fmt::format("SELECT uid, started_at FROM {} WHERE id = ?", t.parent_table).c_str());
  s.bind(parent);
  std::string uid = "?", started = "?";
  if (s.next()) {
    uid = s.text(0);
    started = s.text(1);
  }
  throw Error(Exit::usage,
              fmt::format("{}: {} row {}: adds to the run {} (started {}), which this journal already holds; a run "
                          "is imported whole with its rows or not at all, so nothing was imported",
                          at.file, at.table, at.index + 1, uid, started),
              "import an unedited export (workbook journal export FILE on the machine the run came from)");
}

// Inserts one row unless its uid is here already; true when it was added.
bool import_row(Statements& st, const SyncedTable& t, const std::map<std::string, Column>& cols, const json& row,
                const RunsBefore& before, const RowPlace& at) {
  sqlite3* db = st.db();
  long long parent = 0;
  if (!row.is_object()) bad_row(at, "should be an object but is " + kind_of(row));
  if (!row.contains("uid") || !is_uid(row["uid"])) bad_row(at, "has no uid (32 lowercase hex digits)");
  std::vector<std::string> names;
  std::vector<std::pair<Affinity, json>> values;
  for (const auto& [key, value] : row.items()) {
    if (!t.parent_table.empty() && key == t.parent_uid_key()) {
      parent = parent_id(st, t, value, at);
      names.push_back(t.parent_column);
      values.emplace_back(Affinity::integer, parent);
      continue;
    }
    auto c = cols.find(key);
    if (c == cols.end() || key == "id" || key == t.parent_column) bad_row(at, fmt::format("has an unknown column '{}'", key));
    names.push_back(key);
    values.emplace_back(c->second.affinity, value);
  }
  if (!t.parent_table.empty() && !row.contains(t.parent_uid_key())) bad_row(at, "has no " + t.parent_uid_key());
  for (const auto& [name, c] : cols) {
    if (c.required && name != t.parent_column && !row.contains(name)) bad_row(at, fmt::format("has no {}", name));
  }
  Stmt& exists = st(fmt::format("SELECT 1 FROM {} WHERE uid=?", t.name));
  exists.bind(row["uid"].get<std::string>());
  std::string list, marks;
  for (const auto& n : names) {
    list += (list.empty() ? "" : ", ") + n;
    marks += marks.empty() ? "?" : ", ?";
  }
  Stmt& insert = st(fmt::format("INSERT INTO {}({}) VALUES({})", t.name, list, marks));
  for (std::size_t i = 0; i < names.size(); ++i) bind_value(insert, values[i].first, values[i].second, at, names[i]);
  if (exists.next()) return false;  // checked after the row was found well-formed
  if (part_of_a_run(t) && parent <= before.of(t.parent_table)) refuse_row_of_held_run(db, t, parent, at);
  try {
    insert.run();
  } catch (const Error&) {
    if ((sqlite3_errcode(db) & 0xff) != SQLITE_CONSTRAINT) throw;
    bad_row(at, sqlite3_errmsg(db));
  }
  return true;
}

// A file that may be read whole and parsed: a regular file (not a FIFO, a device such as
// /dev/zero, or a folder) of at most kMaxImportBytes.
void check_import_file(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw Error(Exit::usage, fmt::format("cannot read {}", name), "check the path; nothing was imported");
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(Exit::usage, fmt::format("{} is not a regular file (a folder, a pipe or a device)", name),
                "import the file `workbook journal export FILE` wrote; nothing was imported");
  }
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec && size > kMaxImportBytes) {
    throw Error(Exit::usage,
                fmt::format("{} is {} MB, over the {} MB an export may be (a semester's journal exports to a few MB)",
                            name, size >> 20, kMaxImportBytes >> 20),
                "check it is a journal export; nothing was imported");
  }
}

// The export's text, refused before parsing when it nests deeper than any export does.
std::string read_import_text(const std::filesystem::path& file) {
  check_import_file(file);
  auto text = read_file_text(file);
  if (!text) throw Error(Exit::usage, fmt::format("cannot read {}", file.string()), "check the path; nothing was imported");
  if (json_nests_deeper_than(*text, kMaxImportDepth)) {
    throw Error(Exit::usage,
                fmt::format("{} nests arrays or objects more than {} levels deep: it is not a journal export",
                            file.string(), kMaxImportDepth),
                kFixHint);
  }
  return std::move(*text);
}

// A run imported with an end is added open (finished_at NULL), so that its own rows may
// follow it past the schema's guard on ended runs (schema.cpp), and ended afterwards.
struct RunEnding {
  std::string table, uid;
  json finished_at;
};

// One export, read: the document without its rows (each table an empty array), and each
// table's rows as compact JSON text, parsed one at a time when imported. A parsed row
// costs ten times its text or more (a map node per column), so the whole document
// parsed at once took 12x the file's size for 100 k runs.
struct ExportFile {
  json doc;
  std::map<std::string, std::vector<std::string>> rows;
};

// Parses an export, taking each row out of the document as it is read (the document
// keeps the tables' arrays, empty). A table, or "tables", given twice is refused.
ExportFile parse_export(const std::string& name, const std::string& text) {
  ExportFile out;
  std::string top_key, table;
  std::set<std::string> tables_seen;
  bool twice = false;
  auto on_event = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth <= 2) {
      std::string& key = depth == 1 ? top_key : table;
      key = parsed.get<std::string>();
      if (depth == 1 && key == "tables") twice = twice || !tables_seen.insert("").second;
      if (depth == 2 && top_key == "tables") twice = twice || !tables_seen.insert(key).second;
      return true;
    }
    const bool row_done = event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
                          event == json::parse_event_t::value;
    if (depth != 3 || !row_done || top_key != "tables") return true;
    out.rows[table].push_back(parsed.dump(-1, ' ', false, json::error_handler_t::replace));
    return false;  // not kept in the document
  };
  try {
    out.doc = json::parse(text, on_event);
  } catch (const json::exception& e) {  // a syntax error, or a number past a double's range (1e309)
    throw Error(Exit::usage, fmt::format("{} is not valid JSON ({})", name, e.what()), kFixHint);
  }
  if (twice) throw Error(Exit::usage, fmt::format("{} gives a table (or \"tables\") twice", name), kFixHint);
  return out;
}

// Reads and checks one export file (format, schema version, table names).
ExportFile read_export(const std::filesystem::path& file) {
  const std::string name = file.string();
  ExportFile read = parse_export(name, read_import_text(file));
  const json& doc = read.doc;
  if (!doc.is_object() || doc.value("format", json()) != kJournalExportFormat) {
    throw Error(Exit::usage,
                fmt::format("{} is not a workbook journal export (it has no \"format\": \"{}\")", name,
                            kJournalExportFormat),
                "make one with `workbook journal export FILE` on the other machine");
  }
  const json version = doc.value("schema_version", json());
  if (!version.is_number_integer()) throw Error(Exit::usage, fmt::format("{} has no schema_version", name), kFixHint);
  const int v = version.get<int>();
  if (v > kSchemaVersion) {
    throw Error(Exit::usage,
                fmt::format("{} was exported by a newer workbook (journal schema version {}; this workbook knows "
                            "versions up to {}); nothing was imported",
                            name, v, kSchemaVersion),
                "update workbook on this machine (pull and rebuild the runner), then import again");
  }
  if (v < kFirstSyncedVersion) {
    throw Error(Exit::usage, fmt::format("{} has schema version {}, older than any export ({})", name, v,
                                         kFirstSyncedVersion),
                kFixHint);
  }
  const json& tables = doc.value("tables", json());
  if (!tables.is_object()) throw Error(Exit::usage, fmt::format("{} has no \"tables\" object", name), kFixHint);
  for (const auto& [table, rows] : tables.items()) {
    bool known = false;
    for (const auto& t : synced_tables()) known = known || t.name == table;
    if (!known) throw Error(Exit::usage, fmt::format("{}: unknown table '{}'", name, table), kFixHint);
    if (!rows.is_array()) throw Error(Exit::usage, fmt::format("{}: {} should be an array of rows", name, table), kFixHint);
  }
  return read;
}

}  // namespace

long long ImportSummary::added(const std::string& table) const {
  for (const auto& t : tables) {
    if (t.table == table) return t.added;
  }
  return 0;
}

long long ImportSummary::added_total() const {
  long long n = 0;
  for (const auto& t : tables) n += t.added;
  return n;
}

ImportSummary import_journal_files(Journal& journal, const std::vector<std::filesystem::path>& files,
                                   const std::function<void(const ImportSummary&)>& before_commit) {
  ImportSummary summary;
  std::vector<ExportFile> docs;
  for (const auto& f : files) {
    docs.push_back(read_export(f));
    const json& d = docs.back().doc;
    auto text = [&d](const char* key) {
      auto it = d.find(key);
      return it != d.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    summary.files.push_back({f.string(), text("machine"), text("exported_at"), d["schema_version"].get<int>()});
  }
  for (const auto& t : synced_tables()) summary.tables.push_back({t.name, 0, 0});
  sqlite3* db = journal.store_connection();
  sql::Transaction transaction(db);
  const RunsBefore before = runs_before(db);
  Statements st(db);
  std::vector<RunEnding> endings;
  for (std::size_t f = 0; f < docs.size(); ++f) {
    for (std::size_t i = 0; i < synced_tables().size(); ++i) {
      const SyncedTable& t = synced_tables()[i];
      const auto found = docs[f].rows.find(t.name);
      if (found == docs[f].rows.end()) continue;
      const auto cols = columns_of(db, t.name);
      const bool run_table = t.name == "runs" || t.name == "experiment_runs";
      const std::vector<std::string>& rows = found->second;
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const RowPlace at{summary.files[f].path, t.name, r};
        json row = json::parse(rows[r]);  // its own dump: valid JSON
        json finished_at;
        if (run_table && row.is_object() && row.contains("finished_at") && row["finished_at"].is_string())
          std::swap(finished_at, row["finished_at"]);
        const bool added = import_row(st, t, cols, row, before, at);
        if (added && !finished_at.is_null()) endings.push_back({t.name, row["uid"].get<std::string>(), finished_at});
        ++(added ? summary.tables[i].added : summary.tables[i].skipped);
      }
    }
  }
  for (const auto& e : endings) {
    st(fmt::format("UPDATE {} SET finished_at=? WHERE uid=?", e.table))
        .bind(e.finished_at.get<std::string>())
        .bind(e.uid)
        .run();
  }
  st.reset_all();
  if (before_commit) before_commit(summary);
  transaction.commit();
  return summary;
}

}  // namespace workbook
