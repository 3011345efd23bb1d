// Tests for content/catalog: finding the content root, listing modules, finding labs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "content/catalog.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using workbook::Catalog;
using workbook::find_content_root;
using workbook::LabRef;

namespace {

using wbtest::ScopedEnv;
using wbtest::TempDir;

const fs::path kSource = WORKBOOK_SOURCE_DIR;
const fs::path kCourse = fs::path(WORKBOOK_FIXTURE_DIR) / "course";

}  // namespace

TEST_CASE("a --content folder without content is a UsageError naming it", "[catalog]") {
  TempDir empty;
  fs::create_directories(empty.path / "modules");  // modules/ alone is not enough: labs/common is missing
  try {
    find_content_root(empty.path);
    FAIL("no exception");
  } catch (const workbook::UsageError& e) {
    std::string what = e.what();
    CHECK(what.find("--content") != std::string::npos);
    CHECK(what.find(empty.path.string()) != std::string::npos);
    CHECK(e.hint().find("labs/common/workbook.cuh") != std::string::npos);
  }
  CHECK_THROWS_AS(find_content_root(empty.path / "does-not-exist"), workbook::UsageError);
}

TEST_CASE("WORKBOOK_CONTENT naming a folder without content is a UsageError naming the variable", "[catalog]") {
  TempDir empty;
  ScopedEnv env("WORKBOOK_CONTENT", empty.path.c_str());
  try {
    find_content_root(std::nullopt);
    FAIL("no exception");
  } catch (const workbook::UsageError& e) {
    std::string what = e.what();
    CHECK(what.find("WORKBOOK_CONTENT") != std::string::npos);
    CHECK(what.find(empty.path.string()) != std::string::npos);
  }
  // The flag wins over the variable.
  CHECK(find_content_root(kSource) == fs::absolute(kSource).lexically_normal());
}

TEST_CASE("the source tree given by --content or WORKBOOK_CONTENT is accepted, absolute and normal", "[catalog]") {
  ScopedEnv env("WORKBOOK_CONTENT", (kSource / "modules" / "..").c_str());
  fs::path root = find_content_root(std::nullopt);
  CHECK(fs::equivalent(root, kSource));
  CHECK(root.is_absolute());
  CHECK(root.native().find("..") == std::string::npos);
  CHECK(fs::is_regular_file(root / "labs/common/workbook.cuh"));
}

TEST_CASE("an empty WORKBOOK_CONTENT is ignored (the search goes on)", "[catalog]") {
  ScopedEnv env("WORKBOOK_CONTENT", "");
  // The test binary lives in the build tree; above it there may or may not be content,
  // but an empty variable must never be taken as a folder name.
  try {
    fs::path root = find_content_root(std::nullopt);
    CHECK(fs::is_directory(root / "modules"));
  } catch (const workbook::UsageError& e) {
    CHECK(std::string(e.what()).find("WORKBOOK_CONTENT names") == std::string::npos);
  }
}

TEST_CASE("module_numbers lists the modules that have a manifest", "[catalog]") {
  CHECK(Catalog(kCourse).module_numbers() == std::vector<int>{1});
  CHECK(Catalog(fs::path(WORKBOOK_FIXTURE_DIR) / "bad_course").module_numbers() == std::vector<int>{3});
  auto real = Catalog(kSource).module_numbers();
  CHECK(std::find(real.begin(), real.end(), 14) != real.end());
}

TEST_CASE("find_lab returns the lab, an unknown name lists the labs that exist", "[catalog]") {
  Catalog cat(kCourse);
  auto lab = cat.find_lab(LabRef{1, "fail_lab"});
  CHECK(lab.id == "module01/fail_lab");
  CHECK(cat.starter_path(lab) == kCourse / "labs/module01/fail_lab.cpp");
  CHECK(cat.solution_path(lab) == kCourse / "solutions/module01/fail_lab.cpp");
  try {
    cat.find_lab(LabRef{1, "no_such_lab"});
    FAIL("no exception");
  } catch (const workbook::UsageError& e) {
    CHECK(std::string(e.what()).find("no_such_lab") != std::string::npos);
    for (const char* name : {"module01/pass_lab", "module01/fail_lab", "module01/crash_lab", "module01/hang_lab",
                             "module01/broken_lab"}) {
      INFO(name);
      CHECK(e.hint().find(name) != std::string::npos);
    }
  }
}

