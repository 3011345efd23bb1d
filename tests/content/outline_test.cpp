// Tests for content/outline: the course outline equals what the full load reads, a cache
// hit is served from the cache, any change to a manifest is a miss, a content problem is
// still reported (and nothing cached), and an unwritable cache folder costs time only.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "content/exercises.hpp"
#include "content/outline.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using workbook::Catalog;
using workbook::course_outline;
using workbook::ModuleOutline;

namespace {

// WORKBOOK_CACHE_DIR set to `dir` for the scope, then restored.
struct CacheDirEnv {
  std::optional<std::string> old;
  explicit CacheDirEnv(const fs::path& dir) {
    if (const char* v = std::getenv("WORKBOOK_CACHE_DIR")) old = v;
    ::setenv("WORKBOOK_CACHE_DIR", dir.c_str(), 1);
  }
  ~CacheDirEnv() {
    if (old) ::setenv("WORKBOOK_CACHE_DIR", old->c_str(), 1);
    else ::unsetenv("WORKBOOK_CACHE_DIR");
  }
};

std::vector<fs::path> caches_in(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind("outline-", 0) == 0) out.push_back(it->path());
  }
  return out;
}

// The fixture course, copied so that its manifest can be changed.
fs::path copy_course(const wbtest::TempDir& tmp) {
  const fs::path course = tmp.path / "course";
  fs::copy(fs::path(WORKBOOK_FIXTURE_DIR) / "course", course, fs::copy_options::recursive);
  return course;
}

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = workbook::read_file_text(file).value();
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("the outline of the real course is what the manifests and exercise banks say", "[outline]") {
  wbtest::TempDir cache;
  CacheDirEnv env(cache.path);
  const Catalog catalog(WORKBOOK_SOURCE_DIR);
  const std::vector<workbook::Module> modules = catalog.load_all();
  for (int pass = 0; pass < 2; ++pass) {  // a miss (read in full), then a hit (the cache)
    INFO("pass " << pass);
    const std::vector<ModuleOutline> outline = course_outline(catalog);
    CHECK(caches_in(cache.path).size() == 1);
    std::size_t with_manifest = 0;
    for (const ModuleOutline& o : outline) {
      INFO(o.id);
      if (o.has_manifest) {
        const workbook::Module& m = modules.at(with_manifest++);
        CHECK(m.number == o.number);
        CHECK(m.title == o.title);
        REQUIRE(m.labs.size() == o.labs.size());
        for (std::size_t i = 0; i < m.labs.size(); ++i) {
          CHECK(m.labs[i].id == o.labs[i].id);
          CHECK(m.labs[i].title == o.labs[i].title);
        }
      }
      const fs::path bank_file = catalog.root() / "exercises" / (o.id + ".yaml");
      CHECK(o.has_bank == fs::is_regular_file(bank_file));
      if (!o.has_bank) continue;
      workbook::Problems problems;
      const auto bank = workbook::read_exercises(bank_file, o.number, o.id, problems);
      REQUIRE(bank.items.size() == o.items.size());
      for (std::size_t i = 0; i < o.items.size(); ++i) CHECK(bank.items[i].id == o.items[i]);
      REQUIRE(bank.worked_examples.size() == o.examples.size());
      for (std::size_t i = 0; i < o.examples.size(); ++i) {
        CHECK(bank.worked_examples[i].id == o.examples[i].id);
        CHECK(static_cast<int>(bank.worked_examples[i].steps.size()) == o.examples[i].steps);
      }
    }
    CHECK(with_manifest == modules.size());
  }
}

TEST_CASE("an outline cache hit is read from the cache, and a changed manifest is a miss", "[outline]") {
  wbtest::TempDir tmp;
  CacheDirEnv env(tmp.path / "cache");
  const fs::path course = copy_course(tmp);
  const Catalog catalog(course);
  auto outline = course_outline(catalog);
  REQUIRE(outline.size() == 1);
  CHECK(outline[0].title == "Fixture module");
  const auto caches = caches_in(tmp.path / "cache");
  REQUIRE(caches.size() == 1);
  CHECK(caches[0].filename().string() == "outline-" + workbook::outline_key(catalog) + ".json");

  // The cache is what a hit returns: change the title inside it, and the hit shows it.
  replace_in(caches[0], "Fixture module", "Read from the cache");
  CHECK(course_outline(catalog)[0].title == "Read from the cache");

  // A manifest changed: another key, read again, a second cache file. (A catalog keeps
  // what it read, so each later command, a process of its own, is a new catalog here.)
  replace_in(course / "modules/module01/module.yaml", "title: \"Fixture module\"", "title: \"Renamed module\"");
  CHECK(course_outline(Catalog(course))[0].title == "Renamed module");
  CHECK(caches_in(tmp.path / "cache").size() == 2);

  // A cache that is not JSON (or is another key's) is a miss, never an error.
  for (const auto& f : caches_in(tmp.path / "cache")) std::ofstream(f, std::ios::trunc) << "{not json";
  CHECK(course_outline(Catalog(course))[0].title == "Renamed module");

  // A starter deleted: a miss too, and the load says what is missing.
  fs::remove(course / "labs/module01/pass_lab.cpp");
  CHECK_THROWS_AS(course_outline(Catalog(course)), workbook::ContentError);
}

TEST_CASE("an outline cache that is a FIFO or a link to /dev/zero is a miss, read at once", "[outline]") {
  wbtest::TempDir tmp;
  CacheDirEnv env(tmp.path / "cache");
  const Catalog catalog(copy_course(tmp));
  const fs::path cache = tmp.path / "cache" / ("outline-" + workbook::outline_key(catalog) + ".json");
  fs::create_directories(cache.parent_path());
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(::mkfifo(cache.c_str(), 0600) == 0);  // no writer: a blocking open never returns
  CHECK(course_outline(catalog)[0].title == "Fixture module");
  CHECK(fs::is_regular_file(fs::symlink_status(cache)));  // the miss wrote a cache in its place
  fs::remove(cache);
  fs::create_symlink("/dev/zero", cache);  // endless: 1.9 GB in 10 s before
  CHECK(course_outline(catalog)[0].title == "Fixture module");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("a content problem is reported on a miss and nothing is cached", "[outline]") {
  wbtest::TempDir tmp;
  CacheDirEnv env(tmp.path / "cache");
  const fs::path course = copy_course(tmp);
  replace_in(course / "modules/module01/module.yaml", "format_version: 1", "format_version: 99");
  CHECK_THROWS_AS(course_outline(Catalog(course)), workbook::ContentError);
  CHECK(caches_in(tmp.path / "cache").empty());
}

TEST_CASE("an outline cache folder that cannot be written only costs time", "[outline]") {
  wbtest::TempDir tmp;
  const fs::path not_a_dir = tmp.path / "file";
  std::ofstream(not_a_dir) << "x";
  CacheDirEnv env(not_a_dir / "cache");
  const fs::path course = copy_course(tmp);
  for (int i = 0; i < 2; ++i) CHECK(course_outline(Catalog(course))[0].title == "Fixture module");
}
