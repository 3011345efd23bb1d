// The learning commands' logic (see practice.hpp).
#include "learn/practice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "learn/banks.hpp"
#include "learn/clock.hpp"
#include "learn/practice_session.hpp"
#include "learn/session_queue.hpp"
#include "ui/output.hpp"
#include "util/error.hpp"
#include "util/seed.hpp"

namespace workbook::learn {

namespace {

int exit_for(const PracticeSession& s) { return s.stop() == Stop::interrupted ? kInterruptedExit : 0; }

std::string module_name(int m) { return fmt::format("module{:02}", m); }

// "Answered 3: again 1, good 2. Every answer is in the journal."
void print_summary(const LearnContext& ctx, const PracticeSession& session, const std::vector<ItemResult>& results) {
  if (ctx.out.json) return;
  std::map<int, int> by;
  for (const auto& r : results) ++by[static_cast<int>(r.rating)];
  std::string counts;
  for (const auto& [rating, n] : by) {
    counts += (counts.empty() ? "" : ", ") + fmt::format("{} {}", fsrs::to_string(static_cast<fsrs::Rating>(rating)), n);
  }
  fmt::print("\n{}\n", ctx.out.style.bold(fmt::format("Answered {} item{}{}{}.", results.size(), results.size() == 1 ? "" : "s",
                                                 counts.empty() ? "" : ": ", counts)));
  if (session.stop() == Stop::interrupted) {
    fmt::print("Interrupted (Ctrl-C): every answer given before it is kept in the journal.\n");
  } else if (session.stop() == Stop::end_of_input) {
    fmt::print("{}\n", ctx.out.style.dim("End of input: stopped; every answer given is kept."));
  }
}

nlohmann::json results_json(const std::vector<ItemResult>& results) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : results) a.push_back(to_json(r));
  return a;
}

// Asks the queue's items until none is left or the learner stops; an item put on a
// (re)learning step is queued again.
std::vector<ItemResult> ask_queue(PracticeSession& session, SessionQueue& queue,
                                  const std::function<ItemOptions(const QueuedItem&)>& options) {
  std::vector<ItemResult> results;
  while (auto e = queue.next(now_unix())) {
    auto r = session.item(e->module, *e->item, options(*e));
    if (!r) break;
    if (r->due_in_minutes > 0) queue.again_in(*e, r->due_in_minutes, now_unix());
    results.push_back(*r);
  }
  return results;
}

// The items of a module `exercises` asks: those asked for (--item, --variant), and of
// those only the new and due ones unless --all or --item; the others into `skipped`.
std::vector<const ExerciseItem*> exercise_items(const ExercisesRequest& req, const ExerciseBank& bank,
                                                const ReviewStore& store, long long today,
                                                std::vector<const StoredCard*>& skipped, std::vector<StoredCard>& cards) {
  std::vector<const ExerciseItem*> items;
  cards = store.cards();
  for (const auto& it : bank.items) {
    if (req.item && it.id != *req.item) continue;
    if (req.variant && !it.variant) continue;
    auto card = std::find_if(cards.begin(), cards.end(), [&](const StoredCard& c) { return c.module == bank.module && c.item == it.id; });
    if (!req.all && !req.item && card != cards.end() && card->card.due_day() > today) {
      skipped.push_back(&*card);
      continue;
    }
    items.push_back(&it);
  }
  return items;
}

// "Skipped 3 items not due yet (the next on 2026-12-03): `workbook exercises 16 --all` asks them too."
void print_skipped(const LearnContext& ctx, int module, const std::vector<const StoredCard*>& skipped) {
  if (ctx.out.json || skipped.empty()) return;
  long long first = skipped.front()->card.due_day();
  for (const auto* c : skipped) first = std::min(first, c->card.due_day());
  fmt::print("{}\n", ctx.out.style.dim(fmt::format("Skipped {} item{} not due yet (the next on {}): `workbook exercises {} "
                                               "--all` asks them too.",
                                               skipped.size(), skipped.size() == 1 ? "" : "s", date_of_day(first), module)));
}

}  // namespace

