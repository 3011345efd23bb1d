// workbook: the command-line runner for the applied GPU programming workbook.
// main() builds the command line from the command table and is the one place where
// errors are turned into messages and exit codes.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "build/toolchain_config.hpp"
#include "cmd/registry.hpp"
#include "exec/process.hpp"
#include "ui/help.hpp"
#include "ui/wrap.hpp"
#include "util/closest_word.hpp"
#include "util/error.hpp"

namespace {

// "error: WHAT" and "hint: HINT" on stderr, wrapped to a terminal's width (continuation
// lines indented two spaces); not wrapped when stderr is a file or a pipe.
void print_error(const std::string& what, const std::string& hint) {
  const std::size_t width = workbook::stderr_width();
  fmt::print(stderr, "{}\n", workbook::wrap_text(what, width, "error: ", "  "));
  if (!hint.empty()) fmt::print(stderr, "{}\n", workbook::wrap_text(hint, width, "hint: ", "  "));
}

constexpr const char* kFooter = R"(Examples:
  workbook                                       your progress (as `workbook progress`)
  workbook next                                  the one next thing to do
  workbook history module14/tiled_gemm           past runs, figures, prediction calibration
  workbook list                                  the modules and labs
  workbook show module14/tiled_gemm              a lab: goal, steps, expected figures here
  workbook run module14/tiled_gemm               predict, build, run, grade, record
  workbook run module14/tiled_gemm --solution    run the reference solution
  workbook run module14/tiled_gemm --no-predict --json -p N=512
  workbook device --calibrate                    measure your GPU; ranges then use the figures
  workbook exercises 14 --variant                practise with fresh numbers
  workbook review                                what is due today, all modules
  workbook follow 14                             a worked example, step by step
  workbook drill 11                              timed oral-exam drills
  workbook dev check --arch sm_90                validate content, compile every lab

Exit codes: 0 pass, 1 a check failed, 2 usage or content error (or no GPU),
3 compile error, 4 crash, CUDA error or time-out, 5 a figure out of range,
74 the journal or workspace cannot be read or written (damaged, disk full, read-only),
130 interrupted (Ctrl-C).
Environment: WORKBOOK_CONTENT, WORKBOOK_WORKSPACE, WORKBOOK_NVCC, NO_COLOR.)";

// The first word of the command line that is neither an option nor the value of a global
// option: the command the learner meant.
std::optional<std::string> first_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--content" || arg == "--workspace") {
      ++i;
      continue;
    }
    if (!arg.empty() && arg[0] == '-') continue;
    return arg;
  }
  return std::nullopt;
}

// `workbook journal exprot`: the deepest command given has commands of its own and the
// word after it is none of them (or there is none). The message and its hint; nullopt
// when the error is another one.
std::optional<std::pair<std::string, std::string>> unknown_subcommand(CLI::App& app, int argc, char** argv) {
  CLI::App* parent = &app;
  while (!parent->get_subcommands().empty()) parent = parent->get_subcommands().front();
  const std::vector<CLI::App*> subs = parent->get_subcommands({});
  if (parent == &app || subs.empty()) return std::nullopt;
  std::vector<std::string> names;
  for (const CLI::App* sub : subs) names.push_back(sub->get_name());
  std::string path = parent->get_name();
  for (CLI::App* up = parent->get_parent(); up != nullptr && up != &app; up = up->get_parent()) path = up->get_name() + " " + path;
  std::string choices;
  for (const auto& n : names) choices += (choices.empty() ? "" : " or ") + n;
  // The first word after the parent's name that is not an option.
  int i = 1;
  while (i < argc && argv[i] != parent->get_name()) ++i;
  for (++i; i < argc && argv[i][0] == '-'; ++i) {
  }
  if (i >= argc) return std::pair{fmt::format("`workbook {}` needs a command: {}", path, choices),
                                  fmt::format("`workbook {} --help` says what each does", path)};
  const std::string word = argv[i];
  if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
  const auto close = workbook::closest_word(word, names);
  return std::pair{fmt::format("unknown command '{}' after `workbook {}` (it has {})", word, path, choices),
                   fmt::format("{}`workbook {} --help` says what each does", close ? fmt::format("did you mean '{}'? ", *close) : "", path)};
}

// Signals. SIGINT (Ctrl-C), SIGTERM and SIGHUP that arrive while a lab or a compiler runs
// are caught by run_process, forwarded to the child's process group, and the run is
// recorded as interrupted; at other times they end the runner as usual (everything given
// before is already in the journal). After a SIGTERM or SIGHUP was forwarded the runner
// ends itself by that same signal, once the command has recorded what it did.
void end_by_termination_signal() {
  const int sig = workbook::termination_signal();
  if (sig == 0) return;
  std::fflush(nullptr);
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
}

