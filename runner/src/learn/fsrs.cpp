// FSRS-6 (see fsrs.hpp). Formulas follow the FSRS-6 description and ts-fsrs 5.4.2.
#include "learn/fsrs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook::fsrs {

namespace {

constexpr double kMinStability = 1e-3;
constexpr double kMaxStability = 36500;

int grade(Rating g) { return static_cast<int>(g); }

}  // namespace

const char* to_string(Rating r) {
  switch (r) {
    case Rating::again: return "again";
    case Rating::hard: return "hard";
    case Rating::good: return "good";
    case Rating::easy: return "easy";
  }
  return "?";
}

const char* to_string(State s) {
  switch (s) {
    case State::fresh: return "new";
    case State::learning: return "learning";
    case State::review: return "review";
    case State::relearning: return "relearning";
  }
  return "?";
}

Params whole_days() {
  Params p;
  p.learning_steps.clear();
  p.relearning_steps.clear();
  return p;
}

std::optional<Rating> parse_rating(const std::string& text) {
  std::string t = lower(trim(text));
  if (t == "1" || t == "a" || t == "again") return Rating::again;
  if (t == "2" || t == "h" || t == "hard") return Rating::hard;
  if (t == "3" || t == "g" || t == "good") return Rating::good;
  if (t == "4" || t == "e" || t == "easy") return Rating::easy;
  return std::nullopt;
}

std::optional<bool> parse_pass_fail(const std::string& text) {
  std::string t = lower(trim(text));
  if (t == "p" || t == "pass" || t == "y" || t == "yes" || t == "1") return true;
  if (t == "f" || t == "fail" || t == "n" || t == "no" || t == "0") return false;
  return std::nullopt;
}

Scheduler::Scheduler(Params p) : p_(p) {
  if (!(p_.desired_retention > 0 && p_.desired_retention < 1)) {
    throw UsageError("the desired retention must be between 0 and 1 (exclusive)");
  }
  if (p_.maximum_interval < 1) throw UsageError("the maximum interval must be at least one day");
  for (const auto* steps : {&p_.learning_steps, &p_.relearning_steps}) {
    for (int m : *steps) {
      if (m < 1 || m >= 1440) throw UsageError("a learning step is from 1 minute to less than a day (1440 minutes)");
    }
  }
  const double decay = -p_.w[20];
  factor_ = std::pow(0.9, 1.0 / decay) - 1;
  interval_modifier_ = (std::pow(p_.desired_retention, 1.0 / decay) - 1) / factor_;
}

double Scheduler::retrievability(double elapsed_days, double stability) const {
  return std::pow(1 + factor_ * elapsed_days / stability, -p_.w[20]);
}

double Scheduler::init_stability(Rating g) const { return std::max(p_.w[static_cast<std::size_t>(grade(g) - 1)], 0.1); }

double Scheduler::init_difficulty(Rating g) const { return p_.w[4] - std::exp((grade(g) - 1) * p_.w[5]) + 1; }

double Scheduler::next_difficulty(double d, Rating g) const {
  const double delta = -p_.w[6] * (grade(g) - 3);
  const double damped = d + delta * (10 - d) / 9;  // linear damping
  const double reverted = p_.w[7] * init_difficulty(Rating::easy) + (1 - p_.w[7]) * damped;  // mean reversion
  return std::clamp(reverted, 1.0, 10.0);
}

double Scheduler::recall_stability(double d, double s, double r, Rating g) const {
  const auto& w = p_.w;
  const double hard_penalty = g == Rating::hard ? w[15] : 1;
  const double easy_bonus = g == Rating::easy ? w[16] : 1;
  const double grow = std::exp(w[8]) * (11 - d) * std::pow(s, -w[9]) * (std::exp((1 - r) * w[10]) - 1);
  return std::clamp(s * (1 + grow * hard_penalty * easy_bonus), kMinStability, kMaxStability);
}

double Scheduler::forget_stability(double d, double s, double r) const {
  const auto& w = p_.w;
  const double sf = w[11] * std::pow(d, -w[12]) * (std::pow(s + 1, w[13]) - 1) * std::exp((1 - r) * w[14]);
  const double forgot = std::clamp(sf, kMinStability, kMaxStability);
  // FSRS-6: after a lapse the stability never exceeds S / e^(w17*w18) (S without short-term).
  const double cap = p_.short_term ? s / std::exp(w[17] * w[18]) : s;
  return std::min(std::max(cap, kMinStability), forgot);
}