int run_exercises(LearnContext& ctx, const ExercisesRequest& req) {
  int module = parse_module(req.module);
  ExerciseBank bank = load_bank(ctx.catalog, module);
  ReviewStore store(ctx.journal);
  const long long today = day_of(now_unix());
  std::vector<const StoredCard*> skipped;
  std::vector<StoredCard> cards;
  std::vector<const ExerciseItem*> items = exercise_items(req, bank, store, today, skipped, cards);
  if (items.empty() && skipped.empty()) {
    std::string ids;
    for (const auto& it : bank.items) {
      if (!req.variant || it.variant) ids += (ids.empty() ? "" : ", ") + it.id;
    }
    if (req.item) throw UsageError(fmt::format("{} has no item '{}'{}", module_name(module), *req.item,
                                               req.variant ? " with a variant" : ""),
                                   "items: " + (ids.empty() ? std::string("(none)") : ids));
    throw UsageError(fmt::format("{} has no {}", module_name(module), req.variant ? "items with variants" : "items"));
  }
  std::uint64_t seed = req.seed ? *req.seed : new_seed();
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), ctx.out.json);
  PracticeSession session(in, ctx.out.style, store, sched);
  if (!ctx.out.json) {
    fmt::print("{}\n", ctx.out.style.bold(fmt::format("{}: {} item{}{}", module_name(module), items.size(),
                                                  items.size() == 1 ? "" : "s",
                                                  req.variant ? fmt::format(" with fresh numbers (seed {})", seed) : "")));
    print_skipped(ctx, module, skipped);
    if (!items.empty()) fmt::print("{}\n", ctx.out.style.dim("Answer first, then compare with the model answer and grade yourself."));
  }
  std::vector<QueuedItem> line;
  for (const ExerciseItem* it : items) line.push_back({module, it, false});
  SessionQueue queue(std::move(line));
  std::vector<ItemResult> results = ask_queue(session, queue, [&](const QueuedItem& e) {
    ItemOptions opt;
    opt.pass_fail = req.pass_fail;
    opt.source = "exercises";
    if (req.variant) opt.variant = draw_variant(*e.item, seed);
    return opt;
  });
  if (ctx.out.json) {
    nlohmann::json skipped_ids = nlohmann::json::array();
    for (const auto* c : skipped) skipped_ids.push_back({{"item", c->item}, {"due", date_of_day(c->card.due_day())}});
    nlohmann::json j = {{"module", module},
                        {"mode", req.pass_fail ? "pass-fail" : "scale"},
                        {"items", results_json(results)},
                        {"answered", results.size()},
                        {"asked", items.size()},
                        {"skipped", skipped_ids},
                        {"stopped", to_string(session.stop())}};
    if (req.variant) j["seed"] = seed;
    print_json(j);
  } else {
    if (items.empty()) fmt::print("Nothing new or due in {} today.\n", module_name(module));
    else print_summary(ctx, session, results);
  }
  return exit_for(session);
}

namespace {

struct ReviewPlan {
  std::vector<QueuedItem> queue;
  int due_total = 0, new_count = 0, new_available = 0;
};

// What is due (most overdue first), then new items up to the day's limit: the modules of
// the assignment due next first, then the others, each module's in bank order.
ReviewPlan plan_review(const ReviewRequest& req, const std::vector<ExerciseBank>& banks, const ReviewStore& store,
                       long long today) {
  auto find = [&](int module, const std::string& id) -> const ExerciseItem* {
    for (const auto& b : banks) {
      if (b.module != module) continue;
      for (const auto& it : b.items) {
        if (it.id == id) return &it;
      }
    }
    return nullptr;
  };
  ReviewPlan plan;
  for (const auto& c : store.due(today)) {
    const ExerciseItem* it = find(c.module, c.item);
    if (!it) continue;  // the item left the bank
    ++plan.due_total;
    if (static_cast<int>(plan.queue.size()) < req.limit) plan.queue.push_back({c.module, it, false});
  }
  int new_left = std::max(0, req.new_limit - store.introduced_on(today));
  for (int module : new_item_module_order(req.course, today)) {
    for (const auto& b : banks) {
      if (b.module != module) continue;
      for (const auto& it : b.items) {
        if (store.card(b.module, it.id)) continue;
        ++plan.new_available;
        if (new_left > 0 && static_cast<int>(plan.queue.size()) < req.limit) {
          plan.queue.push_back({b.module, &it, true});
          --new_left;
          ++plan.new_count;
        }
      }
    }
  }
  return plan;
}

}  // namespace

