// The course outline and its cache (see outline.hpp).
#include "content/outline.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "content/exercises.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/hash.hpp"

namespace workbook {
namespace fs = std::filesystem;

namespace {

// Bumped whenever ModuleOutline or what is read into it changes: an older cache is a miss.
constexpr int kOutlineFormat = 1;
constexpr std::size_t kCachesKept = 8;  // one per content version recently used

fs::path manifest_file(const Catalog& c, int n) { return c.root() / "modules" / module_id(n) / "module.yaml"; }
fs::path bank_file(const Catalog& c, int n) { return c.root() / "exercises" / (module_id(n) + ".yaml"); }

// Reads and checks the content as a load does: what the commands did before the cache.
std::vector<ModuleOutline> load_outline(const Catalog& catalog) {
  std::map<int, ModuleOutline> by_number;
  for (const Module& m : catalog.load_all()) {
    ModuleOutline& o = by_number[m.number];
    o.has_manifest = true;
    o.title = m.title;
    for (const auto& lab : m.labs) o.labs.push_back({lab.id, lab.title});
  }
  Problems problems;
  for (int n = 1; n <= kModuleCount; ++n) {
    const fs::path file = bank_file(catalog, n);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;
    const ExerciseBank bank = read_exercises(file, n, "exercises/" + module_id(n) + ".yaml", problems);
    ModuleOutline& o = by_number[n];
    o.has_bank = true;
    for (const auto& ex : bank.worked_examples) o.examples.push_back({ex.id, static_cast<int>(ex.steps.size())});
    for (const auto& item : bank.items) o.items.push_back(item.id);
  }
  problems.throw_if_any();
  std::vector<ModuleOutline> out;
  for (auto& [n, o] : by_number) {
    o.number = n;
    o.id = module_id(n);
    out.push_back(std::move(o));
  }
  return out;
}

nlohmann::json outline_json(const std::vector<ModuleOutline>& modules, const std::string& key) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : modules) {
    nlohmann::json labs = nlohmann::json::array(), examples = nlohmann::json::array();
    for (const auto& l : m.labs) labs.push_back({l.id, l.title});
    for (const auto& e : m.examples) examples.push_back({e.id, e.steps});
    list.push_back({{"number", m.number}, {"title", m.title}, {"has_manifest", m.has_manifest}, {"labs", labs},
                    {"has_bank", m.has_bank}, {"examples", examples}, {"items", m.items}});
  }
  return {{"format", kOutlineFormat}, {"key", key}, {"modules", list}};
}

// nullopt for anything that is not a cache this runner wrote for `key`.
std::optional<std::vector<ModuleOutline>> parse_outline(const std::string& text, const std::string& key) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || j.value("format", 0) != kOutlineFormat || j.value("key", "") != key) return std::nullopt;
  std::vector<ModuleOutline> out;
  try {
    for (const auto& m : j.at("modules")) {
      ModuleOutline o;
      o.number = m.at("number").get<int>();
      if (o.number < 1 || o.number > kModuleCount) return std::nullopt;
      o.id = module_id(o.number);
      o.title = m.at("title").get<std::string>();
      o.has_manifest = m.at("has_manifest").get<bool>();
      o.has_bank = m.at("has_bank").get<bool>();
      for (const auto& l : m.at("labs")) o.labs.push_back({l.at(0).get<std::string>(), l.at(1).get<std::string>()});
      for (const auto& e : m.at("examples")) o.examples.push_back({e.at(0).get<std::string>(), e.at(1).get<int>()});
      o.items = m.at("items").get<std::vector<std::string>>();
      out.push_back(std::move(o));
    }
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return out;
}

// Keeps the newest few caches in `dir`: each content version (an author's edit) adds one.
void prune_caches(const fs::path& dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> caches;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("outline-", 0) != 0 || it->path().extension() != ".json") continue;
    std::error_code time_ec;
    caches.emplace_back(fs::last_write_time(it->path(), time_ec), it->path());
  }
  if (caches.size() <= kCachesKept) return;
  std::sort(caches.begin(), caches.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = kCachesKept; i < caches.size(); ++i) fs::remove(caches[i].second, ec);
}

// The names of the regular files of `dir`, sorted.
void add_listing(Hasher& h, const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (it->is_regular_file(e)) names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  h.add(dir.filename().string());
  for (const auto& n : names) h.add(n);
}

}  // namespace

std::optional<fs::path> outline_cache_dir() {
  if (const char* dir = std::getenv("WORKBOOK_CACHE_DIR"); dir && *dir) return fs::path(dir);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "workbook";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "workbook";
  return std::nullopt;
}

std::string outline_key(const Catalog& catalog) {
  Hasher h;
  h.add(fmt::format("workbook course outline {}", kOutlineFormat));
  auto add = [&h](const fs::path& file) {
    const auto text = read_file_text(file);
    h.add(text ? "file" : "none");
    if (text) h.add(*text);
  };
  for (int n = 1; n <= kModuleCount; ++n) {
    add(manifest_file(catalog, n));
    add(bank_file(catalog, n));
    // A load checks that the labs' starters and solutions exist: their names, not their bytes.
    for (const char* dir : {"labs", "solutions"}) add_listing(h, catalog.root() / dir / module_id(n));
  }
  return h.hex();
}

std::vector<ModuleOutline> course_outline(const Catalog& catalog) {
  const std::string key = outline_key(catalog);
  const auto dir = outline_cache_dir();
  const fs::path file = dir ? *dir / ("outline-" + key + ".json") : fs::path();
  if (dir) {
    if (const auto text = read_file_text(file))
      if (auto cached = parse_outline(*text, key)) return *cached;
  }
  std::vector<ModuleOutline> outline = load_outline(catalog);  // throws on a content problem
  if (dir) {
    try {
      write_file_text(file, outline_json(outline, key).dump() + "\n");
      prune_caches(*dir);
    } catch (const Error&) {
      // an unwritable cache folder: the next call reads the content again
    }
  }
  return outline;
}

}  // namespace workbook