double Scheduler::short_term_stability(double s, Rating g) const {
  const auto& w = p_.w;
  double sinc = std::pow(s, -w[19]) * std::exp(w[17] * (grade(g) - 3 + w[18]));
  if (grade(g) >= 2) sinc = std::max(sinc, 1.0);  // a same-day success never lowers S
  return std::clamp(s * sinc, kMinStability, kMaxStability);
}

Memory Scheduler::next_memory(const std::optional<Memory>& m, int elapsed_days, Rating g) const {
  if (!m) return {init_stability(g), std::clamp(init_difficulty(g), 1.0, 10.0)};
  if (elapsed_days < 0) throw Error(Exit::usage, "a review cannot come before the previous one");
  Memory out;
  if (elapsed_days == 0 && p_.short_term) {
    out.stability = short_term_stability(m->stability, g);
  } else {
    const double r = retrievability(elapsed_days, m->stability);
    out.stability = g == Rating::again ? forget_stability(m->difficulty, m->stability, r)
                                       : recall_stability(m->difficulty, m->stability, r, g);
  }
  out.difficulty = next_difficulty(m->difficulty, g);
  return out;
}

int Scheduler::next_interval(double stability) const {
  const double days = std::round(stability * interval_modifier_);
  return static_cast<int>(std::clamp(days, 1.0, static_cast<double>(p_.maximum_interval)));
}

std::pair<int, int> Scheduler::next_step(const std::vector<int>& steps, int step, Rating g) {
  const int n = static_cast<int>(steps.size());
  if (n == 0 || g == Rating::easy) return {0, 0};
  step = std::clamp(step, 0, n - 1);
  const auto at = [&](int i) { return steps[static_cast<std::size_t>(i)]; };
  switch (g) {
    case Rating::again: return {at(0), 0};
    case Rating::hard:
      if (step > 0) return {at(step), step};
      return {n == 1 ? static_cast<int>(std::lround(at(0) * 1.5)) : static_cast<int>(std::lround((at(0) + at(1)) / 2.0)), 0};
    case Rating::good: return step + 1 < n ? std::pair<int, int>{at(step + 1), step + 1} : std::pair<int, int>{0, 0};
    case Rating::easy: break;
  }
  return {0, 0};
}

int Scheduler::review_interval(const Card& card, int elapsed, Rating g) const {
  // Hard <= Good < Easy, as ts-fsrs orders them (then capped at the maximum interval).
  const int hard = next_interval(next_memory(card.memory, elapsed, Rating::hard).stability);
  int good = next_interval(next_memory(card.memory, elapsed, Rating::good).stability);
  const int hard_ivl = std::min(hard, good);
  good = std::max(good, hard_ivl + 1);
  const int easy = std::max(next_interval(next_memory(card.memory, elapsed, Rating::easy).stability), good + 1);
  const int chosen = g == Rating::hard ? hard_ivl : g == Rating::good ? good : easy;
  return std::min(chosen, p_.maximum_interval);
}

Outcome Scheduler::review(const Card& card, long long today, Rating g) const {
  Outcome out;
  out.card = card;
  out.card.reps = card.reps + 1;
  out.card.last_day = today;
  const bool fresh = card.state == State::fresh;
  const int elapsed = fresh ? 0 : static_cast<int>(std::max(0LL, today - card.last_day));
  if (!fresh) {
    out.elapsed_days = elapsed;
    out.retrievability = retrievability(elapsed, card.memory.stability);
  }
  out.card.memory = fresh ? next_memory(std::nullopt, 0, g) : next_memory(card.memory, elapsed, g);
  const bool lapse = card.state == State::review && g == Rating::again;
  if (lapse) out.card.lapses = card.lapses + 1;
  if (card.state == State::review && !lapse) {
    out.card.interval = review_interval(card, elapsed, g);
    return out;
  }
  // New, learning, relearning, or a lapse: the (re)learning steps, then days.
  const bool learning = fresh || card.state == State::learning;
  const auto [minutes, step] = next_step(learning ? p_.learning_steps : p_.relearning_steps,
                                         card.state == State::review ? 0 : card.step, g);
  out.card.step = step;
  if (minutes > 0) {
    out.card.state = learning ? State::learning : State::relearning;
    out.card.interval = 0;
    out.due_in_minutes = minutes;
    return out;
  }
  out.card.state = State::review;
  out.card.step = 0;
  out.card.interval = next_interval(out.card.memory.stability);
  return out;
}

}  // namespace workbook::fsrs
