// The learning flows (see practice_session.hpp).
#include "learn/practice_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <set>

#include "learn/clock.hpp"
#include "ui/wrap.hpp"
#include "util/text.hpp"
#include "content/lab_id.hpp"

namespace workbook::learn {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string rule(const Style& s, const std::string& title) {
  std::string line = "── " + title + " ";
  std::size_t width = 0;
  for (unsigned char c : line) width += (c & 0xC0) != 0x80;  // count UTF-8 code points
  for (; width < 72; ++width) line += "─";
  return s.bold(line);
}

nlohmann::json numbers_json(const AnswerCheck& c) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : c.numbers) {
    nlohmann::json j = {{"name", n.name}, {"expected", n.expected}, {"unit", n.unit}, {"tolerance", n.tolerance},
                        {"ok", n.ok}};
    j["given"] = n.given ? nlohmann::json(*n.given) : nlohmann::json(nullptr);
    if (!n.note.empty()) j["note"] = n.note;
    out.push_back(j);
  }
  return out;
}

// "q" or "quit" (any case, spaces around): the learner ends the session.
bool is_quit(const std::string& line) {
  const std::string t = lower(trim(line));
  return t == "q" || t == "quit";
}

}  // namespace

const char* to_string(Stop s) {
  switch (s) {
    case Stop::done: return "done";
    case Stop::end_of_input: return "end of input";
    case Stop::quit: return "quit";
    case Stop::interrupted: return "interrupted";
  }
  return "?";
}

nlohmann::json to_json(const ItemResult& r) {
  nlohmann::json j = {{"module", r.module},
                      {"item", r.item},
                      {"kind", r.kind},
                      {"prompt", r.prompt},
                      {"answer", r.answer},
                      {"numbers", numbers_json(r.check)},
                      {"numbers_correct", r.check.correct()},
                      {"mode", r.mode},
                      {"rating", static_cast<int>(r.rating)},
                      {"grade", fsrs::to_string(r.rating)},
                      {"new", r.was_new},
                      {"interval_before", r.interval_before},
                      {"interval_after", r.interval_after},
                      {"due_in_minutes", r.due_in_minutes},
                      {"state", r.state},
                      {"due", r.due},
                      {"duration_s", r.duration_s}};
  if (r.variant) j["variant"] = {{"seed", r.variant->seed}, {"values", r.variant->values}};
  return j;
}

