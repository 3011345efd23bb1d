// The one next thing to do (see next_step.hpp).
#include "progress/next_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "learn/clock.hpp"

namespace workbook::progress {

namespace {

std::optional<NextStep> run_step(const ModuleProgress& m, const std::string& why) {
  if (m.labs_open.empty()) return std::nullopt;
  const std::string& lab = m.labs_open.front();
  const bool tried = std::find(m.labs_tried.begin(), m.labs_tried.end(), lab) != m.labs_tried.end();
  if (std::find(m.labs_not_run.begin(), m.labs_not_run.end(), lab) != m.labs_not_run.end()) {
    // Nothing ran, so nothing is known broken: the lab waits for a GPU, and the journal goes with it.
    return NextStep{"run", "workbook journal export journal.json",
                    fmt::format("Run the lab {} on a machine with a GPU: its last run here was built, not run (no "
                                "GPU). Your predictions stand where this journal is: export it, then `workbook journal "
                                "import journal.json` on Colab (docs/colab.md), or run it with `--slurm` on a cluster",
                                lab),
                    why, m.module, lab};
  }
  return NextStep{"run", "workbook run " + lab,
                  fmt::format("{} the lab {} until it passes", tried ? "Fix and run" : "Predict, then run", lab), why,
                  m.module, lab};
}

std::optional<NextStep> method_step(const ModuleProgress& m, const std::string& why, bool labs_first) {
  if (labs_first) {
    if (auto s = run_step(m, why)) return s;
  }
  if (!m.first_open_example.empty()) {
    return NextStep{"follow", fmt::format("workbook follow {}", m.module),
                    fmt::format("Follow the worked example '{}' of module {:02}, step by step", m.first_open_example,
                                m.module),
                    why, m.module, ""};
  }
  if (m.items_open > 0) {
    return NextStep{"exercises", fmt::format("workbook exercises {}", m.module),
                    fmt::format("Answer module {:02}'s exercises ({} not answered yet)", m.module, m.items_open), why,
                    m.module, ""};
  }
  return run_step(m, why);
}

// "a1", "a1 and a2", "a1, a2 and a3".
std::string and_list(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  }
  return out;
}

// The first open module of assignment `a` (in the calendar's order) that has a step.
std::optional<NextStep> assignment_step(const ProgressReport& r, const AssignmentStatus& a) {
  const bool behind = a.state == AssignmentState::behind;
  const bool urgent = behind || a.days_left <= kLabsFirstDays;
  const std::string why =
      behind ? fmt::format("no assignment is due any more; {} was due {} and module {} is still open (handed it "
                           "in? workbook handin {})",
                           a.title, a.due, a.open.front(), a.id)
             : fmt::format("{} is due {} ({}): module {} is its first open module", a.title, a.due,
                           when_text(a.days_left), a.open.front());
  for (int n : a.open) {
    const ModuleProgress* m = r.module(n);
    if (!m || m->handed_in) continue;
    if (auto s = method_step(*m, why, urgent)) return s;
  }
  return std::nullopt;
}

// Once no assignment is due any more: the project's topics not yet measured, while the
// report or the presentation is still ahead.
std::optional<NextStep> project_step(const ProgressReport& r) {
  if (!r.course) return std::nullopt;
  const CourseProject& p = r.course->project;
  const auto report = learn::day_of_date(p.report);
  const auto talk = learn::day_of_date(p.presentation_last.empty() ? p.presentation_first : p.presentation_last);
  if (!(report && *report >= r.today) && !(talk && *talk >= r.today)) return std::nullopt;
  int measured = 0;
  for (const auto& t : r.topics) measured += t.measured > 0 ? 1 : 0;
  const std::string ahead =
      report && *report >= r.today
          ? fmt::format("the project report is due {} ({})", p.report, when_text(*report - r.today))
          : fmt::format("the project report was due {}; the presentation is {} ({})", p.report,
                        p.presentation_first, when_text(*learn::day_of_date(p.presentation_first) - r.today));
  for (const auto& t : r.topics) {
    const ModuleProgress* m = r.module(t.module);
    if (p.topics_needed > 0 && measured >= p.topics_needed) break;
    if (t.measured > 0 || !m) continue;
    const std::string why =
        fmt::format("no assignment is due any more; {} and needs {} topics measured ({} so far): module {} ({}) "
                    "has no measured run of yours yet",
                    ahead, p.topics_needed, measured, t.module, t.topic);
    if (auto s = run_step(*m, why)) return s;
  }
  // A topic measured by an experiment counts fully once it is explained with a model.
  for (const auto& t : r.topics) {
    if (t.unexplained.empty()) continue;
    const std::string& e = t.unexplained.front();
    return NextStep{"explain", fmt::format("workbook experiment explain {}", e),
                    fmt::format("Explain experiment {}'s result ({}) with a model: roofline, occupancy, Amdahl", e, t.topic),
                    fmt::format("no assignment is due any more; {}: {} is measured but not yet explained", ahead, t.topic),
                    t.module, ""};
  }
  return std::nullopt;
}

bool upcoming(const AssignmentStatus& a) {
  return a.state == AssignmentState::open || a.state == AssignmentState::due_today;
}

std::optional<NextStep> module_step(const ProgressReport& r) {
  const std::optional<AssignmentStatus> focus = r.plan ? r.plan->focus : std::nullopt;
  if (focus && upcoming(*focus)) {
    if (auto s = assignment_step(r, *focus)) return s;
  }
  if (r.plan) {
    if (auto s = project_step(r)) return s;
  }
  if (focus && focus->state == AssignmentState::behind) {
    if (auto s = assignment_step(r, *focus)) return s;
  }
  const std::string over = r.plan && !r.plan->next ? "the course's dates are all past; " : "";
  for (const auto& m : r.modules) {
    if (m.complete() || m.handed_in) continue;
    const std::string why = fmt::format("{}module {:02} is the first module not complete", over, m.module);
    if (auto s = method_step(m, why, false)) return s;
  }
  return std::nullopt;
}

// The assignments past due with modules open: how to mark them done when they were
// handed in outside the runner.
std::optional<NextStep> behind_step(const ProgressReport& r) {
  if (!r.plan || r.plan->behind.empty()) return std::nullopt;
  std::vector<std::string> titles;
  std::string command = "workbook handin";
  for (const auto& a : r.plan->assignments) {
    if (a.state != AssignmentState::behind) continue;
    titles.push_back(fmt::format("{} (due {})", a.title, a.due));
    command += " " + a.id;
  }
  return NextStep{"handin", command,
                  fmt::format("Behind: {}, past due with modules open; handed in already? Mark {} done",
                              and_list(titles), titles.size() == 1 ? "it" : "them"),
                  "an assignment handed in outside the runner counts as done once marked", 0, ""};
}

// The oral exam's sign-up in the week before it is due, and on the day: said first
// among the things beside the next one (it is outside the runner, and easy to miss).
std::optional<NextStep> sign_up_step(const ProgressReport& r) {
  const auto day = learn::day_of_date(r.oral_sign_up_by);
  if (!day || *day < r.today || *day - r.today > 7) return std::nullopt;
  return NextStep{"sign-up", "workbook drill --status",
                  fmt::format("Sign up for the oral exam: due {} ({}); the drills rehearse it", r.oral_sign_up_by,
                              when_text(*day - r.today)),
                  "the bonus exercises count only with the oral exam", 0, ""};
}

NextStep review_step(const ProgressReport& r) {
  return {"review", "workbook review", fmt::format("Review the {} item{} due today", r.reviews_due,
                                                   r.reviews_due == 1 ? "" : "s"),
          "spaced repetition keeps what you answered", 0, ""};
}

NextStep drill_step(const ProgressReport& r) {
  return {"drill", "workbook drill", fmt::format("Answer the {} oral drill{} due, out loud", r.drills_due(),
                                                 r.drills_due() == 1 ? "" : "s"),
          "the oral exam decides the bonus: weekly until easy", 0, ""};
}

}  // namespace

