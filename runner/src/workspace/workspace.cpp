// Workspace resolution and lab copies (see workspace.hpp).
#include "workspace/workspace.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <climits>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "util/error.hpp"
#include "util/file_text.hpp"
#include "workspace/home.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// A workspace the file system cannot name is a usage error, said before any file is
// touched (each call would fail with ENAMETOOLONG, which nothing else expects).
fs::path named_workspace(const fs::path& given, const char* from) {
  const fs::path dir = fs::absolute(given).lexically_normal();
  for (const auto& part : dir) {
    if (part.native().size() > NAME_MAX) {
      throw UsageError(fmt::format("the workspace {} ({}) has a folder name of {} bytes; a file system takes at most {}",
                                   dir.string().substr(0, 80) + "...", from, part.native().size(), NAME_MAX),
                       "choose a shorter folder name with --workspace DIR or WORKBOOK_WORKSPACE");
    }
  }
  if (dir.native().size() + 64 > PATH_MAX) {
    throw UsageError(fmt::format("the workspace path ({}) is {} bytes long; the files in it would pass the system's "
                                 "limit of {}", from, dir.native().size(), PATH_MAX),
                     "choose a shorter path with --workspace DIR or WORKBOOK_WORKSPACE");
  }
  return dir;
}

}  // namespace

Workspace Workspace::resolve(const std::optional<fs::path>& flag) {
  if (flag) return Workspace(named_workspace(*flag, "--workspace"));
  if (const char* env = std::getenv("WORKBOOK_WORKSPACE"); env && *env) {
    return Workspace(named_workspace(env, "WORKBOOK_WORKSPACE"));
  }
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  for (fs::path dir = cwd; !ec && !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_directory(dir / ".workbook", ec)) return Workspace(dir);
    if (dir == dir.root_path()) break;
  }
  return Workspace(home_folder() / "workbook");
}

fs::path home_folder() {
  const char* home = std::getenv("HOME");
  if (home && *home) {
    if (fs::path(home).is_absolute()) return fs::path(home).lexically_normal();
    throw UsageError(fmt::format("no workspace: HOME is '{}', not an absolute path, so ~/workbook would land "
                                 "wherever the command is started",
                                 home),
                     "set HOME to your home folder (export HOME=/home/you), or pass --workspace DIR or set "
                     "WORKBOOK_WORKSPACE");
  }
  // HOME unset or empty (a cron job, `env -i`): the account's home folder, as a login shell would set it.
  std::vector<char> buffer(16384);
  struct passwd entry {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_dir &&
      fs::path(found->pw_dir).is_absolute() && fs::path(found->pw_dir) != "/") {
    return fs::path(found->pw_dir).lexically_normal();
  }
  throw UsageError("no workspace: HOME is not set, and this account has no home folder to use",
                   "pass --workspace DIR or set WORKBOOK_WORKSPACE (or HOME)");
}

fs::path Workspace::lab_copy(const LabSpec& lab) const {
  return root_ / "labs" / lab.id.substr(0, lab.id.find('/')) / lab.source;
}

void Workspace::ensure() const {
  std::error_code ec;
  fs::create_directories(build_cache(), ec);
  if (!ec) fs::create_directories(runs_dir(), ec);
  if (ec) {
    throw UsageError(fmt::format("cannot create the workspace at {}: {}", root_.string(), ec.message()),
                     "choose another folder with --workspace DIR or WORKBOOK_WORKSPACE");
  }
}

bool Workspace::ensure_lab_copy(const Catalog& catalog, const LabSpec& lab) const {
  fs::path dest = lab_copy(lab);
  if (fs::exists(dest)) return false;
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  // copy_file with skip_existing never overwrites, even if another run made it meanwhile.
  if (!ec) fs::copy_file(catalog.starter_path(lab), dest, fs::copy_options::skip_existing, ec);
  if (ec) {
    throw UsageError(fmt::format("cannot copy the starter of {} to {}: {}", lab.id, dest.string(), ec.message()));
  }
  return true;
}

