// `workbook progress`, `next` and `handin`: the screens (see progress_text.hpp). At most 80 columns.
#include "present/progress_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "learn/clock.hpp"
#include "progress/progress_report.hpp"
#include "ui/table.hpp"
#include "ui/wrap.hpp"

namespace workbook::progress {

namespace {

std::string modules_text(const std::vector<int>& modules) {
  std::string out;
  for (int m : modules) out += (out.empty() ? "" : " ") + std::to_string(m);
  return out.empty() ? "-" : out;
}

std::string tally_text(const Tally& t) { return t.total == 0 ? "-" : fmt::format("{}/{}", t.done, t.total); }

// A sentence of the screen: wrapped to `width` after a label column of `indent` spaces.
// A label ("Next:") ends its first line's indent, padded to that column.
std::string line(const std::string& text, std::size_t width, std::size_t indent = 11, const std::string& label = "") {
  std::string first = "  " + label;
  if (!label.empty()) first.resize(std::max(first.size() + 1, indent), ' ');
  return wrap_text(text, width, first, std::string(indent, ' ')) + "\n";
}

// How fast the focus's open modules must go: a pace per week only when its due date is a
// week or more away (on the due day, "4.0 modules a week" would be four modules in hours).
std::string pace_text(const AssignmentStatus& a, double per_week) {
  if (a.days_left <= 0) return "due today";
  if (a.days_left < 7) {
    return fmt::format("{} module{} in {} day{}, by {}", a.open.size(), a.open.size() == 1 ? "" : "s", a.days_left,
                       a.days_left == 1 ? "" : "s", a.due);
  }
  return fmt::format("about {:.1f} modules a week until {}", per_week, a.due);
}

std::string calendar_lines(const ProgressReport& r, const CalendarPlan& p, const Style& s, std::size_t w) {
  std::string out;
  if (p.next) {
    out += line(fmt::format("{}, {} ({})", p.next->title, learn::date_of_day(p.next->day),
                            when_text(p.next->day - r.today)), w, 11, "Next:");
  } else {
    out += line("The course's dates are all past.", w, 2);
  }
  if (p.previous && p.previous->kind != "assignment") {
    out += line(fmt::format("{}, {} ({})", p.previous->title, learn::date_of_day(p.previous->day),
                            when_text(p.previous->day - r.today)), w, 11, "Past:");
  }
  if (p.focus && p.focus->state != AssignmentState::behind) {
    out += line(fmt::format("{}: {} of {} modules done; open: {} ({})", p.focus->title, p.focus->done.size(),
                            p.focus->modules.size(), modules_text(p.focus->open), pace_text(*p.focus, p.modules_per_week)),
                w, 11, "Focus:");
  }
  std::string behind_ids, behind_text;
  int behind = 0;
  for (const auto& a : p.assignments) {
    if (a.state == AssignmentState::handed_in) {
      out += line(fmt::format("{} (marked; due {})", a.title, a.due), w, 13, "Handed in:");
    }
    if (a.state != AssignmentState::behind) continue;
    behind_ids += " " + a.id;
    ++behind;
    behind_text += (behind_text.empty() ? "" : "; ") + fmt::format("{} was due {} ({}), open: {}", a.title, a.due,
                                                                 when_text(a.days_left), modules_text(a.open));
  }
  if (behind == 1) behind_text.replace(behind_text.rfind(", open: "), 8, "; modules open: ");
  if (behind > 0) out += s.red(line(behind_text, w, 11, "Behind:"));  // one entry: the first screen has 30 rows
  if (!behind_ids.empty()) {
    out += wrap_text(fmt::format("Handed in already? Mark {} done: workbook handin{}", behind == 1 ? "it" : "them",
                                 behind_ids),
                     w, std::string(11, ' '), std::string(11, ' ')) + "\n";
  }
  if (p.weeks_left > 0 && p.last) {
    out += line(fmt::format("Weeks left until the last date ({}, {}): {}", p.last->title, learn::date_of_day(p.last->last_day),
                            p.weeks_left), w, 2);
  }
  return out;
}

std::string due_modules(const ProgressReport& r) {
  std::string out;
  for (const auto& d : r.drills) {
    if (d.offered && d.due > 0) out += (out.empty() ? "" : ", ") + fmt::format("module {}: {}", d.module, d.due);
  }
  return out;
}

std::string this_week(const ProgressReport& r, const Style& s, std::size_t w) {
  std::string out = s.bold("This week") + "\n";
  if (r.plan) out += calendar_lines(r, *r.plan, s, w);
  else out += line("No course calendar (data/course.yaml or <workspace>/course.yaml).", w, 2);
  out += line(fmt::format("Exercise reviews due: {}{}", r.reviews_due, r.reviews_due ? " (workbook review)" : ""), w, 4);
  const int drills = r.drills_due();
  out += line(fmt::format("Oral drills due: {}{}", drills,
                          drills ? " (" + due_modules(r) + "; workbook drill)" : ""), w, 4);
  if (!r.ledger_line.empty()) {
    std::string said = r.ledger_line;
    said[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(said[0])));
    out += line(said + " (workbook history --ledger)", w, 4);
  }
  return out;
}

// One assignment in the route's line, plain (for its width) and styled.
std::pair<std::string, std::string> assignment_word(const AssignmentStatus& a, const Style& s) {
  const std::string count = fmt::format("{} {}/{}", a.id, a.done.size(), a.modules.size());
  switch (a.state) {
    case AssignmentState::done: return {a.id + " done", s.green(a.id + " done")};
    case AssignmentState::handed_in: return {a.id + " handed in", s.green(a.id + " handed in")};
    case AssignmentState::behind: return {count + " behind", s.red(count + " behind")};
    default: return {count + " due " + a.due.substr(5), count + " due " + a.due.substr(5)};
  }
}

std::string assignments_line(const CalendarPlan& p, const Style& s, std::size_t w) {
  const std::string label = "  Assignments  ";
  std::string out = label;
  std::size_t used = label.size();
  for (const auto& a : p.assignments) {
    const auto [plain, styled] = assignment_word(a, s);
    const bool first = used == label.size();
    if (!first && w > 0 && used + 2 + plain.size() > w) {
      out += "\n" + std::string(label.size(), ' ');
      used = label.size();
    } else if (!first) {
      out += "  ";
      used += 2;
    }
    out += styled;
    used += plain.size();
  }
  return out + "\n";
}

std::string route_line(const std::string& label, const std::string& text, std::size_t w) {
  return wrap_text(text, w, fmt::format("  {:<13}", label), std::string(15, ' ')) + "\n";
}

std::string drills_text(const ProgressReport& r) {
  std::string drills;
  for (const auto& d : r.drills) {
    drills += (drills.empty() ? "" : "; ") +
              (!d.offered        ? fmt::format("module {}: offered from {}", d.module, d.weekly_from)
               : d.attempted == 0 ? fmt::format("module {}: none of {} tried", d.module, d.total)
                                  : fmt::format("module {}: {} of {} tried, {} easy, readiness {:.0f} % over the {} "
                                                "tried",
                                                d.module, d.attempted, d.total, d.easy, d.readiness * 100, d.attempted));
  }
  return drills.empty() ? "-" : drills;
}

// The oral exam's sign-up against today: "sign up by 12-18 (in 3 days)", "(today)", or
// "sign-up was due 12-18 (1 day ago)" once it has passed.
std::string sign_up_text(const ProgressReport& r) {
  if (r.oral_sign_up_by.empty()) return "";
  const auto day = learn::day_of_date(r.oral_sign_up_by);
  const std::string date = r.oral_sign_up_by.substr(5);
  if (!day) return "; sign up by " + date;
  const long long days = *day - r.today;
  if (days < 0) return fmt::format("; sign-up was due {} ({})", date, when_text(days));
  return fmt::format("; sign up by {} ({})", date, when_text(days));
}

std::string route(const ProgressReport& r, const Style& s, std::size_t w) {
  if (!r.course || !r.plan) return "";
  std::string out = s.bold("Route to an A") + (r.course->tentative ? s.dim("  (dates tentative)") : "") + "\n";
  out += assignments_line(*r.plan, s, w);
  std::string bonus;  // one line for them all: the first screen has 30 rows
  for (const auto& b : r.bonus) {
    std::string prep = b.modules.empty() ? ""
                       : b.open.empty() ? "; its modules done"
                                        : "; to prepare: module " + modules_text(b.open);
    bonus += (bonus.empty() ? "" : "; ") +
             fmt::format("{} (with {}{}{})", b.title, b.assignment, b.due.empty() ? "" : ", due " + b.due.substr(5), prep);
  }
  if (!bonus.empty()) out += route_line("Bonus", bonus, w);
  out += route_line("Oral exam", "drills " + drills_text(r) + sign_up_text(r), w);
  const CourseProject& p = r.course->project;
  const bool two_days = !p.presentation_last.empty() && p.presentation_last != p.presentation_first;
  const std::string talk = p.presentation_first.empty() ? "-"
                           : two_days ? p.presentation_first + " or " + p.presentation_last.substr(5)
                                      : p.presentation_first;
  out += route_line("Project", fmt::format("proposal {}, report {}, talk {}", p.proposal.empty() ? "-" : p.proposal,
                                           p.report.empty() ? "-" : p.report, talk), w);
  int measured = 0;
  std::string topics;
  for (const auto& t : r.topics) {
    measured += t.measured > 0 ? 1 : 0;
    // A no-break space (U+00A0) keeps each mark on the line of its topic when the line wraps.
    topics += (topics.empty() ? "" : ", ") + t.topic + (t.measured ? (t.explained ? "\u00a0✓✓" : "\u00a0✓") : "\u00a0-");
  }
  out += route_line("Topics", fmt::format("{} of {} needed measured: {}", measured, p.topics_needed,
                                          topics.empty() ? "-" : topics), w);
  return out;
}

// One row a module, its title whole (wrapped in its column when the screen is narrow).
std::string module_table(const ProgressReport& r, const Style& s, std::size_t w) {
  Table t{{{"", true}, {"Module", false, true}, {"Read"}, {"Follow", true}, {"Answer", true}, {"Run", true}, {""}},
          {}, "", true};
  for (const auto& m : r.modules) {
    const char* read = !m.read ? "-" : m.read_inferred ? "yes*" : "yes";
    const char* mark = m.complete() ? "done" : m.handed_in ? "handed in" : "";
    std::vector<std::string> row{std::to_string(m.module), m.title, read, tally_text(m.follow), tally_text(m.answer),
                                 tally_text(m.run), mark};
    if (*mark != '\0')
      for (auto& cell : row) cell = s.green(cell);
    t.rows.push_back(std::move(row));
  }
  return render_table(t, w, s);
}

// What each column and mark of the screen counts, as the code above counts it; the
// module table's columns only when it is shown.
std::string legend(const ProgressReport& r, const Style& s, std::size_t w, bool modules) {
  bool inferred = false;
  for (const auto& m : r.modules) inferred = inferred || m.read_inferred;
  std::string out;
  if (modules) {
    out = "Read: yes once `workbook show N` has printed the module's reading in full to a terminal. Follow: worked "
          "examples done to their last step. Answer: exercise items answered at least once. Run: labs with a passing "
          "run of your own copy. done: all three complete; handed in: marked with `workbook handin`.";
    if (inferred) out += " yes*: inferred from activity in a journal older than the record of readings.";
  }
  if (r.plan) out += " Assignments: modules done of those that prepare each.";
  if (!r.topics.empty()) out += " Topics: ✓ a run of the topic's labs measured, ✓✓ measured and explained.";
  if (out.empty()) return "";
  return s.dim(wrap_text(out.substr(out[0] == ' ' ? 1 : 0), w)) + "\n";
}

// The module table folded into one line on the first screen.
std::string modules_count(const ProgressReport& r, std::size_t w) {
  int done = 0, handed_in = 0;
  for (const auto& m : r.modules) {
    done += m.complete() ? 1 : 0;
    handed_in += !m.complete() && m.handed_in ? 1 : 0;
  }
  const std::string marked = handed_in ? fmt::format(", {} handed in", handed_in) : "";
  return wrap_text(fmt::format("Modules: {} of {} done{} (each one: workbook progress --modules)", done,
                               r.modules.size(), marked), w) + "\n";
}

}  // namespace