NextPlan next_steps(const ProgressReport& r) {
  NextPlan plan;
  std::vector<NextStep> habits;
  if (r.reviews_due > 0) habits.push_back(review_step(r));
  if (r.drills_due() > 0) habits.push_back(drill_step(r));
  if (auto s = module_step(r)) {
    plan.next = *s;
    plan.also = habits;
  } else if (!habits.empty()) {
    plan.next = habits.front();
    plan.also.assign(habits.begin() + 1, habits.end());
  } else {
    plan.next = {"done", "workbook progress",
                 "Nothing is open: every module is complete or handed in, and nothing is due",
                 "come back when a review or a drill falls due", 0, ""};
  }
  if (auto b = behind_step(r)) plan.also.push_back(*b);
  if (auto o = sign_up_step(r)) plan.also.insert(plan.also.begin(), *o);
  return plan;
}

std::string next_lab(const ProgressReport& r) {
  const NextStep step = next_steps(r).next;
  if (step.kind == "run" && !step.lab.empty()) return step.lab;
  if (const ModuleProgress* m = r.module(step.module); m && !m->labs_open.empty()) return m->labs_open.front();
  for (const auto& m : r.modules) {
    if (!m.labs_open.empty()) return m.labs_open.front();
  }
  return "";
}

nlohmann::json to_json(const NextPlan& plan) {
  auto one = [](const NextStep& s) {
    return nlohmann::json{{"kind", s.kind}, {"command", s.command}, {"what", s.what}, {"why", s.why},
                          {"module", s.module ? nlohmann::json(s.module) : nlohmann::json(nullptr)},
                          {"lab", s.lab.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.lab)}};
  };
  nlohmann::json also = nlohmann::json::array();
  for (const auto& s : plan.also) also.push_back(one(s));
  return {{"next", one(plan.next)}, {"also", also}};
}

}  // namespace workbook::progress
