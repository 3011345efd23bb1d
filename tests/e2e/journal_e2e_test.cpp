// End-to-end tests of `workbook journal export` and `workbook journal import` through the
// real binary: two workspaces ("two machines") run fixture labs, one exports, the other
// imports; the import is idempotent, a corrupt file changes nothing, exit codes hold.
#include "e2e_support.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdlib>

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_count;
using e2e::journal_value;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("e2e: a journal exported from one workspace merges into another, once", "[e2e][journal]") {
  FixtureCourse laptop, cluster;
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
  CHECK(journal_count(cluster, "runs") == "2");
  CHECK(journal_value(cluster.journal(), "SELECT verdict FROM runs WHERE lab='module01/pass_lab'") == "pass");
  CHECK(journal_value(cluster.journal(),
                      "SELECT COUNT(*) FROM predictions p JOIN runs r ON r.id = p.run_id WHERE r.lab='module01/pass_lab'") ==
        "3");

  // Again: nothing added, every row counted as already here.
  imported = cluster.run_json({"journal", "import", file.string(), "--json"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(imported["added"] == 0);
  CHECK(imported["tables"]["runs"]["skipped"] == 1);
  CHECK(journal_count(cluster, "runs") == "2");

  // The merged journal exported to stdout, imported back: the laptop now has both runs.
  r = cluster.run({"journal", "export"});
  CHECK(r.exit_code == 0);
  const fs::path merged = laptop.tmp.path / "merged.json";
  e2e::write_file(merged, r.out);
  r = laptop.run({"journal", "import", merged.string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 already here") != std::string::npos);
  CHECK(journal_count(laptop, "runs") == "2");
  CHECK(journal_count(laptop, "predictions") == journal_count(cluster, "predictions"));
}

TEST_CASE("e2e: journal import refuses a corrupt or newer file with exit 2 and changes nothing", "[e2e][journal]") {
  FixtureCourse laptop, cluster;
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
  CHECK(journal_count(cluster, "runs") == "0");

  doc["schema_version"] = 999;
  const fs::path newer = laptop.tmp.path / "newer.json";
  e2e::write_file(newer, doc.dump());
  r = cluster.run({"journal", "import", newer.string()});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("newer workbook") != std::string::npos);
  CHECK(r.err.find("update workbook") != std::string::npos);
  CHECK(journal_count(cluster, "runs") == "0");

  r = cluster.run({"journal", "import"});
  CHECK(r.exit_code == 2);
  r = cluster.run({"journal", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Example:") != std::string::npos);
}

// --- a hostile user (issue 26) ------------------------------------------------------------

TEST_CASE("e2e: an explanation with bytes that are not UTF-8 is exported and reported as valid text",
          "[e2e][journal][hostile]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict", "--explain", "one add per term \xFF\xFE ok"});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  const fs::path file = c.tmp.path / "out.json";
  r = c.run({"journal", "export", file.string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  const json doc = json::parse(e2e::read_file(file));
  CHECK(doc["tables"]["explanations"][0]["text"] == "one add per term \xEF\xBF\xBD\xEF\xBF\xBD ok");
  r = c.run({"report", "--out", (c.tmp.path / "report").string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  const std::string md = e2e::read_file(c.tmp.path / "report" / "report.md");
  CHECK(md.find("one add per term \xEF\xBF\xBD\xEF\xBF\xBD ok") != std::string::npos);
  CHECK(md.find('\xFF') == std::string::npos);
}

TEST_CASE("e2e: journal export refuses the journal itself, devices, pipes and links, - is stdout",
          "[e2e][journal][hostile]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  const fs::path db = c.journal();
  const fs::path fifo = c.tmp.path / "pipe.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const fs::path target = c.tmp.path / "real.json";
  e2e::write_file(target, "keep me\n");
  const fs::path link = c.tmp.path / "link.json";
  fs::create_symlink(target, link);
  std::vector<std::string> targets{db.string(), db.string() + "-wal", db.string() + "-shm", fifo.string(), link.string(),
                                   c.tmp.path.string()};
  // A device: a node of its own (as /dev/full is: 1, 7), where this user may make one, so
  // that a regression replaces that node and never the system's.
  const fs::path device = c.tmp.path / "full";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0) targets.push_back(device.string());
  for (const std::string& bad : targets) {
    CommandResult r = c.run({"journal", "export", bad}, {}, 30);
    SHOW(r);
    INFO(bad);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("error: ") != std::string::npos);
  }
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_symlink(link));
  CHECK(e2e::read_file(target) == "keep me\n");
  if (fs::exists(device)) CHECK(fs::is_character_file(device));
  CommandResult r = c.run({"history", "module01/pass_lab"});  // the journal still works
  SHOW(r);
  CHECK(r.exit_code == 0);
  r = c.run({"journal", "export", "-"});
  CHECK(r.exit_code == 0);
  CHECK(json::parse(r.out)["format"] == "workbook-journal");
  r = c.run({"journal", "export", target.string()});  // a regular file is replaced
  CHECK(r.exit_code == 0);
  CHECK(json::parse(e2e::read_file(target))["format"] == "workbook-journal");
}

TEST_CASE("e2e: journal import refuses /dev/zero, a FIFO and a 200,000-deep array with exit 2",
          "[e2e][journal][hostile][limits]") {
  FixtureCourse c;
  const fs::path deep = c.tmp.path / "deep.json";
  e2e::write_file(deep, std::string(200000, '[') + std::string(200000, ']'));
  const fs::path fifo = c.tmp.path / "pipe.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& bad : {std::string("/dev/zero"), fifo.string(), deep.string()}) {
    CommandResult r = c.run({"journal", "import", bad}, {}, 30);
    SHOW(r);
    INFO(bad);
    CHECK_FALSE(r.timed_out);
    CHECK(r.signal == 0);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("nothing was imported") != std::string::npos);
  }
}

TEST_CASE("e2e: a damaged journal says so and exits 74", "[e2e][journal][hostile][io]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  e2e::write_file(c.journal(), std::string(16384, 'x'));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"history"},
                                             std::vector<std::string>{"journal", "export", "-"},
                                             std::vector<std::string>{"run", "module01/pass_lab", "--no-predict"}}) {
    CommandResult r = c.run(args);
    SHOW(r);
    CHECK(r.exit_code == 74);
    CHECK(r.err.find("is damaged") != std::string::npos);
    CHECK(r.err.find(c.journal().string()) != std::string::npos);
    CHECK(r.err.find("journal import") != std::string::npos);
    CHECK(r.err.find("another workbook command") == std::string::npos);
  }
}

