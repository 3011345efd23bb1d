// `workbook hint LAB`: a lab's progressive hints (the manifest's `hints:`), one more each
// time, every hint shown recorded in the journal (journal/hint_log.hpp). A hint used is
// part of the record, not a penalty: `history` shows "hints used: 2 of 3" beside a run.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "ui/output.hpp"

namespace workbook::learn {

struct HintLine {
  int index = 0;  // 1-based
  std::string text;
  bool is_new = false;  // shown for the first time by this call
};

// What one call shows.
struct HintView {
  std::string lab;  // "module05/find_the_bugs"
  int total = 0;    // hints the manifest declares
  std::vector<HintLine> shown;
  int seen = 0;     // different hints seen after this call
  bool all_seen() const { return total > 0 && seen >= total; }
};

// Pure: the hints to show when `seen` (1-based indices, any order) were seen before. Shows
// every seen hint and the first unseen one; with `all`, every hint.
HintView plan_hints(const LabSpec& lab, const std::vector<int>& seen, bool all);

// Plans from the journal's record and records each hint shown for the first time.
HintView take_hints(Journal& journal, const LabSpec& lab, bool all);

// The command to see the reference solution once the hints are used up.
std::string solution_command(const std::string& lab);

std::string format_hints(const HintView& view, const Style& style);
nlohmann::json to_json(const HintView& view);

// The whole command: resolves `lab_ref` (a lab, or a module with one lab), takes the hints
// and prints them (text or JSON). Returns the exit code (0).
int show_hints(const Catalog& catalog, Journal& journal, const std::string& lab_ref, bool all, const Output& out);

}  // namespace workbook::learn