int run_review(LearnContext& ctx, const ReviewRequest& req) {
  if (req.limit < 1) throw UsageError("--limit must be at least 1");
  if (req.new_limit < 0) throw UsageError("--new must not be negative");
  auto banks = load_all_banks(ctx.catalog);
  ReviewStore store(ctx.journal);
  fsrs::Scheduler sched;
  const long long today = day_of(now_unix());
  ReviewPlan plan = plan_review(req, banks, store, today);
  const bool nothing = plan.queue.empty();
  LearnerInput in(interactive_terminal(), ctx.out.json);
  PracticeSession session(in, ctx.out.style, store, sched);
  if (!ctx.out.json) {
    fmt::print("{}\n", ctx.out.style.bold(fmt::format("Review {}: {} due, {} new (of {} not yet seen).", date_of_day(today),
                                                  plan.due_total, plan.new_count, plan.new_available)));
  }
  SessionQueue queue(std::move(plan.queue));
  std::vector<ItemResult> results = ask_queue(session, queue, [&](const QueuedItem&) {
    ItemOptions opt;
    opt.pass_fail = req.pass_fail;
    opt.source = "review";
    return opt;
  });
  // When is the next review due (after this session)?
  std::optional<long long> next_day;
  for (const auto& c : store.cards()) {
    if (!next_day || c.card.due_day() < *next_day) next_day = c.card.due_day();
  }
  if (ctx.out.json) {
    nlohmann::json j = {{"date", date_of_day(today)}, {"due", plan.due_total},
                        {"new", plan.new_count},      {"new_available", plan.new_available},
                        {"items", results_json(results)}, {"answered", results.size()},
                        {"stopped", to_string(session.stop())}};
    j["next_due"] = next_day ? nlohmann::json(date_of_day(*next_day)) : nlohmann::json(nullptr);
    print_json(j);
  } else {
    if (nothing) fmt::print("Nothing to review today.\n");
    else print_summary(ctx, session, results);
    if (next_day) fmt::print("Next review due {}.\n", date_of_day(*next_day));
  }
  return exit_for(session);
}

int run_follow(LearnContext& ctx, const FollowRequest& req) {
  int module = parse_module(req.module);
  ExerciseBank bank = load_bank(ctx.catalog, module);
  if (bank.worked_examples.empty()) throw UsageError(fmt::format("{} has no worked examples", module_name(module)));
  ReviewStore store(ctx.journal);
  const WorkedExample* ex = nullptr;
  if (req.example) {
    for (const auto& e : bank.worked_examples) {
      if (e.id == *req.example) ex = &e;
    }
    if (!ex) {
      std::string ids;
      for (const auto& e : bank.worked_examples) ids += (ids.empty() ? "" : ", ") + e.id;
      throw UsageError(fmt::format("{} has no worked example '{}'", module_name(module), *req.example),
                       "worked examples: " + ids);
    }
  } else {
    for (const auto& e : bank.worked_examples) {
      if (!ex && store.follow_progress(module, e.id) < static_cast<int>(e.steps.size())) ex = &e;
    }
    if (!ex && !req.restart) {
      if (ctx.out.json) {
        print_json({{"module", module}, {"completed_all", true}});
      } else {
        fmt::print("Every worked example of {} is done. Go again with --restart (or --example ID --restart).\n",
                   module_name(module));
      }
      return 0;
    }
    if (!ex) ex = &bank.worked_examples.front();
  }
  int start = store.follow_progress(module, ex->id);
  if (req.restart || start >= static_cast<int>(ex->steps.size())) {
    store.restart_follow(module, ex->id, now_unix());
    start = 0;
  }
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), ctx.out.json);
  PracticeSession session(in, ctx.out.style, store, sched);
  FollowResult r = session.follow(module, *ex, start);
  if (ctx.out.json) {
    print_json({{"module", module},
                {"example", r.example},
                {"title", r.title},
                {"total_steps", r.total_steps},
                {"start_step", r.start_step + 1},
                {"steps_done", r.steps_done},
                {"completed", r.completed()},
                {"steps", r.steps},
                {"stopped", to_string(session.stop())}});
  } else if (!r.completed()) {
    fmt::print("\n{}\n", ctx.out.style.dim(fmt::format("Stopped at step {}/{}; `workbook follow {}` carries on from there.",
                                                   r.steps_done + 1, r.total_steps, module)));
  }
  return exit_for(session);
}

namespace {

// The banks a drill command covers: the module asked for, or (none asked) this week's
// drills: module 11, and module 24 from its bank's `weekly_from` date on.
std::vector<ExerciseBank> drill_banks(const LearnContext& ctx, const std::string& asked, long long today) {
  std::vector<ExerciseBank> banks;
  if (!asked.empty()) {
    int module = parse_module(asked);
    if (module != 11 && module != 24) {
      throw UsageError(fmt::format("oral drills are in modules 11 and 24, not {}", module_name(module)),
                       "workbook drill 11   or   workbook drill 24   (or `workbook drill` for this week's)");
    }
    banks.push_back(load_bank(ctx.catalog, module));
    if (banks.back().drills.empty()) throw UsageError(fmt::format("{} has no drills yet", module_name(module)));
    return banks;
  }
  for (int module : {11, 24}) {
    std::optional<ExerciseBank> bank = find_bank(ctx.catalog, module);
    if (!bank || bank->drills.empty()) continue;
    const auto from = bank->weekly_from.empty() ? std::nullopt : day_of_date(bank->weekly_from);
    if (from && today < *from) continue;
    banks.push_back(std::move(*bank));
  }
  if (banks.empty()) throw UsageError("no module has drills yet", "the drills live in exercises/module11.yaml and module24.yaml");
  return banks;
}

std::string modules_text(const std::vector<ExerciseBank>& banks) {
  std::string text;
  for (const auto& b : banks) text += (text.empty() ? "" : " and ") + module_name(b.module);
  return text;
}

}  // namespace

