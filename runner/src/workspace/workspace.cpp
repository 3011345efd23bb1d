// Workspace resolution and lab copies (see workspace.hpp).
#include "workspace/workspace.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "util/error.hpp"

namespace workbook {
namespace fs = std::filesystem;

Workspace Workspace::resolve(const std::optional<fs::path>& flag) {
  if (flag) return Workspace(fs::absolute(*flag).lexically_normal());
  if (const char* env = std::getenv("WORKBOOK_WORKSPACE"); env && *env) {
    return Workspace(fs::absolute(env).lexically_normal());
  }
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  for (fs::path dir = cwd; !ec && !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_directory(dir / ".workbook", ec)) return Workspace(dir);
    if (dir == dir.root_path()) break;
  }
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    throw UsageError("no workspace: HOME is not set", "pass --workspace DIR or set WORKBOOK_WORKSPACE");
  }
  return Workspace(fs::path(home) / "workbook");
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

void Workspace::restore_starter(const Catalog& catalog, const LabSpec& lab) const {
  fs::path dest = lab_copy(lab);
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (!ec && fs::exists(dest)) {
    fs::copy_file(dest, fs::path(dest.string() + ".bak"), fs::copy_options::overwrite_existing, ec);
  }
  if (!ec) fs::copy_file(catalog.starter_path(lab), dest, fs::copy_options::overwrite_existing, ec);
  if (ec) throw UsageError(fmt::format("cannot restore {}: {}", dest.string(), ec.message()));
}

}  // namespace workbook