std::size_t screen_width() {
  const std::size_t w = text_width();
  return w == 0 ? 80 : std::min<std::size_t>(w, 80);
}

std::string format_progress(const ProgressReport& r, const Style& s, std::size_t w, bool modules) {
  std::string out = s.bold(fmt::format("Progress, {}", learn::date_of_day(r.today))) + "\n\n";
  out += this_week(r, s, w) + "\n";
  if (std::string a = route(r, s, w); !a.empty()) out += a + "\n";
  out += modules ? module_table(r, s, w) : modules_count(r, w);
  out += legend(r, s, w, modules);
  return out;
}

std::string format_next(const NextPlan& plan, const Style& s, std::size_t width) {
  std::string out = s.bold(wrap_text(plan.next.what, width)) + "\n";
  out += s.dim(wrap_text("why: " + plan.next.why, width, "  ", "       ")) + "\n\n";
  out += "  " + s.cyan(plan.next.command) + "\n";
  if (!plan.also.empty()) {
    out += "\nAlso:\n";
    for (const auto& a : plan.also) {
      out += "  " + s.cyan(a.command) + "\n" + wrap_text(a.what, width, "      ", "      ") + "\n";
    }
  }
  return out;
}

std::string format_handin(const HandinResult& r) {
  if (r.items.empty() && r.marks.empty())
    return "Nothing is marked handed in. Mark what you handed in outside the runner: workbook handin a1 a2\n";
  if (r.items.empty()) {
    std::string out = "Marked handed in:\n";
    for (const auto& [item, when] : r.marks) out += fmt::format("  {:<10} since {}\n", item, when.substr(0, 10));
    return out + "Undo one: workbook handin --undo ITEM\n";
  }
  std::string changed, same, words, out;
  for (const auto& i : r.items) {
    const std::string name = i.kind == "assignment" ? fmt::format("{} ({})", i.title, i.key) : i.title;
    (i.changed ? changed : same) += ((i.changed ? changed : same).empty() ? "" : ", ") + name;
    words += " " + (i.kind == "module" ? i.key.substr(6) : i.key);
  }
  if (!changed.empty()) out += fmt::format("{}: {}\n", r.undo ? "No longer marked handed in" : "Marked handed in", changed);
  if (!same.empty()) out += fmt::format("{}: {}\n", r.undo ? "Was not marked handed in" : "Already marked handed in", same);
  out += r.undo ? "Mark again: workbook handin" + words + "\n" : "Undo: workbook handin --undo" + words + "\n";
  return out + fmt::format("`workbook next` and `workbook progress` count {}{} done.\n", r.items.size() == 1 ? "it" : "them",
                           r.undo ? " by your record again, not" : "");
}

}  // namespace workbook::progress