void Workspace::ensure_common(const Catalog& catalog) const {
  const fs::path dest_dir = root_ / "labs" / "common";
  std::error_code ec;
  if (!fs::is_directory(catalog.common_dir(), ec)) return;
  fs::create_directories(dest_dir, ec);
  for (fs::directory_iterator it(catalog.common_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code kind;
    if (!it->is_regular_file(kind)) continue;  // probes/ and the like are the runner's own
    const fs::path dest = dest_dir / it->path().filename();
    const auto text = read_file_text(it->path());
    if (!text || read_file_text(dest) == text) continue;
    // Written beside, then renamed (a reader never sees half a header), by the runner's
    // one temp-and-rename writer: its temporary is this process's own, and a failed
    // write (a full disk) removes it rather than leaving it behind.
    try {
      write_file_text(dest, *text);
    } catch (const Error& e) {
      throw Error(Exit::io_error, fmt::format("cannot copy the harness headers to {}: {}", dest_dir.string(), e.what()),
                  "free some space and check that the workspace is writable, or choose another with --workspace DIR");
    }
  }
  if (ec) {
    throw UsageError(fmt::format("cannot copy the harness headers to {}: {}", dest_dir.string(), ec.message()),
                     "check that the workspace is writable, or choose another with --workspace DIR");
  }
}

namespace {

// <copy>.bak is backup 0, <copy>.bak.N backup N.
fs::path backup_name(const fs::path& copy, unsigned long n) {
  return fs::path(copy.string() + (n == 0 ? std::string(".bak") : ".bak." + std::to_string(n)));
}

// The backups beside `copy`, by number.
std::vector<std::pair<unsigned long, fs::path>> backups_of(const fs::path& copy) {
  std::vector<std::pair<unsigned long, fs::path>> out;
  const std::string base = copy.filename().string() + ".bak";
  std::error_code ec;
  for (fs::directory_iterator it(copy.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name == base) {
      out.emplace_back(0, it->path());
      continue;
    }
    if (name.size() <= base.size() + 1 || name.compare(0, base.size() + 1, base + ".") != 0) continue;
    const std::string number = name.substr(base.size() + 1);
    if (number.size() > 9 || !std::all_of(number.begin(), number.end(), [](unsigned char c) { return std::isdigit(c); })) {
      continue;
    }
    out.emplace_back(std::stoul(number), it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

fs::path Workspace::next_backup(const LabSpec& lab) const {
  const fs::path copy = lab_copy(lab);
  const auto existing = backups_of(copy);
  return backup_name(copy, existing.empty() ? 0 : existing.back().first + 1);
}

RestoreResult Workspace::restore_starter(const Catalog& catalog, const LabSpec& lab) const {
  const fs::path dest = lab_copy(lab);
  const fs::path starter = catalog.starter_path(lab);
  const auto starter_text = read_file_text(starter);
  if (!starter_text) {
    throw UsageError(fmt::format("cannot read the starter of {} ({}); nothing was changed", lab.id, starter.string()),
                     "check the content folder (--content DIR or WORKBOOK_CONTENT)");
  }
  RestoreResult result;
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (ec) throw UsageError(fmt::format("cannot restore {}: {}", dest.string(), ec.message()));
  if (fs::exists(dest, ec)) {
    const FileText read = read_regular_file(dest, kMostLabBytes);
    if (!read.text) {
      throw UsageError(fmt::format("cannot read your copy {}: it {}; nothing was changed", dest.string(), read.problem),
                       fmt::format("move it out of the way (mv {0} {0}.old), then `workbook reset {1}` writes the starter",
                                   dest.string(), lab.id));
    }
    const std::optional<std::string>& mine = read.text;
    if (*mine == *starter_text) {
      result.kind = RestoreResult::Kind::unchanged;
      return result;
    }
    result.kind = RestoreResult::Kind::restored;
    const auto existing = backups_of(dest);
    for (const auto& [n, path] : existing) {
      if (read_file_text(path) == mine) {
        result.backup = path;
        result.already_kept = true;
        break;
      }
    }
    // A new backup, one above the highest: copy_file without overwrite fails when the
    // name is taken (another reset at the same moment), and then the next one is tried.
    for (unsigned long n = existing.empty() ? 0 : existing.back().first + 1; !result.already_kept; ++n) {
      const fs::path backup = backup_name(dest, n);
      std::error_code copy_ec;
      if (fs::copy_file(dest, backup, fs::copy_options::none, copy_ec)) {
        result.backup = backup;
        break;
      }
      if (copy_ec != std::errc::file_exists || n > existing.size() + 1000) {
        throw UsageError(fmt::format("cannot keep your copy as {}: {}; nothing was changed", backup.string(),
                                     copy_ec.message()));
      }
    }
  }
  fs::copy_file(starter, dest, fs::copy_options::overwrite_existing, ec);
  if (ec) throw UsageError(fmt::format("cannot restore {}: {}", dest.string(), ec.message()));
  return result;
}

namespace {

// The run a file in runs/ belongs to: "run-12" for run-12.jsonl (its results) and for the
// profilers' files beside it (run-12.trace.jsonl, run-12.ncu.csv, run-12.sanitizer.txt);
// "probe-calibrate-77" for a probe's results. Empty for anything else.
std::string run_of_file(const std::string& name) {
  const bool run = name.rfind("run-", 0) == 0, probe = name.rfind("probe-", 0) == 0;
  if (!run && !probe) return {};
  if (!ends_with(name, ".jsonl") && !ends_with(name, ".ncu.csv") && !ends_with(name, ".sanitizer.txt")) return {};
  const std::string key = name.substr(0, name.find('.'));
  if (run && (key.size() == 4 || key.find_first_not_of("0123456789", 4) != std::string::npos)) return {};
  return key;
}

}  // namespace

std::size_t Workspace::prune_runs(std::size_t keep) const {
  struct Run {
    fs::file_time_type time;  // its newest file
    std::string key;
    std::vector<fs::path> files;
  };
  std::map<std::string, Run> runs;
  std::error_code ec;
  for (fs::directory_iterator it(runs_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string key = run_of_file(it->path().filename().string());
    if (key.empty()) continue;
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec)) continue;
    auto time = it->last_write_time(entry_ec);
    if (entry_ec) continue;
    Run& r = runs[key];
    if (r.files.empty() || time > r.time) r.time = time;
    r.key = key;
    r.files.push_back(it->path());
  }
  if (runs.size() <= keep) return 0;
  std::vector<Run> order;
  for (auto& kv : runs) order.push_back(std::move(kv.second));
  // Newest first; at equal times the higher run number ("run-10" after "run-9").
  std::sort(order.begin(), order.end(), [](const Run& a, const Run& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.key.size() != b.key.size()) return a.key.size() > b.key.size();
    return a.key > b.key;
  });
  std::size_t removed = 0;
  for (std::size_t i = keep; i < order.size(); ++i) {
    for (const auto& f : order[i].files) {
      std::error_code rm_ec;
      if (fs::remove(f, rm_ec)) ++removed;
    }
  }
  return removed;
}

}  // namespace workbook
