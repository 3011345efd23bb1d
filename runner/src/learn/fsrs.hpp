// FSRS-6, the Free Spaced Repetition Scheduler, pinned: its 21 default weights, the
// power forgetting curve R(t,S) = (1 + factor*t/S)^(-w20) with factor = 0.9^(-1/w20) - 1,
// initial stability and difficulty, stability after a recall, after a lapse and after a
// same-day review, difficulty with linear damping and mean reversion, and the interval
// for a desired retention. No fuzz.
//
// Short-term (re)learning steps, as Anki and ts-fsrs have them (default: learning 1 min
// and 10 min, relearning 10 min). A new card, and a review card rated Again, go through
// the steps before they are scheduled in days: Again goes back to the first step, Hard
// repeats the step (on the first step: halfway between the first two, or 1.5 times the
// only one), Good moves to the next step or, after the last, graduates to review; Easy
// graduates at once. A card on a step is due again the same day, minutes later
// (Outcome::due_in_minutes; its interval is 0 days). At every step S and D change by the
// same formulas as without steps (the short-term formula on the same day), so the memory
// state never depends on the steps; only when the card is next due does.
//
// Checked against ts-fsrs 5.4.2 ("FSRS-6.0") with enable_fuzz false, learning_steps [] and
// relearning_steps [] (tests/learn/fsrs_test.cpp, tests/learn/fsrs_golden.mjs; Params with
// no steps: whole_days()). One deliberate difference: ts-fsrs keeps Hard < Good < Easy by
// pushing Good and Easy a day past Hard/Good even above maximum_interval; here
// maximum_interval is a hard cap.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace workbook::fsrs {

enum class Rating { again = 1, hard = 2, good = 3, easy = 4 };
const char* to_string(Rating r);
// "1".."4", "again", "hard", "good", "easy" (or their first letter); nullopt otherwise.
std::optional<Rating> parse_rating(const std::string& text);
// Pass/fail mode (for graders who press Hard when they mean a miss): pass = Good, fail = Again.
inline Rating from_pass_fail(bool pass) { return pass ? Rating::good : Rating::again; }
// "p", "pass", "y", "yes", "1"... : true; "f", "fail", "n", "no", "0": false; else nullopt.
std::optional<bool> parse_pass_fail(const std::string& text);

// fresh: never reviewed ("new"); learning, relearning: on a short-term step.
enum class State { fresh, learning, review, relearning };
const char* to_string(State s);

// The 21 default weights of FSRS-6 (w0..w20; w20 is the decay of the forgetting curve).
inline constexpr std::array<double, 21> kDefaultWeights = {
    0.212,  1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001,  1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542};

struct Params {
  std::array<double, 21> w = kDefaultWeights;
  double desired_retention = 0.9;  // in (0, 1)
  int maximum_interval = 36500;    // days
  bool short_term = true;          // same-day reviews use FSRS-6's short-term formula
  std::vector<int> learning_steps = {1, 10};  // minutes, each under a day; empty: none
  std::vector<int> relearning_steps = {10};   // after a lapse
};

// The parameters without (re)learning steps: whole days only, as the golden tests compare.
Params whole_days();

struct Memory {
  double stability = 0;   // days until R falls to 90 %
  double difficulty = 0;  // 1..10
};

struct Card {
  State state = State::fresh;
  Memory memory;
  long long last_day = 0;  // day number of the last review (see learn/clock.hpp)
  int interval = 0;        // days scheduled at the last review
  int reps = 0, lapses = 0;
  int step = 0;            // learning, relearning: the step the card is on (0-based)
  long long due_day() const { return last_day + interval; }
};

// What one review did.
struct Outcome {
  Card card;                             // the card after the review
  int elapsed_days = 0;                  // since the previous review (0 for a new card)
  std::optional<double> retrievability;  // R at the review; none for a new card
  int due_in_minutes = 0;                // > 0: on a (re)learning step, due again this much later today
};

class Scheduler {
 public:
  explicit Scheduler(Params p = {});
  const Params& params() const { return p_; }

  double factor() const { return factor_; }
  double retrievability(double elapsed_days, double stability) const;
  double init_stability(Rating g) const;
  double init_difficulty(Rating g) const;  // not clamped (mean reversion target uses D0(Easy))
  double next_difficulty(double d, Rating g) const;
  double recall_stability(double d, double s, double r, Rating g) const;
  double forget_stability(double d, double s, double r) const;
  double short_term_stability(double s, Rating g) const;
  // The memory state after rating `g` `elapsed_days` after the last review (nullopt: new).
  Memory next_memory(const std::optional<Memory>& m, int elapsed_days, Rating g) const;
  // Days until R falls to the desired retention, rounded, within [1, maximum_interval].
  int next_interval(double stability) const;
  // Reviews `card` on day `today` with rating `g`.
  Outcome review(const Card& card, long long today, Rating g) const;

 private:
  // The interval of a card in review rated g (not Again), Hard <= Good < Easy.
  int review_interval(const Card& card, int elapsed, Rating g) const;
  // The (re)learning step after rating g on step `step` of `steps`: the minutes until it
  // is due and the step it is then on; minutes 0: it graduates.
  static std::pair<int, int> next_step(const std::vector<int>& steps, int step, Rating g);

  Params p_;
  double factor_ = 0, interval_modifier_ = 0;
};

}  // namespace workbook::fsrs
