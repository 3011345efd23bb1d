// Slurm settings and the batch script (see slurm_config.hpp).
#include "slurm/slurm_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <string_view>

#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/utf8.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// Checks a value that becomes one "#SBATCH --name=value" line.
void check_value(const std::string& name, const std::string& value, const std::regex& form, const char* example) {
  if (value.empty() || std::regex_match(value, form)) return;
  throw UsageError(fmt::format("--{} '{}' is not a value sbatch takes", name, value),
                   fmt::format("give it as, e.g., --{} {} (or fix {} in slurm.yaml)", name, example, name));
}

void check_settings(const SlurmSettings& s) {
  static const std::regex name(R"([A-Za-z0-9_.,+-]+)");
  static const std::regex gres(R"([A-Za-z0-9_.:,+-]+)");
  static const std::regex time(R"((\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|UNLIMITED|INFINITE))");
  check_value("partition", s.partition, name, "gpu");
  check_value("gres", s.gres, gres, "gpu:1 or gpu:1g.10gb:1");
  check_value("time", s.time, time, "30 (minutes) or 1:30:00");
  check_value("account", s.account, name, "my-course");
  for (const auto& line : s.setup) {
    if (line.find('\n') != std::string::npos) throw UsageError("slurm.yaml: each setup entry must be one line");
  }
  for (const auto& opt : s.sbatch) {
    if (opt.rfind("-", 0) != 0 || opt.find('\n') != std::string::npos) {
      throw UsageError(fmt::format("slurm.yaml: sbatch entry '{}' is not one sbatch option", opt),
                       "write each as it would follow #SBATCH, e.g. \"--mem=16G\"");
    }
  }
  if (!(s.poll_s > 0 && s.poll_s <= 600)) throw UsageError("slurm.yaml: poll_s must be between 0 and 600 seconds");
}

// slurm.yaml must be text: a NUL or a byte that is not UTF-8 (a binary file saved under
// that name, an editor's other encoding) is named with its line, before YAML reads it.
void check_config_text(const fs::path& file, const std::string& text) {
  const std::string_view all(text);
  long line = 1;
  for (std::size_t start = 0; start < all.size(); ++line) {
    const std::size_t end = std::min(all.find('\n', start), all.size());
    const std::string_view l = all.substr(start, end - start);
    const char* what = l.find('\0') != std::string_view::npos ? "a NUL byte"
                       : !is_valid_utf8(l)                  ? "a byte that is not UTF-8 text"
                                                            : nullptr;
    if (what) {
      throw UsageError(fmt::format("{}:{}: holds {}: slurm.yaml must be a text file", file.string(), line, what),
                       "rewrite it in a text editor (UTF-8), or delete it to use the defaults");
    }
    start = end + 1;
  }
}

void read_config_file(const fs::path& file, SlurmSettings& s) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return;
  if (const auto text = read_file_text(file)) check_config_text(file, *text);
  Problems problems;
  YAML::Node root = load_yaml_file(file, problems);
  if (present(root)) {
    MapReader r(root, file.string(), "", problems);
    auto text = [&](const char* key, std::string& into) {
      if (r.has(key)) {  // a number ("time: 30") is read as its text
        if (auto v = r.str(key, false)) into = *v;
      }
    };
    text("partition", s.partition);
    text("gres", s.gres);
    text("time", s.time);
    text("account", s.account);
    if (r.has("setup")) s.setup = r.str_list("setup", false);
    if (r.has("sbatch")) s.sbatch = r.str_list("sbatch", false);
    if (auto v = r.number("poll_s", false)) s.poll_s = *v;
    r.finish();
  }
  problems.throw_if_any();
}

