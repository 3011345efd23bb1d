// The learning commands' logic (see practice.hpp).
#include "learn/practice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "learn/banks.hpp"
#include "learn/clock.hpp"
#include "learn/practice_outcome.hpp"
#include "learn/practice_print.hpp"
#include "learn/practice_session.hpp"
#include "learn/session_queue.hpp"
#include "util/error.hpp"
#include "util/seed.hpp"

namespace workbook::learn {

namespace {

int exit_for(const PracticeSession& s) { return s.stop() == Stop::interrupted ? kInterruptedExit : 0; }

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
                                                std::vector<SkippedCard>& skipped) {
  std::vector<const ExerciseItem*> items;
  const std::vector<StoredCard> cards = store.cards();
  for (const auto& it : bank.items) {
    if (req.item && it.id != *req.item) continue;
    if (req.variant && !it.variant) continue;
    auto card = std::find_if(cards.begin(), cards.end(), [&](const StoredCard& c) { return c.module == bank.module && c.item == it.id; });
    if (!req.all && !req.item && card != cards.end() && card->card.due_day() > today) {
      skipped.push_back({card->item, card->card.due_day()});
      continue;
    }
    items.push_back(&it);
  }
  return items;
}

}  // namespace

int run_exercises(LearnContext& ctx, const ExercisesRequest& req) {
  int module = parse_module(req.module);
  ExerciseBank bank = load_bank(ctx.catalog, module);
  ReviewStore store(ctx.journal);
  const long long today = day_of(now_unix());
  ExercisesOutcome o;
  o.plan.module = module;
  o.plan.pass_fail = req.pass_fail;
  std::vector<const ExerciseItem*> items = exercise_items(req, bank, store, today, o.plan.skipped);
  if (items.empty() && o.plan.skipped.empty()) {
    std::string ids;
    for (const auto& it : bank.items) {
      if (!req.variant || it.variant) ids += (ids.empty() ? "" : ", ") + it.id;
    }
    if (req.item) throw UsageError(fmt::format("{} has no item '{}'{}", module_id(module), *req.item,
                                               req.variant ? " with a variant" : ""),
                                   "items: " + (ids.empty() ? std::string("(none)") : ids));
    throw UsageError(fmt::format("{} has no {}", module_id(module), req.variant ? "items with variants" : "items"));
  }
  const std::uint64_t seed = req.seed ? *req.seed : new_seed();
  if (req.variant) o.plan.seed = seed;
  o.plan.asked = items.size();
  PracticePrinter& printer = ctx.printer;
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), printer.quiet());
  PracticeSession session(in, ctx.out.style, store, sched);
  printer.exercises_start(o.plan);
  std::vector<QueuedItem> line;
  for (const ExerciseItem* it : items) line.push_back({module, it, false});
  SessionQueue queue(std::move(line));
  o.results = ask_queue(session, queue, [&](const QueuedItem& e) {
    ItemOptions opt;
    opt.pass_fail = req.pass_fail;
    opt.source = "exercises";
    if (req.variant) opt.variant = draw_variant(*e.item, seed);
    return opt;
  });
  o.stop = session.stop();
  printer.exercises_end(o);
  return exit_for(session);
}

namespace {

// A review session before it starts: what the learner is told, and the items in order.
struct ReviewLine {
  ReviewPlan plan;
  std::vector<QueuedItem> queue;
};

// What is due (most overdue first), then new items up to the day's limit: the modules of
// the assignment due next first, then the others, each module's in bank order.
ReviewLine plan_review(const ReviewRequest& req, const std::vector<ExerciseBank>& banks, const ReviewStore& store,
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
  ReviewLine line;
  line.plan.today = today;
  for (const auto& c : store.due(today)) {
    const ExerciseItem* it = find(c.module, c.item);
    if (!it) continue;  // the item left the bank
    ++line.plan.due;
    if (static_cast<int>(line.queue.size()) < req.limit) line.queue.push_back({c.module, it, false});
  }
  int new_left = std::max(0, req.new_limit - store.introduced_on(today));
  for (int module : new_item_module_order(req.course, today)) {
    for (const auto& b : banks) {
      if (b.module != module) continue;
      for (const auto& it : b.items) {
        if (store.card(b.module, it.id)) continue;
        ++line.plan.fresh_available;
        if (new_left > 0 && static_cast<int>(line.queue.size()) < req.limit) {
          line.queue.push_back({b.module, &it, true});
          --new_left;
          ++line.plan.fresh;
        }
      }
    }
  }
  line.plan.queued = line.queue.size();
  return line;
}

// When the next card is due (nullopt: no card yet).
std::optional<long long> next_due_day(const ReviewStore& store) {
  std::optional<long long> next;
  for (const auto& c : store.cards()) {
    if (!next || c.card.due_day() < *next) next = c.card.due_day();
  }
  return next;
}

}  // namespace