// A file-system failure that is the disk's or the folder's state (full, read-only, not
// permitted), not a bug: what happened and what to do; nullopt for any other failure.
std::optional<std::pair<std::string, std::string>> workspace_io_problem(const std::filesystem::filesystem_error& e) {
  const std::string path = e.path1().empty() ? "a file in the workspace" : e.path1().string();
  switch (e.code().value()) {
    case ENOSPC:
    case EDQUOT:
      return std::pair{fmt::format("the disk is full: cannot write {}", path),
                       "free some space (or move the workspace with --workspace DIR), then run the command again"};
    case EROFS:
    case EACCES:
    case EPERM:
      return std::pair{fmt::format("cannot write {}: {} (the workspace is read-only?)", path, e.code().message()),
                       "make the workspace folder writable, or choose another with --workspace DIR"};
    case EIO:
      return std::pair{fmt::format("cannot read or write {}: {}", path, e.code().message()),
                       "check the disk, then run the command again"};
    default: return std::nullopt;
  }
}

// A filesystem error that reached main: the workspace's disk (74), a name too long or a
// current folder that is gone (2, input problems), else an internal error (70).
int filesystem_error_exit(const std::filesystem::filesystem_error& e) {
  using namespace workbook;
  if (auto io = workspace_io_problem(e)) {
    print_error(io->first, io->second);
    return static_cast<int>(Exit::io_error);
  }
  if (e.code() == std::errc::filename_too_long) {  // a name the learner gave: an input problem
    print_error(fmt::format("a path is too long for the file system: {}", e.what()),
                "use shorter folder and file names (a name holds at most 255 bytes)");
    return static_cast<int>(Exit::usage);
  }
  std::error_code cwd_gone;
  if (std::filesystem::current_path(cwd_gone).empty() || cwd_gone) {  // a relative path met a current folder that was deleted or moved
    print_error(fmt::format("the current folder no longer exists (it was deleted or moved): {}", e.what()),
                "cd to a folder that exists and run the command again");
    return static_cast<int>(Exit::usage);
  }
  fmt::print(stderr, "internal error: {}\nPlease report this with the command you ran.\n", e.what());
  return static_cast<int>(Exit::internal);
}

int run_command_line(int argc, char** argv) {
  using namespace workbook;
  CLI::App app{"workbook: predict, run, measure and explain the labs of the applied GPU programming workbook"};
  use_wrapping_help(app);  // before the commands are added: each inherits it
  app.set_version_flag("--version", WORKBOOK_VERSION);
  app.footer(kFooter);
  app.require_subcommand(0, 1);  // none: the progress screen
  app.fallthrough();  // global options may follow the subcommand: workbook run X --workspace DIR
  GlobalOptions global;
  int exit_code = 0;
  CommandContext ctx{global, exit_code};
  // WORKBOOK_CONTENT and WORKBOOK_WORKSPACE are read by find_content_root and
  // Workspace::resolve (not CLI11's envname), so an error names the variable, not --content.
  app.add_option("--content", global.content,
                 "Content folder (modules/, labs/, ...); default: $WORKBOOK_CONTENT or found beside the binary");
  app.add_option("--workspace", global.workspace,
                 "Your workspace (lab copies, journal); default: $WORKBOOK_WORKSPACE or ~/workbook");
  app.add_flag("--no-color", global.no_color, "No colours (also when NO_COLOR is set)");
  app.add_option_function<std::string>("--ccbin", workbook::set_ccbin_flag,
                                       "Host compiler for nvcc (-ccbin); default: toolchain.yaml's ccbin, $WORKBOOK_CCBIN, "
                                       "or nvcc's own (gcc on PATH)");
  for (const auto& entry : command_table()) entry.setup(app, ctx);

  try {
    app.parse(argc, argv);
    if (app.get_subcommands().empty()) exit_code = run_progress_command(global, false);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0 && app.get_subcommands().empty()) {
      if (auto word = first_word(argc, argv); word && !is_command(*word)) {
        auto close = closest_command(*word);
        print_error(fmt::format("unknown command '{}'", *word),
                    fmt::format("{}`workbook --help` lists the commands", close ? fmt::format("did you mean '{}'? ", *close) : ""));
        return static_cast<int>(Exit::usage);
      }
    }
    if (e.get_exit_code() != 0) {
      if (auto nested = unknown_subcommand(app, argc, argv)) {
        print_error(nested->first, nested->second);
        return static_cast<int>(Exit::usage);
      }
    }
    if (e.get_exit_code() != 0) {  // wrapped like every error, not CLI11's one long line
      print_error(e.what(), "the command's --help lists its options");
      return static_cast<int>(Exit::usage);
    }
    return app.exit(e);  // --help, --version
  } catch (const ContentError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "error: the content does not validate ({} problem{}):\n", e.problems().size(),
               e.problems().size() == 1 ? "" : "s");
    for (const auto& p : e.problems()) fmt::print(stderr, "  {}\n", p);
    return static_cast<int>(Exit::usage);
  } catch (const Error& e) {
    std::fflush(stdout);
    print_error(e.what(), e.hint());
    return static_cast<int>(e.code());
  } catch (const std::filesystem::filesystem_error& e) {
    std::fflush(stdout);
    return filesystem_error_exit(e);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "internal error: {}\nPlease report this with the command you ran.\n", e.what());
    return static_cast<int>(Exit::internal);
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  int code = static_cast<int>(workbook::Exit::internal);
  try {
    code = run_command_line(argc, argv);
  } catch (...) {
    // Printing an error failed too (the terminal was closed): nothing more can be said.
  }
  end_by_termination_signal();
  return code;
}