// `value` as one word of an #SBATCH line. sbatch reads those lines itself, not through a
// shell: "..." and '...' group, a backslash takes the next character as it is (inside
// quotes too), an unquoted '#' starts a comment, and a line ends the word whatever the
// quotes: a value with a line break is refused, naming `what` it is.
std::string sbatch_word(const std::string& value, const std::string& what) {
  if (value.find_first_of("\n\r") != std::string::npos) {
    throw UsageError(fmt::format("{} '{}' holds a line break, which Slurm cannot take in an #SBATCH line", what, value),
                     fmt::format("rename or move {} to a path without one (--workspace DIR chooses the workspace)", what));
  }
  static const std::regex bare(R"([A-Za-z0-9_./:=,+@%-]+)");
  if (std::regex_match(value, bare)) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A path as a Slurm file-name pattern (--output): '%' starts a pattern (%j: the job id)
// unless the pattern holds a backslash, which then escapes the next character instead.
std::string slurm_file_pattern(const std::string& path) {
  std::string out;
  const bool escaped = path.find('\\') != std::string::npos;
  for (char c : path) {
    if (escaped && c == '\\') out += '\\';
    if (!escaped && c == '%') out += '%';
    out += c;
  }
  return out;
}

}  // namespace

fs::path slurm_config_path(const Workspace& workspace) { return workspace.root() / "slurm.yaml"; }

fs::path slurm_job_dir(const Workspace& workspace, const std::string& name) { return workspace.state_dir() / "slurm" / name; }

SlurmSettings resolve_slurm_settings(const Workspace& workspace, const SlurmFlags& flags, bool cuda_lab) {
  SlurmSettings s;
  read_config_file(slurm_config_path(workspace), s);
  if (flags.partition) s.partition = *flags.partition;
  if (flags.gres) s.gres = *flags.gres;
  if (flags.time) s.time = *flags.time;
  if (flags.account) s.account = *flags.account;
  if (s.gres.empty() && cuda_lab) s.gres = "gpu:1";
  if (s.gres == "none") s.gres.clear();
  check_settings(s);
  return s;
}

std::string shell_quote(const std::string& s) {
  static const std::regex safe(R"([A-Za-z0-9_./:=,+@%-]+)");
  if (std::regex_match(s, safe)) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

struct SbatchWords {
  std::string job_name, output, workdir;
};

SbatchWords sbatch_words(const BatchScript& b) {
  return {sbatch_word(b.job_name, "the job name"), sbatch_word(slurm_file_pattern(b.output.string()), "the workspace"),
          sbatch_word(b.workdir.string(), "the current folder")};
}

}  // namespace

void check_batch_script(const BatchScript& script) { sbatch_words(script); }

std::string render_batch_script(const BatchScript& b) {
  const SlurmSettings& s = b.settings;
  const SbatchWords words = sbatch_words(b);
  // A login shell when there are setup lines: `module` is defined by the login profile.
  std::string out = s.setup.empty() ? "#!/bin/bash\n" : "#!/bin/bash -l\n";
  out += fmt::format("# workbook: {}, submitted with `{}`.\n", b.run_label, b.submitted_with);
  out += fmt::format("# On the compute node the same runner {} in the same\n", b.node_does);
  out += "# workspace's journal; the login node follows the job and prints the report.\n";
  out += fmt::format("#SBATCH --job-name={}\n#SBATCH --output={}\n#SBATCH --chdir={}\n", words.job_name, words.output,
                     words.workdir);
  if (!s.partition.empty()) out += fmt::format("#SBATCH --partition={}\n", s.partition);
  if (!s.gres.empty()) out += fmt::format("#SBATCH --gres={}\n", s.gres);
  if (!s.time.empty()) out += fmt::format("#SBATCH --time={}\n", s.time);
  if (!s.account.empty()) out += fmt::format("#SBATCH --account={}\n", s.account);
  for (const auto& opt : s.sbatch) out += fmt::format("#SBATCH {}\n", opt);
  out += "set -eu\n";
  for (const auto& line : s.setup) out += line + "\n";
  std::string cmd = "exec";
  for (const auto& a : b.command) cmd += " " + shell_quote(a);
  return out + cmd + "\n";
}

}  // namespace workbook