int run_review(LearnContext& ctx, const ReviewRequest& req) {
  if (req.limit < 1) throw UsageError("--limit must be at least 1");
  if (req.new_limit < 0) throw UsageError("--new must not be negative");
  auto banks = load_all_banks(ctx.catalog);
  ReviewStore store(ctx.journal);
  fsrs::Scheduler sched;
  const long long today = day_of(now_unix());
  ReviewLine line = plan_review(req, banks, store, today);
  ReviewOutcome o;
  o.plan = line.plan;
  PracticePrinter& printer = ctx.printer;
  LearnerInput in(interactive_terminal(), printer.quiet());
  PracticeSession session(in, ctx.out.style, store, sched);
  printer.review_start(o.plan);
  SessionQueue queue(std::move(line.queue));
  o.results = ask_queue(session, queue, [&](const QueuedItem&) {
    ItemOptions opt;
    opt.pass_fail = req.pass_fail;
    opt.source = "review";
    return opt;
  });
  o.stop = session.stop();
  o.next_due_day = next_due_day(store);  // after this session
  printer.review_end(o);
  return exit_for(session);
}

namespace {

// The worked example `follow` walks: the one asked for, else the first not done (with
// --restart, the first); nullptr when every one is done and --restart was not given.
const WorkedExample* follow_example(const FollowRequest& req, const ExerciseBank& bank, const ReviewStore& store) {
  const WorkedExample* ex = nullptr;
  if (req.example) {
    for (const auto& e : bank.worked_examples) {
      if (e.id == *req.example) ex = &e;
    }
    if (!ex) {
      std::string ids;
      for (const auto& e : bank.worked_examples) ids += (ids.empty() ? "" : ", ") + e.id;
      throw UsageError(fmt::format("{} has no worked example '{}'", module_id(bank.module), *req.example),
                       "worked examples: " + ids);
    }
    return ex;
  }
  for (const auto& e : bank.worked_examples) {
    if (!ex && store.follow_progress(bank.module, e.id) < static_cast<int>(e.steps.size())) ex = &e;
  }
  if (!ex && req.restart) ex = &bank.worked_examples.front();
  return ex;
}

}  // namespace

int run_follow(LearnContext& ctx, const FollowRequest& req) {
  int module = parse_module(req.module);
  ExerciseBank bank = load_bank(ctx.catalog, module);
  if (bank.worked_examples.empty()) throw UsageError(fmt::format("{} has no worked examples", module_id(module)));
  ReviewStore store(ctx.journal);
  PracticePrinter& printer = ctx.printer;
  FollowOutcome o;
  o.module = module;
  const WorkedExample* ex = follow_example(req, bank, store);
  if (!ex) {
    printer.follow_end(o);  // every worked example is done
    return 0;
  }
  int start = store.follow_progress(module, ex->id);
  if (req.restart || start >= static_cast<int>(ex->steps.size())) {
    store.restart_follow(module, ex->id, now_unix());
    start = 0;
  }
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), printer.quiet());
  PracticeSession session(in, ctx.out.style, store, sched);
  o.result = session.follow(module, *ex, start);
  o.stop = session.stop();
  printer.follow_end(o);
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
      throw UsageError(fmt::format("oral drills are in modules 11 and 24, not {}", module_id(module)),
                       "workbook drill 11   or   workbook drill 24   (or `workbook drill` for this week's)");
    }
    banks.push_back(load_bank(ctx.catalog, module));
    if (banks.back().drills.empty()) throw UsageError(fmt::format("{} has no drills yet", module_id(module)));
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

// The drills to run: the one asked for (--drill), every one (--all), else the due ones.
std::vector<std::pair<int, const DrillItem*>> drill_queue(const DrillRequest& req, const std::vector<ExerciseBank>& banks,
                                                          const std::vector<int>& modules, const ReviewStore& store,
                                                          long long today) {
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
    throw UsageError(fmt::format("{} has no drill '{}'", modules_text(modules), *req.drill), "drills: " + ids);
  }
  return queue;
}

}  // namespace

int run_drill(LearnContext& ctx, const DrillRequest& req) {
  const long long today = day_of(now_unix());
  const std::vector<ExerciseBank> banks = drill_banks(ctx, req.module, today);
  const bool weekly = req.module.empty();
  ReviewStore store(ctx.journal);
  std::vector<int> modules;
  for (const auto& b : banks) modules.push_back(b.module);
  PracticePrinter& printer = ctx.printer;
  if (req.status) {
    DrillStatusReport report{modules, weekly, today, {}};
    for (const auto& bank : banks) {
      for (const auto& d : bank.drills) report.drills.push_back(drill_status(store, bank.module, d, today));
    }
    printer.drill_status_report(report);
    return 0;
  }
  const auto queue = drill_queue(req, banks, modules, store, today);
  fsrs::Scheduler sched;
  LearnerInput in(interactive_terminal(), printer.quiet());
  PracticeSession session(in, ctx.out.style, store, sched);
  DrillOutcome o;
  o.plan = {modules, weekly, queue.size()};
  printer.drill_start(o.plan);
  for (const auto& [module, d] : queue) {
    auto r = session.drill(module, *d);
    if (!r) break;
    o.results.push_back(*r);
  }
  o.stop = session.stop();
  printer.drill_end(o);
  return exit_for(session);
}

}  // namespace workbook::learn
