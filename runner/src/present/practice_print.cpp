// The learning commands' text and JSON printers (see present/practice_print.hpp; the
// interface they implement is learn/practice_print.hpp).
#include "present/practice_print.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "learn/clock.hpp"

namespace workbook::learn {

namespace {

const char* plural(std::size_t n) { return n == 1 ? "" : "s"; }

// The points the drills covered, of all their points.
std::pair<int, int> points_covered(const std::vector<DrillResult>& results) {
  int covered = 0, total = 0;
  for (const auto& r : results) {
    covered += r.covered;
    total += r.total;
  }
  return {covered, total};
}

// --- text ---------------------------------------------------------------------------

// The items a session's answers are of: an item rated "again" is asked again in the same
// session, so one item may have two answers.
std::size_t items_answered(const std::vector<ItemResult>& results) {
  std::set<std::pair<int, std::string>> items;
  for (const auto& r : results) items.insert({r.module, r.item});
  return items.size();
}

// "Answered 3 items: again 1, good 2." ("Answered 5 items, one of them twice (6 answers):
// ..." when an item came back) and how the session stopped, if early.
void print_summary(const Style& style, const std::vector<ItemResult>& results, Stop stop) {
  std::map<int, int> by;
  for (const auto& r : results) ++by[static_cast<int>(r.rating)];
  std::string counts;
  for (const auto& [rating, n] : by) {
    counts += (counts.empty() ? "" : ", ") + fmt::format("{} {}", fsrs::to_string(static_cast<fsrs::Rating>(rating)), n);
  }
  const std::size_t items = items_answered(results);
  const std::string again =
      items == results.size() ? "" : fmt::format(" ({} answers: an item rated again is asked again)", results.size());
  fmt::print("\n{}\n", style.bold(fmt::format("Answered {} item{}{}{}{}.", items, plural(items), again,
                                              counts.empty() ? "" : ": ", counts)));
  if (stop == Stop::interrupted) {
    fmt::print("Interrupted (Ctrl-C): every answer given before it is kept in the journal.\n");
  } else if (stop == Stop::end_of_input) {
    fmt::print("{}\n", style.dim("End of input: stopped; every answer given is kept."));
  } else if (stop == Stop::quit) {
    fmt::print("{}\n", style.dim("Stopped (q); every answer given is kept."));
  }
}

// The items of the session not answered in it (an item asked again counts once).
std::size_t items_left(std::size_t in_session, const std::vector<ItemResult>& results) {
  std::set<std::pair<int, std::string>> answered;
  for (const auto& r : results) answered.insert({r.module, r.item});
  return in_session > answered.size() ? in_session - answered.size() : 0;
}

// "Skipped 3 items not due yet (the next on 2026-12-03): `workbook exercises 16 --all` asks them too."
void print_skipped(const Style& style, int module, const std::vector<SkippedCard>& skipped) {
  if (skipped.empty()) return;
  long long first = skipped.front().due_day;
  for (const auto& c : skipped) first = std::min(first, c.due_day);
  fmt::print("{}\n", style.dim(fmt::format("Skipped {} item{} not due yet (the next on {}): `workbook exercises {} "
                                           "--all` asks them too.",
                                           skipped.size(), plural(skipped.size()), date_of_day(first), module)));
}

class TextPrinter final : public PracticePrinter {
 public:
  explicit TextPrinter(const Style& style) : s_(style) {}

  bool quiet() const override { return false; }

  void exercises_start(const ExercisesPlan& p) override {
    fmt::print("{}\n", s_.bold(fmt::format("{}: {} item{}{}", module_id(p.module), p.asked, plural(p.asked),
                                           p.seed ? fmt::format(" with fresh numbers (seed {})", *p.seed) : "")));
    print_skipped(s_, p.module, p.skipped);
    if (p.asked > 0) fmt::print("{}\n", s_.dim("Answer first, then compare with the model answer and grade yourself."));
  }
  void exercises_end(const ExercisesOutcome& o) override {
    if (o.plan.asked == 0) {
      fmt::print("Nothing new or due in {} today.\n", module_id(o.plan.module));
      return;
    }
    print_summary(s_, o.results, o.stop);
    if (const std::size_t left = items_left(o.plan.asked, o.results); left > 0) {
      fmt::print("Left: {} of {} item{} not answered; `workbook exercises {}` asks {} again.\n", left, o.plan.asked,
                 plural(o.plan.asked), o.plan.module, left == 1 ? "it" : "them");
    } else if (!o.plan.skipped.empty()) {
      print_skipped(s_, o.plan.module, o.plan.skipped);
    } else {
      fmt::print("Every item of {} is answered; `workbook review` brings them back when due.\n", module_id(o.plan.module));
    }
  }

  void review_start(const ReviewPlan& p) override {
    fmt::print("{}\n", s_.bold(fmt::format("Review {}: {} due, {} new (of {} not yet seen).", date_of_day(p.today), p.due,
                                           p.fresh, p.fresh_available)));
  }
  void review_end(const ReviewOutcome& o) override {
    if (o.plan.queued == 0) fmt::print("Nothing to review today.\n");
    else print_summary(s_, o.results, o.stop);
    const std::size_t left = o.plan.queued == 0 ? 0 : items_left(o.plan.queued, o.results);
    if (left > 0) {  // stopped early: what is still due today, not a later date
      fmt::print("Left: {} of the {} item{} of this session; `workbook review` carries on with {}.\n", left,
                 o.plan.queued, plural(o.plan.queued), left == 1 ? "it" : "them");
    } else if (o.next_due_day) {
      fmt::print("Next review due {}.\n", date_of_day(*o.next_due_day));
    }
  }

