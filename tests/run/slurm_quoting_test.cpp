// The batch script against hostile paths (slurm/slurm_config): every path and value the
// runner writes into it is quoted for the reader that reads it (bash for the command
// line, sbatch itself for the #SBATCH lines), or refused when it cannot be (a line break
// in an #SBATCH line). Checked by running the script with bash: no Slurm needed
// (tests/e2e/slurm_e2e_test.cpp submits one from such a workspace to a real Slurm).
#include <catch2/catch.hpp>

#include <fstream>

#include "exec/process.hpp"
#include "run/slurm_submit.hpp"
#include "slurm/slurm_config.hpp"
#include "util/error.hpp"

#include "../support/temp_dir.hpp"

using namespace workbook;
namespace fs = std::filesystem;

namespace {

// A folder name holding what a shell or sbatch would read as something else.
const std::string kHostile = "my ws $HOME `touch tick` $(touch dollar) 'single' \"double\" #hash %j back\\slash ;&|*~";

// The words of an #SBATCH line after "#SBATCH ", read as sbatch reads them: '...' and
// "..." group, a backslash takes the next character as it is, an unquoted '#' ends the line.
std::vector<std::string> sbatch_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, escaped = false;
  char quote = 0;
  for (char c : line) {
    if (escaped) {
      word += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = in_word = true;
    } else if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '#') {
      break;
    } else if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// The value of `#SBATCH --NAME=...` in `script`, as sbatch reads it ("" if absent).
std::string sbatch_value(const std::string& script, const std::string& name) {
  const std::string key = "#SBATCH --" + name + "=";
  const std::size_t at = script.find(key);
  if (at == std::string::npos) return "";
  const std::size_t end = script.find('\n', at);
  const std::vector<std::string> words = sbatch_words(script.substr(at + 8, end - at - 8));
  REQUIRE(words.size() == 1);
  return words[0].substr(name.size() + 3);
}

BatchScript script_in(const fs::path& ws, const fs::path& cwd, const fs::path& printer) {
  BatchScript b;
  b.job_name = "wb-pass_lab-7";
  b.run_label = "run #7 of module01/pass_lab (starter)";
  b.output = ws / ".workbook/slurm/run-7/job.out";
  b.workdir = cwd;
  RunRequest req;
  req.lab = "module01/pass_lab";
  req.variant = LabVariant::file;
  req.file = ws / "my lab\nwith a line break $(touch file).cpp";  // an argument may hold one
  req.params = {"N=1"};
  b.command = compute_node_command(printer, ws / "content `touch content`", ws, req, "7");
  return b;
}

}  // namespace

TEST_CASE("slurm script: hostile paths reach the runner's argv intact when bash runs the script", "[slurm]") {
  wbtest::TempDir tmp;
  const fs::path ws = tmp.path / kHostile;
  const fs::path cwd = tmp.path / ("cwd " + kHostile);
  fs::create_directories(ws);
  fs::create_directories(cwd);
  const fs::path printer = tmp.path / "print args";  // stands for the runner: one line per argument
  std::ofstream(printer) << "#!/bin/bash\nprintf '<%s>\\n' \"$@\"\n";
  fs::permissions(printer, fs::perms::owner_all);
  const BatchScript b = script_in(ws, cwd, printer);
  const fs::path job = tmp.path / "job.sh";
  std::ofstream(job) << render_batch_script(b);

  ProcessOptions opt;
  opt.argv = {"bash", job.string()};
  opt.cwd = cwd;
  opt.timeout_s = 20;
  const ProcessResult r = run_process(opt);
  INFO(r.err);
  REQUIRE(r.exited_ok());
  std::string expected;
  for (std::size_t i = 1; i < b.command.size(); ++i) expected += "<" + b.command[i] + ">\n";
  CHECK(r.out == expected);
  for (const char* file : {"tick", "dollar", "file", "content"}) {  // nothing ran that the paths spell
    CHECK_FALSE(fs::exists(cwd / file));
    CHECK_FALSE(fs::exists(tmp.path / file));
  }
}