TEST_CASE("e2e: a read-only workspace says so and exits 74", "[e2e][journal][hostile][io]") {
  if (::geteuid() == 0) {
    WARN("running as root: permissions do not stop root's writes, so a read-only workspace cannot be made here");
    return;
  }
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  const fs::path dot = c.journal().parent_path();
  fs::permissions(c.journal(), fs::perms::owner_read | fs::perms::group_read);
  fs::permissions(dot, fs::perms::owner_read | fs::perms::owner_exec);
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"});
  fs::permissions(dot, fs::perms::owner_all);
  fs::permissions(c.journal(), fs::perms::owner_read | fs::perms::owner_write);
  SHOW(r);
  CHECK(r.exit_code == 74);
  CHECK(r.err.find("read-only") != std::string::npos);
  CHECK(r.err.find("another workbook command") == std::string::npos);
}

TEST_CASE("e2e: a workspace whose folder name is longer than 255 bytes is a usage error, not exit 70",
          "[e2e][journal][hostile]") {
  FixtureCourse c;
  const std::string longer = (c.tmp.path / std::string(300, 'w')).string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"journal", "export", "-"},
                                             std::vector<std::string>{"progress"}}) {
    CommandResult r = c.run(args, {{"WORKBOOK_WORKSPACE", longer}});
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("has a folder name of 300 bytes; a file system takes at most 255") != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
  }
}

namespace {

// chattr +i (or -i) on each path; false when the file system or the account cannot.
bool set_immutable(const std::vector<fs::path>& paths, bool on) {
  for (const auto& p : paths) {
    const std::string cmd = std::string("chattr ") + (on ? "+i" : "-i") + " '" + p.string() + "' 2>/dev/null";
    if (std::system(cmd.c_str()) != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("e2e: in a read-only workspace the commands that only read still answer, and a run says read-only, 74",
          "[e2e][journal][hostile][io]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  const std::vector<fs::path> frozen{c.journal(), c.journal().parent_path()};  // immutable: even root cannot write
  if (!set_immutable(frozen, true)) {
    set_immutable(frozen, false);
    WARN("chattr +i is not available here: a read-only workspace cannot be made");
    return;
  }
  std::vector<CommandResult> reads;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"progress"}, std::vector<std::string>{"next"}, std::vector<std::string>{"history"},
        std::vector<std::string>{"journal", "export", "-"}})
    reads.push_back(c.run(args));
  CommandResult run = c.run({"run", "module01/pass_lab", "--no-predict"});
  set_immutable(frozen, false);
  for (const auto& r : reads) {
    SHOW(r);
    CHECK(r.exit_code == 0);
  }
  CHECK(reads[2].out.find("module01/pass_lab") != std::string::npos);
  CHECK(reads[3].out.find("\"schema_version\"") != std::string::npos);
  SHOW(run);
  CHECK(run.exit_code == 74);
  CHECK(run.err.find("read-only") != std::string::npos);
}