nlohmann::json to_json(const DrillStatus& s) {
  nlohmann::json j = {{"module", s.module},          {"drill", s.drill},       {"question", s.question},
                      {"attempts", s.attempts},      {"readiness", s.readiness}, {"easy", s.easy},
                      {"next_due", date_of_day(s.next_due_day)}, {"due", s.due}};
  j["last_covered"] = s.last_covered ? nlohmann::json(*s.last_covered) : nlohmann::json(nullptr);
  j["total"] = s.total ? nlohmann::json(*s.total) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json to_json(const DrillResult& r) {
  return {{"module", r.module}, {"drill", r.drill},   {"covered", r.covered},   {"total", r.total},
          {"missed", r.missed}, {"reread", r.reread}, {"seconds", r.seconds}, {"next_due", r.next_due}};
}

DrillStatus drill_status(const ReviewStore& store, int module, const DrillItem& d, long long today) {
  DrillStatus s;
  s.module = module;
  s.drill = d.id;
  s.question = d.question;
  auto attempts = store.drill_attempts(module, d.id);
  s.attempts = static_cast<int>(attempts.size());
  s.next_due_day = today;
  if (attempts.empty()) return s;
  const auto& last = attempts.back();
  s.last_covered = last.covered;
  s.total = last.total;
  double sum = 0;
  int n = 0;
  for (auto it = attempts.rbegin(); it != attempts.rend() && n < 3; ++it, ++n) {
    sum += it->total > 0 ? static_cast<double>(it->covered) / it->total : 0;
  }
  s.readiness = sum / n;
  s.easy = attempts.size() >= 2 && last.covered == last.total &&
           attempts[attempts.size() - 2].covered == attempts[attempts.size() - 2].total;
  s.next_due_day = last.day + (s.easy ? 28 : 7);
  s.due = s.next_due_day <= today;
  return s;
}

std::optional<std::vector<int>> parse_points(const std::string& text, int count) {
  const std::string t = lower(trim(text));
  std::vector<int> out;
  if (t == "all" || t == "a") {
    for (int i = 1; i <= count; ++i) out.push_back(i);
    return out;
  }
  if (t.empty() || t == "none" || t == "-" || t == "0") return out;
  static const std::regex token(R"([^\s,;]+)");
  std::set<int> seen;
  for (auto it = std::sregex_iterator(t.begin(), t.end(), token); it != std::sregex_iterator(); ++it) {
    std::string tok = it->str();
    if (tok.empty() || tok.size() > 3 || !std::all_of(tok.begin(), tok.end(), ::isdigit)) return std::nullopt;
    int n = std::stoi(tok);
    if (n < 1 || n > count) return std::nullopt;
    seen.insert(n);
  }
  out.assign(seen.begin(), seen.end());
  return out;
}

PracticeSession::PracticeSession(LearnerInput& in, const Style& style, ReviewStore& store, const fsrs::Scheduler& sched)
    : in_(in), s_(style), store_(store), sched_(sched) {}

std::optional<std::string> PracticeSession::read(const std::string& prompt) {
  auto line = in_.line(prompt);
  if (!line) stop_ = in_.interrupted() ? Stop::interrupted : Stop::end_of_input;
  return line;
}

void PracticeSession::show_numbers(const AnswerCheck& check) {
  if (check.numbers.empty()) return;
  bool any_given = std::any_of(check.numbers.begin(), check.numbers.end(), [](const NumberCheck& n) { return n.given.has_value(); });
  in_.say(s_.bold("Your numbers") + (any_given ? "" : s_.dim(" (none typed: compare them yourself)")) + "\n");
  for (const auto& n : check.numbers) {
    std::string expected = format_number(n.expected) + (n.unit.empty() ? "" : " " + n.unit);
    std::string mark = !n.given ? s_.dim("not given") : n.ok ? s_.green("right") : s_.red("wrong");
    std::string given = n.given ? format_number(*n.given) : "-";
    in_.say(fmt::format("  {:<20} {:>12}  {:<10} expected {} (±{})\n", n.name, given, mark, expected,
                        format_number(n.tolerance)));
    if (!n.note.empty()) in_.say("  " + s_.dim(n.note) + "\n");
  }
  for (const auto& note : check.notes) in_.say("  " + s_.yellow(note) + "\n");
}

std::optional<fsrs::Rating> PracticeSession::ask_rating(bool pass_fail) {
  std::optional<fsrs::Rating> rating;
  while (!rating) {
    std::string q = pass_fail ? "Did you get it? p pass / f fail (q stops): "
                        : "Grade yourself: 1 Again  2 Hard  3 Good  4 Easy (q stops): ";
    auto g = read(s_.cyan(q));
    if (!g) return std::nullopt;
    if (is_quit(*g)) {
      stop_ = Stop::quit;
      return std::nullopt;
    }
    if (pass_fail) {
      if (auto p = fsrs::parse_pass_fail(*g)) rating = fsrs::from_pass_fail(*p);
    } else {
      rating = fsrs::parse_rating(*g);
    }
    if (!rating) {
      in_.say(pass_fail ? "Please answer p (pass) or f (fail).\n"
                  : "Please answer 1-4 (again, hard, good, easy).\n");
    }
  }
  return rating;
}

std::optional<ItemResult> PracticeSession::item(int module, const ExerciseItem& it, const ItemOptions& opt) {
  ItemResult r;
  r.module = module;
  r.item = it.id;
  r.kind = to_string(it.kind);
  r.variant = opt.variant;
  r.prompt = opt.variant ? opt.variant->prompt : it.prompt;
  const std::vector<NumericAnswer>& numeric = opt.variant ? opt.variant->numeric : it.numeric;
  r.mode = opt.pass_fail ? "pass-fail" : "scale";
  auto before = store_.card(module, it.id);
  r.was_new = !before;

  auto t0 = std::chrono::steady_clock::now();
  in_.say("\n" + rule(s_, fmt::format("{} · {} ({}){}", module_id(module), it.id, r.kind, r.was_new ? " · new" : "")) +
          "\n");
  in_.say(wrap_text(r.prompt, text_width()) + "\n");
  if (opt.variant) {
    std::string vals;
    for (const auto& [k, v] : opt.variant->values) vals += (vals.empty() ? "" : ", ") + k + " = " + format_number(v);
    in_.say(s_.dim("(fresh numbers: " + vals + ")") + "\n");
  }
  if (!numeric.empty()) {
    in_.say(s_.dim(wrap_text("Numbers checked: " + describe_checked(numeric) + "; give them in this order, or as "
                             "name=value", text_width())) +
            "\n");
  }
  auto answer = read(s_.cyan("Your answer (or answer out loud, then Enter; q stops): "));
  if (!answer) return std::nullopt;
  if (is_quit(*answer)) {  // not an answer: the learner ends the session here
    stop_ = Stop::quit;
    return std::nullopt;
  }
  r.answer = *answer;
  r.check = check_answer(r.answer, numeric);
  show_numbers(r.check);
  if (!opt.variant) {
    in_.say(s_.bold("Model answer") + "\n" + wrap_text(it.answer, text_width(), "  ", "  ") + "\n");
  } else {
    in_.say(s_.bold("Model answer") + s_.dim(" (for the original numbers; yours are checked above)") + "\n" +
            wrap_text(it.answer, text_width(), "  ", "  ") + "\n");
  }
  if (!it.key_points.empty()) {
    in_.say(s_.bold("Key points") + "\n");
    for (const auto& k : it.key_points) in_.say(wrap_text(k, text_width(), "  • ", "    ") + "\n");
  }

  std::optional<fsrs::Rating> rating = ask_rating(opt.pass_fail);
  if (!rating) return std::nullopt;
  r.rating = *rating;
  r.duration_s = seconds_since(t0);

  ReviewInput ri;
  ri.module = module;
  ri.item = it.id;
  ri.rating = r.rating;
  ri.mode = r.mode;
  ri.source = opt.source;
  ri.duration_s = r.duration_s;
  ri.answer = r.answer;
  ri.numbers_checked = static_cast<int>(r.check.numbers.size());
  ri.numbers_correct = r.check.correct();
  if (opt.variant) ri.variant = nlohmann::json{{"seed", opt.variant->seed}, {"values", opt.variant->values}}.dump();
  fsrs::Outcome o = store_.record(ri, sched_, now_unix());
  r.interval_before = before ? before->card.interval : 0;
  r.interval_after = o.card.interval;
  r.due_in_minutes = o.due_in_minutes;
  r.state = fsrs::to_string(o.card.state);
  r.due = date_of_day(o.card.due_day());
  if (r.due_in_minutes > 0) {
    in_.say(s_.dim(fmt::format("{}: again in {} min ({} step {}; asked again this session).", fsrs::to_string(r.rating),
                               r.due_in_minutes, r.state, o.card.step + 1)) +
            "\n");
  } else {
    in_.say(s_.dim(fmt::format("{}: next in {} day{} ({}).", fsrs::to_string(r.rating), r.interval_after,
                               r.interval_after == 1 ? "" : "s", r.due)) +
            "\n");
  }
  return r;
}

FollowResult PracticeSession::follow(int module, const WorkedExample& ex, int start) {
  FollowResult out;
  out.module = module;
  out.example = ex.id;
  out.title = ex.title;
  out.total_steps = static_cast<int>(ex.steps.size());
  out.start_step = std::clamp(start, 0, out.total_steps);
  out.steps_done = out.start_step;
  in_.say("\n" + rule(s_, fmt::format("{} · worked example · {}", module_id(module), ex.id)) + "\n");
  in_.say(s_.bold(ex.title) + "\n" + wrap_text(ex.problem, text_width()) + "\n");
  if (out.start_step > 0 && out.start_step < out.total_steps) {
    in_.say(s_.dim(fmt::format("(steps 1-{} done earlier; carrying on)", out.start_step)) + "\n");
  }
  for (int i = out.start_step; i < out.total_steps; ++i) {
    const WorkedStep& st = ex.steps[static_cast<std::size_t>(i)];
    const std::string step = fmt::format("Step {}/{}:", i + 1, out.total_steps);
    const std::string prompt = wrap_text(st.prompt, text_width(), std::string(step.size() + 1, ' '), "");
    in_.say(fmt::format("\n{} {}\n", s_.bold(step), prompt.substr(step.size() + 1)));
    if (!st.numeric.empty()) {
      in_.say(s_.dim(wrap_text("Checked: " + describe_checked(st.numeric) +
                                   (st.numeric.size() > 1 ? "; in this order, or as name=value" : ""),
                               text_width())) +
              "\n");
    }
    auto line = read(s_.cyan(st.numeric.empty() ? "Your line (then Enter to see the step): "
                                                : "Your value (then Enter to see the step): "));
    if (!line) break;
    AnswerCheck check = check_answer(*line, st.numeric);
    show_numbers(check);
    in_.say(s_.bold("The step") + "\n" + wrap_text(st.answer, text_width(), "  ", "  ") + "\n");
    store_.record_follow_step({module, ex.id, i, *line, static_cast<int>(check.numbers.size()), check.correct()},
                              now_unix());
    out.steps_done = i + 1;
    out.steps.push_back({{"step", i + 1},
                         {"prompt", st.prompt},
                         {"checked", describe_checked(st.numeric)},
                         {"answer", *line},
                         {"numbers", numbers_json(check)},
                         {"numbers_correct", check.correct()},
                         {"revealed", st.answer}});
  }
  if (out.completed()) in_.say("\n" + s_.green("Worked example complete.") + "\n");
  return out;
}

std::optional<DrillResult> PracticeSession::drill(int module, const DrillItem& d) {
  DrillResult r;
  r.module = module;
  r.drill = d.id;
  r.total = static_cast<int>(d.covers.size());
  in_.say("\n" + rule(s_, fmt::format("{} drill · {}", module_id(module), d.id)) + "\n");
  in_.say(s_.bold(wrap_text(d.question, text_width())) + "\n");
  in_.say(s_.dim(fmt::format("Answer out loud in {} seconds, as in the oral exam; press Enter when done (q stops).",
                             d.seconds)) +
          "\n");
  double waited = 0;
  auto spoken = in_.line_with_countdown(s_.cyan("Speaking"), d.seconds, waited);
  if (!spoken) {
    stop_ = in_.interrupted() ? Stop::interrupted : Stop::end_of_input;
    return std::nullopt;
  }
  if (is_quit(*spoken)) {
    stop_ = Stop::quit;
    return std::nullopt;
  }
  r.seconds = waited;
  if (in_.terminal() && !in_.quiet()) in_.say("\n");
  in_.say(s_.bold("A strong answer covers") + "\n");
  for (std::size_t i = 0; i < d.covers.size(); ++i) in_.say(wrap_text(d.covers[i], text_width(), fmt::format("  {}. ", i + 1), "     ") + "\n");
  std::optional<std::vector<int>> covered;
  while (!covered) {
    auto line = read(s_.cyan("Points you covered (numbers like 1 3, all, or none; q stops): "));
    if (!line) return std::nullopt;
    if (is_quit(*line)) {
      stop_ = Stop::quit;
      return std::nullopt;
    }
    covered = parse_points(*line, r.total);
    if (!covered) in_.say(fmt::format("Please type point numbers from 1 to {}, 'all' or 'none'.\n", r.total));
  }
  r.covered = static_cast<int>(covered->size());
  for (int i = 1; i <= r.total; ++i) {
    if (std::find(covered->begin(), covered->end(), i) == covered->end()) r.missed.push_back(i);
  }
  if (!r.missed.empty()) r.reread = d.modules;
  long long now = now_unix();
  store_.record_drill({module, d.id, iso_utc(now), day_of(now), r.covered, r.total, r.missed, r.seconds});
  DrillStatus st = drill_status(store_, module, d, day_of(now));
  r.next_due = date_of_day(st.next_due_day);
  std::string mods;
  for (int m : d.modules) mods += (mods.empty() ? "" : ", ") + module_id(m);
  in_.say(fmt::format("Score: {}/{} points{}\n", r.covered, r.total,
                      r.seconds > d.seconds + 0.5 ? fmt::format(" (took {:.0f} s of {})", r.seconds, d.seconds) : ""));
  for (int m : r.missed) {
    in_.say(s_.yellow(fmt::format("  missed {}: {}", m, d.covers[static_cast<std::size_t>(m - 1)])) +
            s_.dim(" → reread " + mods) + "\n");
  }
  in_.say(s_.dim(fmt::format("Next due {}{}.", r.next_due, st.easy ? " (easy now: every four weeks)" : " (weekly)")) +
          "\n");
  return r;
}

}  // namespace workbook::learn