  void follow_end(const FollowOutcome& o) override {
    if (!o.result) {
      fmt::print("Every worked example of {} is done. Go again with --restart (or --example ID --restart).\n",
                 module_id(o.module));
    } else if (!o.result->completed()) {
      fmt::print("\n{}\n", s_.dim(fmt::format("Stopped at step {}/{}; `workbook follow {}` carries on from there.",
                                              o.result->steps_done + 1, o.result->total_steps, o.module)));
    }
  }

  void drill_start(const DrillPlan& p) override {
    if (p.queued == 0) {
      fmt::print("No drill of {} is due today. `workbook drill {}--status` shows when; --all drills anyway.\n",
                 modules_text(p.modules), p.weekly ? "" : std::to_string(p.modules.front()) + " ");
    } else if (p.weekly) {
      fmt::print("{}\n", s_.dim(fmt::format("This week's drills: {} ({} due).", modules_text(p.modules), p.queued)));
    }
  }
  void drill_end(const DrillOutcome& o) override {
    if (o.results.empty()) return;
    const auto [covered, total] = points_covered(o.results);
    fmt::print("\n{}\n", s_.bold(fmt::format("{} drill{}: {}/{} points covered.", o.results.size(), plural(o.results.size()),
                                             covered, total)));
    if (o.stop == Stop::interrupted) fmt::print("Interrupted (Ctrl-C): the drills done are kept.\n");
  }

  void drill_status_report(const DrillStatusReport& r) override {
    fmt::print("{}\n", s_.bold(fmt::format("{} drills, {} (weekly until easy)", modules_text(r.modules), date_of_day(r.today))));
    fmt::print("{:<28} {:>8} {:>6} {:>10} {:<12}\n", "drill", "attempts", "last", "readiness", "next due");
    for (const auto& s : r.drills) {
      std::string last = s.last_covered ? fmt::format("{}/{}", *s.last_covered, *s.total) : "-";
      std::string readiness = s.attempts ? fmt::format("{:.0f} %", s.readiness * 100) : "-";
      std::string due = s.due ? s_.yellow("due now") : date_of_day(s.next_due_day) + (s.easy ? " (easy)" : "");
      fmt::print("{:<28} {:>8} {:>6} {:>10} {}\n", s.drill, s.attempts, last, readiness, due);
    }
  }

 private:
  Style s_;
};

// --- JSON ---------------------------------------------------------------------------

template <class T>
nlohmann::json array_of(const std::vector<T>& xs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& x : xs) a.push_back(to_json(x));
  return a;
}

// The drill commands' modules: every one, and `module` when one was asked.
nlohmann::json drill_modules(const std::vector<int>& modules, bool weekly) {
  nlohmann::json j = {{"modules", modules}};
  if (!weekly) j["module"] = modules.front();
  return j;
}

class JsonPrinter final : public PracticePrinter {
 public:
  bool quiet() const override { return true; }

  void exercises_start(const ExercisesPlan&) override {}
  void exercises_end(const ExercisesOutcome& o) override {
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& c : o.plan.skipped) skipped.push_back({{"item", c.item}, {"due", date_of_day(c.due_day)}});
    nlohmann::json j = {{"module", o.plan.module},
                        {"mode", o.plan.pass_fail ? "pass-fail" : "scale"},
                        {"items", array_of(o.results)},
                        {"answered", o.results.size()},
                        {"items_answered", items_answered(o.results)},
                        {"asked", o.plan.asked},
                        {"skipped", skipped},
                        {"stopped", to_string(o.stop)}};
    if (o.plan.seed) j["seed"] = *o.plan.seed;
    print_json(j);
  }

  void review_start(const ReviewPlan&) override {}
  void review_end(const ReviewOutcome& o) override {
    nlohmann::json j = {{"date", date_of_day(o.plan.today)}, {"due", o.plan.due},
                        {"new", o.plan.fresh},               {"new_available", o.plan.fresh_available},
                        {"items", array_of(o.results)},      {"answered", o.results.size()},
                        {"items_answered", items_answered(o.results)}, {"stopped", to_string(o.stop)}};
    j["next_due"] = o.next_due_day ? nlohmann::json(date_of_day(*o.next_due_day)) : nlohmann::json(nullptr);
    print_json(j);
  }

  void follow_end(const FollowOutcome& o) override {
    if (!o.result) {
      print_json({{"module", o.module}, {"completed_all", true}});
      return;
    }
    const FollowResult& r = *o.result;
    print_json({{"module", o.module},
                {"example", r.example},
                {"title", r.title},
                {"total_steps", r.total_steps},
                {"start_step", r.start_step + 1},
                {"steps_done", r.steps_done},
                {"completed", r.completed()},
                {"steps", r.steps},
                {"stopped", to_string(o.stop)}});
  }

  void drill_start(const DrillPlan&) override {}
  void drill_end(const DrillOutcome& o) override {
    const auto [covered, total] = points_covered(o.results);
    nlohmann::json j = drill_modules(o.plan.modules, o.plan.weekly);
    j.update({{"drills", array_of(o.results)}, {"covered", covered}, {"total", total}, {"stopped", to_string(o.stop)}});
    print_json(j);
  }

  void drill_status_report(const DrillStatusReport& r) override {
    nlohmann::json j = drill_modules(r.modules, r.weekly);
    j.update({{"date", date_of_day(r.today)}, {"drills", array_of(r.drills)}});
    print_json(j);
  }
};

}  // namespace

std::unique_ptr<PracticePrinter> practice_printer(const Output& out) {
  if (out.json) return std::make_unique<JsonPrinter>();
  return std::make_unique<TextPrinter>(out.style);
}

}  // namespace workbook::learn
