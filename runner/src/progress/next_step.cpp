// The one next thing to do (see next_step.hpp).
#include "progress/next_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace workbook::progress {

namespace {

std::optional<NextStep> run_step(const ModuleProgress& m, const std::string& why) {
  if (m.labs_open.empty()) return std::nullopt;
  const std::string& lab = m.labs_open.front();
  const bool tried = std::find(m.labs_tried.begin(), m.labs_tried.end(), lab) != m.labs_tried.end();
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

std::optional<NextStep> module_step(const ProgressReport& r) {
  if (r.plan && r.plan->focus) {
    const AssignmentStatus& a = *r.plan->focus;
    const bool urgent = a.state == AssignmentState::behind || a.days_left <= kLabsFirstDays;
    const std::string why =
        a.state == AssignmentState::behind
            ? fmt::format("{} was due {}, and module {} is still open", a.title, a.due, a.open.front())
            : fmt::format("{} is due {} ({} days): module {} is its first open module", a.title, a.due, a.days_left,
                          a.open.front());
    for (int n : a.open) {
      const ModuleProgress* m = r.module(n);
      if (!m) continue;
      if (auto s = method_step(*m, why, urgent)) return s;
    }
  }
  for (const auto& m : r.modules) {
    if (m.complete()) continue;
    if (auto s = method_step(m, fmt::format("module {:02} is the first module not complete", m.module), false)) return s;
  }
  return std::nullopt;
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
    plan.next = {"done", "workbook progress", "Nothing is open: every module is complete and nothing is due",
                 "come back when a review or a drill falls due", 0, ""};
  }
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

std::string format_next(const NextPlan& plan, const Style& s) {
  std::string out = s.bold(plan.next.what) + "\n";
  out += s.dim("  why: " + plan.next.why) + "\n\n";
  out += "  " + s.cyan(plan.next.command) + "\n";
  if (!plan.also.empty()) {
    out += "\nAlso due today:\n";
    for (const auto& a : plan.also) out += fmt::format("  {:<24} {}\n", a.command, a.what);
  }
  return out;
}

}  // namespace workbook::progress
