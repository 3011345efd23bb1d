// The course at a glance: each module's title, its labs' ids and titles, its worked
// examples (with their step counts) and its exercise items' ids. That is all `list`,
// `progress`, `next` and a bare `workbook` show of the content, and reading it from the
// YAML (24 manifests and 24 exercise banks, about 0.7 MB, with every check) took most of
// their time. So it is kept in a cache keyed by a hash of the files it is read from
// (every module.yaml and every exercises/moduleNN.yaml) and of the names of the starters
// and solutions (a load checks that they exist): any change to one is a miss, and a miss
// reads and checks the content as a load does (a content problem is reported and nothing is
// cached). The cache is only ever written after a load without a problem. Where the
// cache folder cannot be read or written, every call is a miss: slower, never wrong.
// `dev check` always validates everything and never reads this cache.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "content/catalog.hpp"

namespace workbook {

struct LabOutline {
  std::string id, title;
};

struct ExampleOutline {
  std::string id;
  int steps = 0;
};

struct ModuleOutline {
  int number = 0;
  std::string id, title;           // title: the manifest's, "" without one
  bool has_manifest = false;       // modules/moduleNN/module.yaml exists
  std::vector<LabOutline> labs;
  bool has_bank = false;           // exercises/moduleNN.yaml exists
  std::vector<ExampleOutline> examples;
  std::vector<std::string> items;  // exercise item ids
};

// Every module with a manifest or an exercise bank, by number. Throws ContentError (all
// problems) as Catalog::load_all and the bank loader do, on a miss.
std::vector<ModuleOutline> course_outline(const Catalog& catalog);

// Where the cache lives: $WORKBOOK_CACHE_DIR, else $XDG_CACHE_HOME/workbook, else
// ~/.cache/workbook; nullopt when none can be named (no HOME).
std::optional<std::filesystem::path> outline_cache_dir();

// The key of the content as it is now (32 hex digits).
std::string outline_key(const Catalog& catalog);

}  // namespace workbook