TEST_CASE("a module without a manifest is a UsageError listing the modules with content", "[catalog]") {
  Catalog cat(kCourse);
  try {
    cat.load_module(2);
    FAIL("no exception");
  } catch (const workbook::UsageError& e) {
    CHECK(std::string(e.what()).find("module02") != std::string::npos);
    CHECK(e.hint().find("module01") != std::string::npos);
  }
  CHECK_THROWS_AS(cat.find_lab(LabRef{7, "x"}), workbook::UsageError);
}

TEST_CASE("load_all of a course with a bad manifest throws a ContentError with its problems", "[catalog]") {
  Catalog cat(fs::path(WORKBOOK_FIXTURE_DIR) / "bad_course");
  try {
    cat.load_all();
    FAIL("no exception");
  } catch (const workbook::ContentError& e) {
    CHECK(e.problems().size() >= 7);
    CHECK(std::string(e.what()).find("modules/module03/module.yaml:6: colour: unknown key") != std::string::npos);
  }
  CHECK_THROWS_AS(cat.load_module(3), workbook::ContentError);
  CHECK(Catalog(kCourse).load_all().size() == 1);
}

namespace {

// A copy of the fixture course whose module01/module.yaml a test may change.
struct CourseCopy : TempDir {
  fs::path course = path / "course";
  fs::path manifest = course / "modules/module01/module.yaml";
  CourseCopy() { fs::copy(kCourse, course, fs::copy_options::recursive); }
  void replace(const std::string& from, const std::string& to) const {
    std::string text = workbook::read_file_text(manifest).value();
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
    std::ofstream(manifest, std::ios::trunc) << text;
  }
};

}  // namespace

TEST_CASE("a catalog reads a manifest once: changed on disk later, load_module, load_all and find_lab answer "
          "what was read", "[catalog]") {
  CourseCopy copy;
  const Catalog cat(copy.course);
  const workbook::Module& first = cat.load_module(1);
  REQUIRE(first.title == "Fixture module");
  const workbook::LabSpec& pass_lab = cat.find_lab(LabRef{1, "pass_lab"});
  copy.replace("title: \"Fixture module\"", "title: \"Changed on disk\"");
  copy.replace("id: pass_lab", "id: renamed_lab");
  CHECK(&cat.load_module(1) == &first);  // the same module, not a copy read again
  CHECK(cat.load_module(1).title == "Fixture module");
  CHECK(cat.load_all().at(0).title == "Fixture module");
  CHECK(&cat.find_lab(LabRef{1, "pass_lab"}) == &pass_lab);
  CHECK(cat.lab_or_null("module01/pass_lab") == &pass_lab);
  // A new catalog (the next command) reads the file as it is now.
  const Catalog fresh(copy.course);
  CHECK(fresh.load_module(1).title == "Changed on disk");
  CHECK(fresh.lab_or_null("module01/pass_lab") == nullptr);
  CHECK(fresh.find_lab(LabRef{1, "renamed_lab"}).id == "module01/renamed_lab");
}

TEST_CASE("a catalog keeps a manifest's problems too: fixed on disk later, the same catalog still reports them",
          "[catalog]") {
  CourseCopy copy;
  copy.replace("format_version: 1", "format_version: 99");
  const Catalog cat(copy.course);
  CHECK_THROWS_AS(cat.load_module(1), workbook::ContentError);
  copy.replace("format_version: 99", "format_version: 1");
  CHECK_THROWS_AS(cat.load_module(1), workbook::ContentError);
  CHECK_THROWS_AS(cat.load_all(), workbook::ContentError);
  CHECK(cat.lab_or_null("module01/pass_lab") == nullptr);
  CHECK(Catalog(copy.course).load_module(1).title == "Fixture module");
}

TEST_CASE("a catalog loaded from several threads at once gives every thread the one module it read", "[catalog]") {
  const Catalog cat(kCourse);
  std::vector<const workbook::Module*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&cat, &seen, i] { seen[i] = &cat.load_module(1); });
  for (auto& t : threads) t.join();
  for (const auto* m : seen) CHECK(m == seen[0]);
  CHECK(seen[0]->labs.size() >= 5);
}

TEST_CASE("lab_or_null finds a lab by id, and answers nullptr for a lab or module that is not there", "[catalog]") {
  const Catalog cat(kCourse);
  REQUIRE(cat.lab_or_null("module01/fail_lab") != nullptr);
  CHECK(cat.lab_or_null("module01/fail_lab")->id == "module01/fail_lab");
  CHECK(cat.lab_or_null("module01/no_such_lab") == nullptr);
  CHECK(cat.lab_or_null("module07/x") == nullptr);  // no manifest
  CHECK(cat.lab_or_null("module01") == nullptr);    // a module, not a lab
  CHECK(cat.lab_or_null("not a lab id") == nullptr);
}
