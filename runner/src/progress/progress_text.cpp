// `workbook progress`: the screen (see progress_report.hpp). At most 80 columns.
#include <fmt/format.h>

#include "learn/clock.hpp"
#include "progress/progress_report.hpp"

namespace workbook::progress {

namespace {

std::string modules_text(const std::vector<int>& modules) {
  std::string out;
  for (int m : modules) out += (out.empty() ? "" : " ") + std::to_string(m);
  return out.empty() ? "-" : out;
}

std::string when(long long days) {
  if (days == 0) return "today";
  if (days == 1) return "tomorrow";
  if (days > 0) return fmt::format("in {} days", days);
  return days == -1 ? "yesterday" : fmt::format("{} days ago", -days);
}

// `text` cut to at most `width` code points, the last one a '~' when it was cut.
std::string clip(const std::string& text, std::size_t width) {
  std::size_t points = 0, last_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++points > width) return text.substr(0, last_start) + "~";
    last_start = i;
  }
  return text;
}

std::string tally_text(const Tally& t) { return t.total == 0 ? "-" : fmt::format("{}/{}", t.done, t.total); }

std::string this_week(const ProgressReport& r, const Style& s) {
  std::string out = s.bold("This week") + "\n";
  if (r.plan) {
    const CalendarPlan& p = *r.plan;
    if (p.next) {
      out += fmt::format("  Next:    {}, {} ({})\n", p.next->title, learn::date_of_day(p.next->day),
                         when(p.next->day - r.today));
    } else {
      out += "  The course's dates are all past.\n";
    }
    for (const auto& a : p.assignments) {
      if (a.state != AssignmentState::behind) continue;
      out += s.red(fmt::format("  Behind:  {} was due {} ({}); modules open: {}", a.title, a.due, when(a.days_left),
                               modules_text(a.open))) + "\n";
    }
    if (p.focus && p.focus->state != AssignmentState::behind) {
      out += fmt::format("  Focus:   {}: {} of {} modules done; open: {}", p.focus->title, p.focus->done.size(),
                         p.focus->modules.size(), modules_text(p.focus->open));
      out += fmt::format(" (about {:.1f} a week)\n", p.modules_per_week);
    }
    if (p.weeks_left > 0) out += fmt::format("  Weeks left until the last date: {}\n", p.weeks_left);
  } else {
    out += "  No course calendar (data/course.yaml or <workspace>/course.yaml).\n";
  }
  out += fmt::format("  Reviews: {} due{}   Drills: {} due{}\n", r.reviews_due,
                     r.reviews_due ? " (workbook review)" : "", r.drills_due(), r.drills_due() ? " (workbook drill)" : "");
  return out;
}

std::string assignments_line(const CalendarPlan& p, const Style& s) {
  std::string out;
  for (const auto& a : p.assignments) {
    std::string state = fmt::format("{} {}/{}", a.id, a.done.size(), a.modules.size());
    if (a.state == AssignmentState::done) state = s.green(a.id + " done");
    else if (a.state == AssignmentState::behind) state = s.red(state + " behind");
    else state += " due " + a.due.substr(5);
    out += (out.empty() ? "" : "  ") + state;
  }
  return out;
}

std::string route(const ProgressReport& r, const Style& s) {
  if (!r.course || !r.plan) return "";
  std::string out = s.bold("Route to an A") + (r.course->tentative ? s.dim("  (dates tentative)") : "") + "\n";
  out += "  Assignments  " + assignments_line(*r.plan, s) + "\n";
  for (const auto& b : r.bonus) {
    std::string prep = b.modules.empty() ? ""
                       : b.open.empty() ? "; its modules done"
                                        : "; to prepare: module " + modules_text(b.open);
    out += fmt::format("  Bonus        {} (with {}{}){}\n", b.title, b.assignment,
                       b.due.empty() ? "" : ", due " + b.due.substr(5), prep);
  }
  std::string drills;
  for (const auto& d : r.drills) {
    drills += (drills.empty() ? "" : "; ") +
              (!d.offered        ? fmt::format("{}: from {}", d.module, d.weekly_from)
               : d.attempted == 0 ? fmt::format("{}: none tried of {}", d.module, d.total)
                                  : fmt::format("{}: {}/{} easy, {:.0f} %", d.module, d.easy, d.total, d.readiness * 100));
  }
  out += fmt::format("  Oral exam    drills {}{}\n", drills.empty() ? "-" : drills,
                     r.oral_sign_up_by.empty() ? "" : "; sign up by " + r.oral_sign_up_by.substr(5));
  const CourseProject& p = r.course->project;
  out += fmt::format("  Project      proposal {}, report {}, talk {}\n", p.proposal.empty() ? "-" : p.proposal,
                     p.report.empty() ? "-" : p.report, p.presentation_first.empty() ? "-" : p.presentation_first);
  int measured = 0;
  std::string topics;
  for (const auto& t : r.topics) {
    measured += t.measured > 0 ? 1 : 0;
    topics += (topics.empty() ? "" : ", ") + t.topic + (t.measured ? (t.explained ? " ✓✓" : " ✓") : " -");
  }
  out += fmt::format("  Topics       {} of {} measured: {}\n", measured, p.topics_needed, topics.empty() ? "-" : topics);
  return out;
}

std::string module_table(const ProgressReport& r, const Style& s) {
  std::string out = s.bold(fmt::format("{:<36} {:<4} {:>6} {:>6} {:>5}", "Module", "Read", "Follow", "Answer", "Run")) +
                    "\n";
  for (const auto& m : r.modules) {
    const std::string title = clip(m.title, 32);
    std::string line = fmt::format("{:>2}  {:<32} {:<4} {:>6} {:>6} {:>5}", m.module, title, m.read ? "yes" : "-",
                                   tally_text(m.follow), tally_text(m.answer), tally_text(m.run));
    out += (m.complete() ? s.green(line + "  done") : line) + "\n";
  }
  return out;
}

}  // namespace

std::string format_progress(const ProgressReport& r, const Style& s) {
  std::string out = s.bold(fmt::format("Progress, {}", learn::date_of_day(r.today))) + "\n\n";
  out += this_week(r, s) + "\n";
  if (std::string a = route(r, s); !a.empty()) out += a + "\n";
  out += module_table(r, s);
  out += s.dim("Read: counted once a step, an answer or a run of the module is recorded.") + "\n";
  if (!r.topics.empty()) out += s.dim("Topics: ✓ measured, ✓✓ measured and explained.") + "\n";
  return out;
}

}  // namespace workbook::progress
