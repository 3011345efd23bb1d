// The flows of the learning commands, independent of the command line: one exercise item
// (prompt, answer, numbers checked, model answer, self-grade, scheduled and recorded),
// one worked example step by step, one oral drill against the clock. Every answer is
// written to the journal as soon as it is given.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "content/exercises.hpp"
#include "learn/answer_check.hpp"
#include "learn/fsrs.hpp"
#include "learn/input.hpp"
#include "learn/review_store.hpp"
#include "ui/style.hpp"

namespace workbook::learn {

// Why a session ended.
enum class Stop { done, end_of_input, quit, interrupted };
const char* to_string(Stop s);

struct ItemOptions {
  bool pass_fail = false;
  std::string source = "exercises";     // or "review"
  std::optional<DrawnVariant> variant;  // ask with these fresh numbers
};

struct ItemResult {
  int module = 0;
  std::string item, kind, prompt, answer;
  AnswerCheck check;
  std::optional<DrawnVariant> variant;
  std::string mode;  // "scale" or "pass-fail"
  fsrs::Rating rating = fsrs::Rating::good;
  bool was_new = false;
  int interval_before = 0, interval_after = 0;
  int due_in_minutes = 0;  // > 0: on a (re)learning step, asked again this session
  std::string state;       // the card's state after the review ("learning", "review", ...)
  std::string due;         // date
  double duration_s = 0;
};
nlohmann::json to_json(const ItemResult& r);

struct FollowResult {
  int module = 0;
  std::string example, title;
  int total_steps = 0, start_step = 0, steps_done = 0;  // steps_done: after this session
  nlohmann::json steps = nlohmann::json::array();
  bool completed() const { return steps_done >= total_steps; }
};

// A drill's schedule: weekly until easy (full marks on the last two attempts), then
// every four weeks.
struct DrillStatus {
  int module = 0;
  std::string drill, question;
  int attempts = 0;
  std::optional<int> last_covered, total;
  double readiness = 0;  // mean share of points covered over the last three attempts, 0..1
  bool easy = false;
  long long next_due_day = 0;  // today when never attempted
  bool due = true;
};
DrillStatus drill_status(const ReviewStore& store, int module, const DrillItem& d, long long today);
nlohmann::json to_json(const DrillStatus& s);

struct DrillResult {
  int module = 0;
  std::string drill;
  int covered = 0, total = 0;
  std::vector<int> missed;
  std::vector<int> reread;  // modules to reread (when a point was missed)
  double seconds = 0;
  std::string next_due;
};
nlohmann::json to_json(const DrillResult& r);

// Parses "1 3 4", "1,3", "all", "none" or "" (none) against `count` points; nullopt if
// the text names something else.
std::optional<std::vector<int>> parse_points(const std::string& text, int count);

// One sitting of practice: asks items, walks worked examples and runs drills against one
// learner input, recording each answer in the review store as soon as it is given.
class PracticeSession {
 public:
  PracticeSession(LearnerInput& in, const Style& style, ReviewStore& store, const fsrs::Scheduler& sched);

  // Asks one item and records the review; nullopt when the learner stopped (see stop()).
  std::optional<ItemResult> item(int module, const ExerciseItem& item, const ItemOptions& opt);
  // Walks a worked example from step `start`; records each step as it is done.
  FollowResult follow(int module, const WorkedExample& ex, int start);
  // One drill: the question, the clock, the checklist; nullopt when the learner stopped.
  std::optional<DrillResult> drill(int module, const DrillItem& d);

  Stop stop() const { return stop_; }
  bool stopped() const { return stop_ != Stop::done; }

 private:
  std::optional<std::string> read(const std::string& prompt);
  // The learner's self-grade (1-4, or p/f with pass_fail); nullopt at the end of input or
  // on q (then stop() says quit).
  std::optional<fsrs::Rating> ask_rating(bool pass_fail);
  void show_numbers(const AnswerCheck& check);

  LearnerInput& in_;
  const Style& s_;
  ReviewStore& store_;
  const fsrs::Scheduler& sched_;
  Stop stop_ = Stop::done;
};

}  // namespace workbook::learn
