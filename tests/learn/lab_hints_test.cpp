// Tests for learn/lab_hints: which hints a call shows (every hint seen before, plus the
// first unseen one; all of them with --all), the text ("Hint 2 of 3", the pointer to the
// solution once all are seen) and the JSON; take_hints records each new hint once.
#include <catch2/catch.hpp>

#include <algorithm>

#include "journal/hint_log.hpp"
#include "learn/lab_hints.hpp"

#include "../support/temp_dir.hpp"

using namespace workbook;
using workbook::learn::format_hints;
using workbook::learn::HintLine;
using workbook::learn::HintView;
using workbook::learn::plan_hints;
using workbook::learn::take_hints;
using workbook::learn::to_json;

namespace {

LabSpec lab_with(int hints) {
  LabSpec lab;
  lab.id = "module05/find_the_bugs";
  for (int i = 1; i <= hints; ++i) lab.hints.push_back("hint text " + std::to_string(i));
  return lab;
}

std::vector<int> indices(const HintView& v) {
  std::vector<int> out;
  for (const auto& h : v.shown) out.push_back(h.index);
  return out;
}

}  // namespace

TEST_CASE("hints: each call shows the hints seen and one more", "[learn][hint]") {
  const LabSpec lab = lab_with(3);
  HintView v = plan_hints(lab, {}, false);
  CHECK(indices(v) == std::vector<int>{1});
  CHECK(v.shown[0].is_new);
  CHECK(v.seen == 1);
  CHECK_FALSE(v.all_seen());

  v = plan_hints(lab, {1}, false);
  CHECK(indices(v) == std::vector<int>{1, 2});
  CHECK_FALSE(v.shown[0].is_new);
  CHECK(v.shown[1].is_new);
  CHECK(v.seen == 2);

  v = plan_hints(lab, {2, 1}, false);
  CHECK(indices(v) == std::vector<int>{1, 2, 3});
  CHECK(v.all_seen());

  v = plan_hints(lab, {1, 2, 3}, false);  // all seen: shown again, nothing new
  CHECK(indices(v) == std::vector<int>{1, 2, 3});
  CHECK(std::none_of(v.shown.begin(), v.shown.end(), [](const HintLine& h) { return h.is_new; }));
  CHECK(v.all_seen());
}

TEST_CASE("hints: --all shows every hint, a gap or a shortened list is handled", "[learn][hint]") {
  const LabSpec lab = lab_with(4);
  HintView v = plan_hints(lab, {1}, true);
  CHECK(indices(v) == std::vector<int>{1, 2, 3, 4});
  CHECK(v.seen == 4);
  CHECK(v.all_seen());

  v = plan_hints(lab, {1, 3}, false);  // hint 3 seen (an import), 2 not: 2 comes next
  CHECK(indices(v) == std::vector<int>{1, 2, 3});
  CHECK(v.shown[1].is_new);
  CHECK_FALSE(v.shown[2].is_new);
  CHECK(v.seen == 3);

  v = plan_hints(lab_with(2), {1, 2, 3, 4}, false);  // the manifest now has fewer hints
  CHECK(indices(v) == std::vector<int>{1, 2});
  CHECK(v.seen == 2);
  CHECK(v.all_seen());

  v = plan_hints(lab_with(0), {}, false);
  CHECK(v.shown.empty());
  CHECK(v.total == 0);
  CHECK_FALSE(v.all_seen());
}

TEST_CASE("hints: the text numbers each hint and points to the solution at the end", "[learn][hint]") {
  const LabSpec lab = lab_with(3);
  const Style plain(false);
  std::string text = format_hints(plan_hints(lab, {1}, false), plain);
  CHECK(text.find("Hint 1 of 3 (seen before)\n  hint text 1\n") != std::string::npos);
  CHECK(text.find("Hint 2 of 3\n  hint text 2\n") != std::string::npos);
  CHECK(text.find("hint text 3") == std::string::npos);
  CHECK(text.find("2 of 3 hints seen; `workbook hint module05/find_the_bugs` again shows the next one.") !=
        std::string::npos);
  CHECK(text.find("--solution") == std::string::npos);

  text = format_hints(plan_hints(lab, {1, 2}, false), plain);
  CHECK(text.find("Hint 3 of 3\n") != std::string::npos);
  CHECK(text.find("All 3 hints of module05/find_the_bugs are shown.") != std::string::npos);
  CHECK(text.find("workbook show module05/find_the_bugs --solution") != std::string::npos);

  text = format_hints(plan_hints(lab_with(0), {}, false), plain);
  CHECK(text.find("module05/find_the_bugs has no hints") != std::string::npos);
}

TEST_CASE("hints: the JSON lists the hints shown and the solution command when all are seen", "[learn][hint]") {
  const LabSpec lab = lab_with(2);
  nlohmann::json j = to_json(plan_hints(lab, {}, false));
  CHECK(j["lab"] == "module05/find_the_bugs");
  CHECK(j["total"] == 2);
  CHECK(j["seen"] == 1);
  REQUIRE(j["hints"].size() == 1);
  CHECK(j["hints"][0]["index"] == 1);
  CHECK(j["hints"][0]["text"] == "hint text 1");
  CHECK(j["hints"][0]["new"] == true);
  CHECK(j["all_seen"] == false);
  CHECK(j["solution_command"].is_null());
  j = to_json(plan_hints(lab, {1}, false));
  CHECK(j["all_seen"] == true);
  CHECK(j["solution_command"] == "workbook show module05/find_the_bugs --solution");
}

TEST_CASE("hints: take_hints records each hint the first time it is shown", "[learn][hint]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const LabSpec lab = lab_with(3);
  CHECK(take_hints(j, lab, false).seen == 1);
  CHECK(take_hints(j, lab, false).seen == 2);
  CHECK(hints_shown(j, lab.id).size() == 2);
  CHECK(take_hints(j, lab, true).seen == 3);
  CHECK(take_hints(j, lab, false).seen == 3);
  const auto shown = hints_shown(j, lab.id);
  REQUIRE(shown.size() == 3);
  CHECK(shown[0].hint == 1);
  CHECK(shown[2].hint == 3);
}
