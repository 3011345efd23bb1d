// End-to-end: every line the runner writes fits the terminal. Every command's `--help`
// (and its commands' own) at COLUMNS 60, 80 and 100, never over 80; and the real
// content's screens with an empty workspace: the list, the module and lab pages, progress,
// next, history and the ledger, the report. A line over the width fails, naming it.
#include "../support/lines.hpp"
#include "e2e_support.hpp"

using e2e::CommandResult;
using e2e::run_workbook;
using e2e::TempDir;
using wbtest::columns;
using wbtest::lines_of;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kWidths[] = {60, 80, 100};

struct RealContent {
  TempDir tmp;
  fs::path workspace = tmp.path / "workspace";
  RealContent() { fs::create_directories(workspace); }
  CommandResult run(const std::vector<std::string>& args, std::size_t width) const {
    return run_workbook(args,
                        {{"WORKBOOK_CONTENT", WORKBOOK_SOURCE_DIR},
                         {"WORKBOOK_WORKSPACE", workspace.string()},
                         {"WORKBOOK_CACHE_DIR", (tmp.path / "cache").string()},
                         {"NO_COLOR", "1"},
                         {"COLUMNS", std::to_string(width)},
                         {"WORKBOOK_NOW", "2026-12-04"}},
                        tmp.path);
  }
};

// `code`: a module's reading, whose code blocks are never wrapped (ui/markdown.hpp): a
// line indented four that is a line of the reading's source is left out.
void check_fits(const std::string& what, const std::string& text, std::size_t width, const std::string& code = "") {
  for (const auto& l : lines_of(text)) {
    if (!code.empty() && l.rfind("    ", 0) == 0 && code.find(l.substr(4)) != std::string::npos) continue;
    INFO(what << " at " << width << " columns: '" << l << "' (" << columns(l) << ")");
    CHECK(columns(l) <= width);
  }
}

// The names under a help text's "Subcommands:" heading.
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  bool in = false;
  for (const auto& l : lines_of(help)) {
    if (l == "Subcommands:") in = true;
    else if (in && l.rfind("  ", 0) == 0 && l.size() > 2 && l[2] != ' ') names.push_back(l.substr(2, l.find(' ', 2) - 2));
    else if (in && l.rfind("  ", 0) != 0) in = false;
  }
  return names;
}

}  // namespace

TEST_CASE("e2e: every command's --help fits 60, 80 and 100 columns, and at most 80", "[e2e][width]") {
  RealContent c;
  const CommandResult top = c.run({"--help"}, 100);
  REQUIRE(top.exit_code == 0);
  const std::vector<std::string> commands = subcommands(top.out);
  CHECK(commands.size() >= 18);
  for (std::size_t width : kWidths) {
    const std::size_t most = std::min<std::size_t>(width, 80);
    check_fits("workbook --help", c.run({"--help"}, width).out, most);
    for (const auto& cmd : commands) {
      const CommandResult r = c.run({cmd, "--help"}, width);
      CHECK(r.exit_code == 0);
      check_fits("workbook " + cmd + " --help", r.out, most);
      for (const auto& sub : subcommands(r.out))
        check_fits("workbook " + cmd + " " + sub + " --help", c.run({cmd, sub, "--help"}, width).out, most);
    }
  }
}

TEST_CASE("e2e: the real content's pages and reports fit 60, 80 and 100 columns", "[e2e][width]") {
  RealContent c;
  const CommandResult list = c.run({"list", "--json"}, 80);
  REQUIRE(list.exit_code == 0);
  std::vector<std::string> labs;
  for (const auto& m : nlohmann::json::parse(list.out))
    for (const auto& l : m["labs"]) labs.push_back(l["id"].get<std::string>());
  CHECK(labs.size() > 20);
  for (std::size_t width : kWidths) {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"list"}, {"progress"}, {"next"}, {"history"}, {"history", "--ledger"},
                                               {"hint", "module14/tiled_gemm"},
                                               {"report", "--out", (c.tmp.path / "report").string()}}) {
      const CommandResult r = c.run(args, width);
      std::string what = "workbook";
      for (const auto& a : args) what += " " + a;
      check_fits(what, r.out + r.err, width);
    }
    for (const char* module : {"14", "16", "20"}) {  // readings: prose, lists and tables
      const std::string readme = e2e::read_file(fs::path(WORKBOOK_SOURCE_DIR) / "modules" / ("module" + std::string(module)) / "README.md");
      check_fits(std::string("workbook show ") + module, c.run({"show", module, "--no-pager"}, width).out, width, readme);
    }
    // Every lab's page at 80, the learner's terminal; at 60 and 100, that the page follows
    // COLUMNS, three of them (each page a sanitized start that reads the manifests: 0.5 s).
    const std::vector<std::string> some = {labs.front(), "module14/tiled_gemm", labs.back()};
    for (const auto& lab : width == 80 ? labs : some)
      check_fits("workbook show " + lab, c.run({"show", lab, "--no-pager"}, width).out, width);
  }
}

TEST_CASE("e2e: the first screen fits 80 x 30: this week, next and behind first, the table behind --modules",
          "[e2e][width]") {
  RealContent c;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{}, {"progress"}}) {
    const CommandResult r = c.run(args, 80);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    INFO(r.out);
    CHECK(lines.size() <= 28);  // and the command line and the prompt: 30 rows
    CHECK(r.out.find("This week") != std::string::npos);
    CHECK(r.out.find("Next:") != std::string::npos);
    CHECK(r.out.find("Behind:") != std::string::npos);  // Dec 4 with nothing handed in
    CHECK(r.out.find("workbook handin a1 a2") != std::string::npos);
    CHECK(r.out.find("workbook progress --modules") != std::string::npos);
  }
  const CommandResult all = c.run({"progress", "--modules"}, 80);
  CHECK(all.out.find("Streams") != std::string::npos);  // module rows, titles whole
  CHECK(all.out.find("~") == std::string::npos);
}

TEST_CASE("e2e: a lab's own lines fold to the terminal's width, and stay whole in a log", "[e2e][width]") {
  e2e::FixtureCourse c;
  const std::vector<std::string> args{"run", "module01/pass_lab", "--solution", "--yes", "--no-predict"};
  // On a terminal of 60 columns the harness (labs/common/wb_host.hpp) folds each record; the
  // [start] record, which names the results file in the workspace, is the long one here.
  const CommandResult tty = e2e::run_workbook_on_pty(args, c.env(), 120, 60);
  INFO(tty.out);
  const std::vector<std::string> lines = lines_of(tty.out);
  auto start = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("[start]", 0) == 0; });
  REQUIRE(start != lines.end());
  REQUIRE(start + 1 != lines.end());
  CHECK(columns(*start) <= 60);
  CHECK(start[1].rfind("         ", 0) == 0);  // continued under the text after the tag
  // Each line fits, but a word longer than a line (the results file's path) stays whole.
  for (auto l = start; l != lines.end() && (l == start || l->rfind("         ", 0) == 0); ++l)
    CHECK((columns(*l) <= 60 || l->find(' ', 9) == std::string::npos));
  // In a file the same record is one line.
  const CommandResult log = c.run(args);
  const std::vector<std::string> logged = lines_of(log.out);
  auto one = std::find_if(logged.begin(), logged.end(), [](const std::string& l) { return l.rfind("[start]", 0) == 0; });
  REQUIRE(one != logged.end());
  CHECK(columns(*one) > 60);
  CHECK(one->find("results:") != std::string::npos);
}