int run_drill(LearnContext& ctx, const DrillRequest& req) {
  const long long today = day_of(now_unix());
  const std::vector<ExerciseBank> banks = drill_banks(ctx, req.module, today);
  const bool weekly = req.module.empty();
  ReviewStore store(ctx.journal);
  nlohmann::json modules = nlohmann::json::array();
  for (const auto& b : banks) modules.push_back(b.module);
  if (req.status) {
    nlohmann::json all = nlohmann::json::array();
    if (!ctx.out.json) {
      fmt::print("{}\n", ctx.out.style.bold(fmt::format("{} drills, {} (weekly until easy)", modules_text(banks),
                                                    date_of_day(today))));
      fmt::print("{:<28} {:>8} {:>6} {:>10} {:<12}\n", "drill", "attempts", "last", "readiness", "next due");
    }
    for (const auto& bank : banks) {
      for (const auto& d : bank.drills) {
        DrillStatus s = drill_status(store, bank.module, d, today);
        all.push_back(to_json(s));
        if (ctx.out.json) continue;
        std::string last = s.last_covered ? fmt::format("{}/{}", *s.last_covered, *s.total) : "-";
        std::string readiness = s.attempts ? fmt::format("{:.0f} %", s.readiness * 100) : "-";
        std::string due = s.due ? ctx.out.style.yellow("due now") : date_of_day(s.next_due_day) + (s.easy ? " (easy)" : "");
        fmt::print("{:<28} {:>8} {:>6} {:>10} {}\n", d.id, s.attempts, last, readiness, due);
      }
    }
    if (ctx.out.json) {
      nlohmann::json j = {{"modules", modules}, {"date", date_of_day(today)}, {"drills", all}};
      if (!weekly) j["module"] = banks.front().module;
      print_json(j);
    }
    return 0;
  }
  std::vector<std::pair<int, const DrillItem*>> queue;
  for (const auto& bank : banks) {
    for (const auto& d : bank.drills) {
      if (req.drill && d.id != *req.drill) continue;
      if (!req.drill && !req.all && !drill_status(store, bank.module, d, today).due) continue;
      queue.emplace_back(bank.module, &d);
    }
  }
  if (req.drill && queue.empty()) {
    std::string ids;
    for (const auto& bank : banks)
      for (const auto& d : bank.drills) ids += (ids.empty() ? "" : ", ") + d.id;
    throw UsageError(fmt::format("{} has no drill '{}'", modules_text(banks), *req.drill), "drills: " + ids);
  }
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), ctx.out.json);
  PracticeSession session(in, ctx.out.style, store, sched);
  if (queue.empty() && !ctx.out.json) {
    fmt::print("No drill of {} is due today. `workbook drill {}--status` shows when; --all drills anyway.\n",
               modules_text(banks), weekly ? "" : std::to_string(banks.front().module) + " ");
  } else if (weekly && !ctx.out.json) {
    fmt::print("{}\n", ctx.out.style.dim(fmt::format("This week's drills: {} ({} due).", modules_text(banks), queue.size())));
  }
  nlohmann::json results = nlohmann::json::array();
  int covered = 0, total = 0;
  for (const auto& [module, d] : queue) {
    auto r = session.drill(module, *d);
    if (!r) break;
    covered += r->covered;
    total += r->total;
    results.push_back(to_json(*r));
  }
  if (ctx.out.json) {
    nlohmann::json j = {{"modules", modules},
                        {"drills", results},
                        {"covered", covered},
                        {"total", total},
                        {"stopped", to_string(session.stop())}};
    if (!weekly) j["module"] = banks.front().module;
    print_json(j);
  } else if (!results.empty()) {
    fmt::print("\n{}\n", ctx.out.style.bold(fmt::format("{} drill{}: {}/{} points covered.", results.size(),
                                                    results.size() == 1 ? "" : "s", covered, total)));
    if (session.stop() == Stop::interrupted) fmt::print("Interrupted (Ctrl-C): the drills done are kept.\n");
  }
  return exit_for(session);
}

}  // namespace workbook::learn
