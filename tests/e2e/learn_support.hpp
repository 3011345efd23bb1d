// Helpers for the learning-engine end-to-end tests: the real binary with a given stdin
// (the line protocol of docs/learning.md), on a copy of tests/fixtures/learn_course or
// on the repository's own content (the module14 bank), with a fresh workspace.
#pragma once

#include "e2e_support.hpp"
#include "../support/test_paths.hpp"

namespace learn_e2e {

namespace fs = std::filesystem;
using e2e::CommandResult;

// Runs WORKBOOK_BINARY with `input` as stdin (a file, so never a terminal).
inline CommandResult run_with_input(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                                    const std::string& input, const fs::path& scratch, double limit_s = 60) {
  static std::atomic<int> n{0};
  int id = n++;
  fs::path in = scratch / ("stdin-" + std::to_string(id));
  fs::path out = scratch / ("stdout-" + std::to_string(id));
  fs::path err = scratch / ("stderr-" + std::to_string(id));
  e2e::write_file(in, input);
  std::vector<std::string> argv{WORKBOOK_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envv = e2e::make_env(env);
  auto argv_c = e2e::c_strings(argv);
  auto env_c = e2e::c_strings(envv);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  CommandResult r;
  e2e::wait_child(pid, limit_s, r);
  r.out = e2e::read_file(out);
  r.err = e2e::read_file(err);
  return r;
}

// A content root and a fresh workspace. `fixture` empty: the repository itself (module14).
struct LearnCourse {
  e2e::TempDir tmp;
  fs::path content, workspace;
  std::string now = "2026-09-01T12:00:00Z";

  explicit LearnCourse(const std::string& fixture = "learn_course") {
    const fs::path source = WORKBOOK_SOURCE_DIR;
    workspace = tmp.path / "workspace";
    fs::create_directories(workspace);
    if (fixture.empty()) {
      content = source;
      return;
    }
    content = tmp.path / "content";
    fs::copy(fs::path(WORKBOOK_FIXTURE_DIR) / fixture, content, fs::copy_options::recursive);
    fs::create_directories(content / "labs");
    fs::copy(source / "labs/common", content / "labs/common", fs::copy_options::recursive);
    fs::create_directories(content / "data");
    fs::copy_file(source / "data/gpus.yaml", content / "data/gpus.yaml");
  }

  std::map<std::string, std::string> env() const {
    return {{"WORKBOOK_CONTENT", content.string()},
            {"WORKBOOK_WORKSPACE", workspace.string()},
            {"WORKBOOK_NOW", now},
            {"NO_COLOR", "1"}};
  }

  CommandResult run(const std::vector<std::string>& args, const std::string& input = "") const {
    return run_with_input(args, env(), input, tmp.path);
  }

  nlohmann::json run_json(const std::vector<std::string>& args, const std::string& input,
                          CommandResult* result = nullptr) const {
    CommandResult r = run(args, input);
    if (result) *result = r;
    INFO("exit " << r.exit_code << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
  }

  fs::path journal() const { return workspace / ".workbook" / "journal.db"; }
};

}  // namespace learn_e2e