TEST_CASE("slurm script: sbatch reads each #SBATCH path back as it was, as one word", "[slurm]") {
  const fs::path ws = fs::path("/home/me") / kHostile;
  const fs::path cwd = fs::path("/home/me/cwd #1 \"x\" 'y' $z");
  const std::string script = render_batch_script(script_in(ws, cwd, "/opt/wb/workbook"));
  CHECK(sbatch_value(script, "chdir") == cwd.string());
  CHECK(sbatch_value(script, "job-name") == "wb-pass_lab-7");
  // --output is a file-name pattern: with a backslash in it, '%' is literal and a
  // backslash escapes; without one, "%%" is a '%'.
  CHECK(sbatch_value(script, "output") == "/home/me/my ws $HOME `touch tick` $(touch dollar) 'single' \"double\" #hash "
                                          "%j back\\\\slash ;&|*~/.workbook/slurm/run-7/job.out");
  const std::string plain = render_batch_script(script_in("/home/me/100% done", cwd, "/opt/wb/workbook"));
  CHECK(sbatch_value(plain, "output") == "/home/me/100%% done/.workbook/slurm/run-7/job.out");
}

TEST_CASE("slurm script: a line break in an #SBATCH path is refused, naming it", "[slurm]") {
  const fs::path ws = "/home/me/ws\n#SBATCH --wrap=touch /tmp/pwned";
  try {
    render_batch_script(script_in(ws, "/home/me", "/opt/wb/workbook"));
    FAIL("a workspace path with a line break was written into the script");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("the workspace") != std::string::npos);
    CHECK(std::string(e.what()).find("line break") != std::string::npos);
    CHECK(e.hint().find("--workspace") != std::string::npos);
  }
  try {
    render_batch_script(script_in("/home/me/ws", "/home/me/a\rb", "/opt/wb/workbook"));
    FAIL("a current folder with a carriage return was written into the script");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("the current folder") != std::string::npos);
  }
  // The check a submission makes before it opens the run refuses the same.
  CHECK_THROWS_AS(check_batch_script(script_in(ws, "/home/me", "/opt/wb/workbook")), UsageError);
  CHECK_THROWS_AS(check_batch_script(script_in("/home/me/ws", "/home/me/a\rb", "/opt/wb/workbook")), UsageError);
  CHECK_NOTHROW(check_batch_script(script_in("/home/me/100% done", "/home/me", "/opt/wb/workbook")));
}

TEST_CASE("slurm settings: a slurm.yaml with binary bytes is refused, naming the file and line", "[slurm]") {
  wbtest::TempDir tmp;
  Workspace ws(tmp.path);
  const fs::path file = tmp.path / "slurm.yaml";
  auto refused = [&](const std::string& text, const std::string& what) {
    std::ofstream(file, std::ios::binary) << text;
    try {
      resolve_slurm_settings(ws, {}, false);
      FAIL("accepted: " << what);
    } catch (const UsageError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(file.string() + ":2:") != std::string::npos);
      CHECK(std::string(e.what()).find(what) != std::string::npos);
      CHECK(e.hint().find("text editor") != std::string::npos);
    }
  };
  refused(std::string("partition: gpu\nsetup: [\"echo hi") + '\0' + "\"]\n", "NUL");
  refused("partition: gpu\nsetup: [\"module load cuda \xfe\"]\n", "not UTF-8");
  refused("partition: gpu\naccount: caf\xc3\n", "not UTF-8");
  std::ofstream(file, std::ios::binary) << "partition: gpu\nsetup: [\"echo caf\xc3\xa9\"]\n";  // UTF-8 text is fine
  CHECK(resolve_slurm_settings(ws, {}, false).setup == std::vector<std::string>{"echo caf\xc3\xa9"});
}
