// The command table: every subcommand of `workbook` registers here, one file each under
// runner/src/cmd/. A command file only declares options and calls into the library.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "ui/output.hpp"
#include "ui/style.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

// Options every command understands.
struct GlobalOptions {
  std::optional<std::string> content;    // --content DIR
  std::optional<std::string> workspace;  // --workspace DIR
  bool no_color = false;                 // --no-color

  // The content, found on the first call (once the options are parsed) and kept: one
  // catalog per command, so each manifest is read at most once (content/catalog.hpp).
  const Catalog& catalog() const;
  Workspace open_workspace() const;
  Style style() const { return Style::for_stdout(no_color); }
  // How a command with --json prints (ui/output.hpp): the one place JSON turns colour off.
  Output output(bool json) const { return output_for(json, style()); }

 private:
  mutable std::shared_ptr<const Catalog> catalog_;
};

// The content, the workspace (created if missing) and its journal, opened together by the
// commands that record something; those that only read it pass JournalAccess::read, and
// then still answer in a read-only workspace.
struct OpenedCourse {
  explicit OpenedCourse(const GlobalOptions& global, JournalAccess access = JournalAccess::write);
  const Catalog& catalog;
  Workspace workspace;
  Journal journal;
};

// What a command's callback sees; it sets exit_code (errors are thrown, not exited).
struct CommandContext {
  GlobalOptions& global;
  int& exit_code;
};

using CommandSetup = void (*)(CLI::App& app, CommandContext& ctx);

struct CommandEntry {
  const char* name;
  CommandSetup setup;
};

// Every command, in the order `workbook --help` lists them.
const std::vector<CommandEntry>& command_table();

// Every command's --json, said one way: "Print <what>", after `also` when --json changes
// more than the output ("Read answers from stdin without prompts; print one JSON object").
CLI::Option* add_json_flag(CLI::App* cmd, bool& json, const std::string& what = "one JSON object",
                           const std::string& also = "");

// True when `word` names a command of the table.
bool is_command(const std::string& word);
// The command `word` was most likely meant to be ("lsit" -> "list"): the one within two
// edits (a swap of neighbours counts as one), or that `word` begins; nullopt when none is close.
std::optional<std::string> closest_command(const std::string& word);

// Each command's setup function (defined in runner/src/cmd/<name>.cpp).
void setup_list(CLI::App& app, CommandContext& ctx);
void setup_show(CLI::App& app, CommandContext& ctx);
void setup_run(CLI::App& app, CommandContext& ctx);
void setup_exercises(CLI::App& app, CommandContext& ctx);
void setup_review(CLI::App& app, CommandContext& ctx);
void setup_follow(CLI::App& app, CommandContext& ctx);
void setup_drill(CLI::App& app, CommandContext& ctx);
void setup_init(CLI::App& app, CommandContext& ctx);
void setup_reset(CLI::App& app, CommandContext& ctx);
void setup_dev(CLI::App& app, CommandContext& ctx);
void setup_device(CLI::App& app, CommandContext& ctx);
void setup_report(CLI::App& app, CommandContext& ctx);
void setup_progress(CLI::App& app, CommandContext& ctx);
void setup_next(CLI::App& app, CommandContext& ctx);
void setup_history(CLI::App& app, CommandContext& ctx);
void setup_journal(CLI::App& app, CommandContext& ctx);
void setup_watch(CLI::App& app, CommandContext& ctx);
void setup_hint(CLI::App& app, CommandContext& ctx);

// `workbook progress` (cmd/progress.cpp), also what a bare `workbook` shows; `modules`:
// with every module's row (`--modules`).
int run_progress_command(const GlobalOptions& global, bool json, bool modules = false);

}  // namespace workbook
