// End-to-end tests of `workbook journal export` and `workbook journal import` through the
// real binary: two workspaces ("two machines") run fixture labs, one exports, the other
// imports; the import is idempotent, a corrupt file changes nothing, exit codes hold.
#include "e2e_support.hpp"

using e2e::CommandResult;
using e2e::Course;
using e2e::journal_value;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string count(const Course& c, const std::string& table) {
  return journal_value(c.journal(), "SELECT COUNT(*) FROM " + table);
}

}  // namespace

TEST_CASE("e2e: a journal exported from one workspace merges into another, once", "[e2e][journal]") {
  Course laptop, cluster;
  CommandResult r = laptop.run({"run", "module01/pass_lab", "--predict", "count_guess=900", "--predict", "kind=1",
                                "--predict", "big=yes"});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  r = cluster.run({"run", "module01/fail_lab", "--no-predict"});
  SHOW(r);
  REQUIRE(r.exit_code == 1);

  const fs::path file = laptop.tmp.path / "laptop.json";
  json summary = laptop.run_json({"journal", "export", file.string(), "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(summary["rows"]["runs"] == 1);
  CHECK(summary["rows"]["predictions"] == 3);
  CHECK(summary["schema_version"].get<int>() >= 3);
  json doc = json::parse(e2e::read_file(file));
  CHECK(doc["format"] == "workbook-journal");
  CHECK(doc["tables"]["runs"][0]["lab"] == "module01/pass_lab");

  json imported = cluster.run_json({"journal", "import", file.string(), "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(imported["tables"]["runs"]["added"] == 1);
  CHECK(imported["tables"]["predictions"]["added"] == 3);
  CHECK(imported["files"][0]["machine"] == doc["machine"]);
  CHECK(count(cluster, "runs") == "2");
  CHECK(journal_value(cluster.journal(), "SELECT verdict FROM runs WHERE lab='module01/pass_lab'") == "pass");
  CHECK(journal_value(cluster.journal(),
                      "SELECT COUNT(*) FROM predictions p JOIN runs r ON r.id = p.run_id WHERE r.lab='module01/pass_lab'") ==
        "3");

  // Again: nothing added, every row counted as already here.
  imported = cluster.run_json({"journal", "import", file.string(), "--json"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(imported["added"] == 0);
  CHECK(imported["tables"]["runs"]["skipped"] == 1);
  CHECK(count(cluster, "runs") == "2");

  // The merged journal exported to stdout, imported back: the laptop now has both runs.
  r = cluster.run({"journal", "export"});
  CHECK(r.exit_code == 0);
  const fs::path merged = laptop.tmp.path / "merged.json";
  e2e::write_file(merged, r.out);
  r = laptop.run({"journal", "import", merged.string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 already here") != std::string::npos);
  CHECK(count(laptop, "runs") == "2");
  CHECK(count(laptop, "predictions") == count(cluster, "predictions"));
}

TEST_CASE("e2e: journal import refuses a corrupt or newer file with exit 2 and changes nothing", "[e2e][journal]") {
  Course laptop, cluster;
  REQUIRE(laptop.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  const fs::path file = laptop.tmp.path / "laptop.json";
  REQUIRE(laptop.run({"journal", "export", file.string()}).exit_code == 0);
  json doc = json::parse(e2e::read_file(file));

  const fs::path cut = laptop.tmp.path / "cut.json";
  const std::string text = e2e::read_file(file);
  e2e::write_file(cut, text.substr(0, text.size() / 2));
  CommandResult r = cluster.run({"journal", "import", file.string(), cut.string()});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cut.json is not valid JSON") != std::string::npos);
  CHECK(count(cluster, "runs") == "0");

  doc["schema_version"] = 999;
  const fs::path newer = laptop.tmp.path / "newer.json";
  e2e::write_file(newer, doc.dump());
  r = cluster.run({"journal", "import", newer.string()});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("newer workbook") != std::string::npos);
  CHECK(r.err.find("update workbook") != std::string::npos);
  CHECK(count(cluster, "runs") == "0");

  r = cluster.run({"journal", "import"});
  CHECK(r.exit_code == 2);
  r = cluster.run({"journal", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Example:") != std::string::npos);
}
