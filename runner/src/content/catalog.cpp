// Content root discovery and module loading (see catalog.hpp).
#include "content/catalog.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "content/manifest_load.hpp"
#include "util/closest_word.hpp"
#include "util/error.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

bool looks_like_content(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "modules", ec) && fs::is_regular_file(dir / "labs" / "common" / "workbook.cuh", ec);
}

fs::path executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

fs::path find_content_root(const std::optional<fs::path>& flag) {
  auto check = [](const fs::path& dir, const std::string& from) {
    if (!looks_like_content(dir)) {
      throw UsageError(fmt::format("{} names '{}', which holds no workbook content", from, dir.string()),
                       "point it at the folder that holds modules/ and labs/common/workbook.cuh");
    }
    return fs::absolute(dir).lexically_normal();
  };
  if (flag) return check(*flag, "--content");
  if (const char* env = std::getenv("WORKBOOK_CONTENT"); env && *env) return check(env, "WORKBOOK_CONTENT");
  std::vector<fs::path> tried;
  fs::path exe_dir = executable_dir();
  for (fs::path dir = exe_dir; !dir.empty(); dir = dir.parent_path()) {
    tried.push_back(dir);
    if (looks_like_content(dir)) return dir;
    if (dir == dir.root_path()) break;
  }
  // A binary built or installed outside the checkout, started from inside one: look
  // upward from the current folder, as git does.
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec) {
    for (fs::path dir = cwd; !dir.empty(); dir = dir.parent_path()) {
      if (looks_like_content(dir)) return dir;
      if (dir == dir.root_path()) break;
    }
  }
  if (!exe_dir.empty()) {
    fs::path share = exe_dir.parent_path() / "share" / "workbook";
    if (looks_like_content(share)) return share;
  }
  throw UsageError("cannot find the workbook content (modules/, labs/, exercises/) above the binary, above the "
                   "current folder, or in <prefix>/share/workbook",
                   "run from inside a checkout or an installed copy, or pass --content DIR or set WORKBOOK_CONTENT");
}

std::vector<int> Catalog::module_numbers() const {
  std::vector<int> out;
  for (int n = 1; n <= kModuleCount; ++n) {
    if (fs::is_regular_file(root_ / "modules" / module_id(n) / "module.yaml")) out.push_back(n);
  }
  return out;
}

const Catalog::Read& Catalog::read(int number) const {
  std::lock_guard lock(mutex_);
  if (const auto it = read_.find(number); it != read_.end()) return it->second;
  const fs::path file = root_ / "modules" / module_id(number) / "module.yaml";
  if (!fs::is_regular_file(file)) {
    std::string have;
    for (int n : module_numbers()) have += (have.empty() ? "" : ", ") + module_id(n);
    throw UsageError(fmt::format("{} has no content yet", module_id(number)),
                     fmt::format("modules with content: {}", have.empty() ? "(none)" : have));
  }
  Problems problems;
  Module m = read_module(file, number, root_, problems);
  return read_.emplace(number, Read{std::move(m), problems.list()}).first->second;
}

const Module& Catalog::load_module(int number) const {
  const Read& r = read(number);
  if (!r.problems.empty()) throw ContentError(r.problems);
  return r.module;
}

std::vector<Module> Catalog::load_all() const {
  std::vector<std::string> problems;
  std::vector<Module> out;
  for (int n : module_numbers()) {
    const Read& r = read(n);
    problems.insert(problems.end(), r.problems.begin(), r.problems.end());
    out.push_back(r.module);
  }
  if (!problems.empty()) throw ContentError(problems);
  return out;
}

const LabSpec& lab_in(const Module& m, const std::string& name) {
  for (const auto& lab : m.labs) {
    if (lab.name == name) return lab;
  }
  std::string have;
  std::vector<std::string> names;
  for (const auto& lab : m.labs) {
    have += (have.empty() ? "" : ", ") + lab.id;
    names.push_back(lab.name);
  }
  const auto meant = closest_word(name, names);
  throw UsageError(fmt::format("{} has no lab '{}'", m.id, name),
                   meant ? fmt::format("did you mean {}/{}? Labs in {}: {}", m.id, *meant, m.id, have)
                         : fmt::format("labs in {}: {}", m.id, have.empty() ? "(none yet)" : have));
}

const LabSpec& Catalog::find_lab(const LabRef& ref) const { return lab_in(load_module(ref.module), ref.name); }

const LabSpec* Catalog::lab_or_null(const std::string& id) const {
  const auto ref = parse_lab_ref(id);
  if (!ref || ref->name.empty()) return nullptr;
  try {
    for (const auto& lab : load_module(ref->module).labs)
      if (lab.id == id) return &lab;
  } catch (const Error&) {  // a module gone from the content, or one with problems
  }
  return nullptr;
}

fs::path Catalog::starter_path(const LabSpec& lab) const {
  return root_ / "labs" / lab.id.substr(0, lab.id.find('/')) / lab.source;
}

fs::path Catalog::solution_path(const LabSpec& lab) const {
  return root_ / "solutions" / lab.id.substr(0, lab.id.find('/')) / lab.source;
}

}  // namespace workbook
