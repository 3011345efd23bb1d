// Loading the course calendar (see course.hpp).
#include "content/course.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <regex>

#include "util/error.hpp"

namespace workbook {

bool is_calendar_date(const std::string& text) {
  static const std::regex pattern("^([0-9]{4})-([0-9]{2})-([0-9]{2})$");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return false;
  const std::chrono::year_month_day date{std::chrono::year{std::stoi(m[1])},
                                         std::chrono::month{static_cast<unsigned>(std::stoi(m[2]))},
                                         std::chrono::day{static_cast<unsigned>(std::stoi(m[3]))}};
  return date.ok();
}

namespace {

// "16" or a range "16-19", each a module number 1-24; nullopt when it is neither.
std::optional<std::vector<int>> module_words(const std::string& text) {
  static const std::regex pattern("^\\s*([0-9]{1,2})\\s*(?:-\\s*([0-9]{1,2})\\s*)?$");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return std::nullopt;
  const int first = std::stoi(m[1]);
  const int last = m[2].matched ? std::stoi(m[2]) : first;
  if (first < 1 || last > 24 || last < first) return std::nullopt;
  std::vector<int> out;
  for (int n = first; n <= last; ++n) out.push_back(n);
  return out;
}

// A list of module numbers as a learner writes it: [16, 17], [16-19], 16, "16-19" or [].
std::vector<int> module_list(MapReader& r, const std::string& key) {
  std::vector<std::string> words;
  if (YAML::Node n = r.node(key); n.IsScalar()) words.push_back(n.Scalar());
  else words = r.str_list(key, false);
  std::vector<int> out;
  for (const auto& text : words) {
    if (auto ms = module_words(text)) {
      for (int n : *ms) {
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    } else {
      r.problem(key, fmt::format("'{}' is not a module number 1-24 (or a range such as 16-19)", text));
    }
  }
  return out;
}

// A date field: kept only when it is a real date written YYYY-MM-DD.
std::optional<std::string> date_field(MapReader& r, const std::string& key) {
  auto text = r.str(key, false);
  if (text && !is_calendar_date(*text)) {
    r.problem(key, fmt::format("'{}' is not a date written YYYY-MM-DD", *text));
    return std::nullopt;
  }
  return text;
}

// The entry of `list` with this id, appended when there is none.
template <typename T>
T& entry_for(std::vector<T>& list, const std::string& id) {
  auto same = [](const std::string& a, const std::string& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) ==
                                                  std::tolower(static_cast<unsigned char>(y)); });
  };
  auto it = std::find_if(list.begin(), list.end(), [&](const T& e) { return same(e.id, id); });
  if (it != list.end()) return *it;
  list.push_back(T{});
  list.back().id = id;
  return list.back();
}

// An id given twice in one file (case does not matter, as in entry_for) is a problem: the
// second entry would silently change the first. True when `id` is new in this file.
bool first_in_file(MapReader& r, std::map<std::string, int>& seen, const std::string& id) {
  std::string key = id;
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto [it, added] = seen.emplace(key, r.line());
  if (!added) r.problem("id", fmt::format("'{}' is given twice in this file (also at line {}): one entry per id", id, it->second));
  return added;
}

void read_assignments(MapReader& r, Course& course) {
  std::map<std::string, int> seen;
  for_each_map(r, "assignments", false, [&](MapReader& ar) {
    CourseAssignment scratch;
    auto id = ar.str("id", true);
    if (id && !first_in_file(ar, seen, *id)) id.reset();
    CourseAssignment& a = id ? entry_for(course.assignments, *id) : scratch;
    if (auto t = ar.str("title", false)) a.title = *t;
    if (auto d = date_field(ar, "due")) a.due = *d;
    if (ar.has("modules")) {
      a.modules = module_list(ar, "modules");
      a.modules_given = true;
    }
    a.file = ar.file();
    a.line = ar.line();
  });
}

void read_bonus(MapReader& r, Course& course) {
  std::map<std::string, int> seen;
  for_each_map(r, "bonus", false, [&](MapReader& br) {
    CourseBonus scratch;
    auto id = br.str("id", true);
    if (id && !first_in_file(br, seen, *id)) id.reset();
    CourseBonus& b = id ? entry_for(course.bonus, *id) : scratch;
    if (auto t = br.str("title", false)) b.title = *t;
    if (auto a = br.str("assignment", false)) b.assignment = *a;
    if (br.has("modules")) b.modules = module_list(br, "modules");
    b.file = br.file();
    b.line = br.line();
  });
}

void read_oral_exam(MapReader& r, Course& course) {
  YAML::Node n = r.node("oral_exam");
  if (!present(n)) return;
  MapReader o(n, r.file(), r.path("oral_exam"), r.problems());
  if (auto a = o.str("sign_up_with", false)) course.oral_exam.sign_up_with = *a;
  if (o.has("drills")) course.oral_exam.drill_modules = module_list(o, "drills");
  o.finish();
}

void read_presentation(MapReader& p, CourseProject& project) {
  YAML::Node n = p.node("presentation");
  if (!present(n)) return;
  std::vector<std::string> days;
  if (n.IsScalar()) days.push_back(n.Scalar());
  else if (n.IsSequence()) days = p.str_list("presentation", false);
  if (days.empty() || days.size() > 2) {
    p.problem("presentation", "must be a date, or a list of the first and the last day");
    return;
  }
  for (const auto& d : days) {
    if (!is_calendar_date(d)) {
      p.problem("presentation", fmt::format("'{}' is not a date written YYYY-MM-DD", d));
      return;
    }
  }
  if (days.back() < days.front()) {
    p.problem("presentation", "the last day comes before the first");
    return;
  }
  project.presentation_first = days.front();
  project.presentation_last = days.back();
}

void read_project(MapReader& r, Course& course) {
  YAML::Node n = r.node("project");
  if (!present(n)) return;
  MapReader p(n, r.file(), r.path("project"), r.problems());
  CourseProject& project = course.project;
  if (auto d = date_field(p, "proposal")) project.proposal = *d;
  if (auto d = date_field(p, "report")) project.report = *d;
  read_presentation(p, project);
  if (auto k = p.integer("topics_needed", false)) {
    if (*k < 0 || *k > 24) p.problem("topics_needed", "must be between 0 and 24");
    else project.topics_needed = static_cast<int>(*k);
  }
  if (p.has("topics")) project.topics.clear();
  for_each_map(p, "topics", false, [&](MapReader& tr) {
    CourseTopic t;
    auto m = tr.integer("module", true);
    if (m && (*m < 1 || *m > 24)) tr.problem("module", "must be a module number 1-24");
    t.module = m ? static_cast<int>(*m) : 0;
    t.topic = tr.str("topic", true).value_or("");
    project.topics.push_back(t);
  });
  p.finish();
}

}  // namespace

void read_course_file(const std::filesystem::path& file, const std::string& display, Course& course,
                      Problems& problems, bool overlay) {
  YAML::Node root = load_yaml_file(file, problems, display);
  course.files.push_back(display);
  if (!present(root)) {
    if (root.IsDefined()) problems.add(display, 0, "", "is empty");
    return;
  }
  MapReader r(root, display, "", problems);
  auto version = r.integer("format_version", !overlay);
  if (version && *version != kCourseFormatVersion) {
    r.problem("format_version", fmt::format("is {}, this runner reads version {}", *version, kCourseFormatVersion));
  }
  if (auto t = r.boolean("tentative", false)) course.tentative = *t;
  if (auto s = r.str("source", false)) course.source = *s;
  read_assignments(r, course);
  read_bonus(r, course);
  read_oral_exam(r, course);
  read_project(r, course);
  r.finish();
}

void check_course(const Course& course, Problems& problems) {
  auto has_assignment = [&](const std::string& id) {
    return std::any_of(course.assignments.begin(), course.assignments.end(),
                       [&](const CourseAssignment& a) { return a.id == id; });
  };
  for (const auto& a : course.assignments) {
    const std::string field = "assignments[" + a.id + "]";
    if (a.due.empty()) problems.add(a.file, a.line, field + ".due", "is required (a date written YYYY-MM-DD)");
    if (!a.modules_given) {
      problems.add(a.file, a.line, field + ".modules", "is required: the modules that prepare it ([] for none)");
    }
  }
  for (const auto& b : course.bonus) {
    if (!b.assignment.empty() && !has_assignment(b.assignment)) {
      problems.add(b.file, b.line, "bonus[" + b.id + "].assignment",
                   fmt::format("names '{}', which is not an assignment's id", b.assignment));
    }
  }
  const std::string& sign_up = course.oral_exam.sign_up_with;
  if (!sign_up.empty() && !has_assignment(sign_up)) {
    problems.add(course.files.empty() ? "" : course.files.back(), 0, "oral_exam.sign_up_with",
                 fmt::format("names '{}', which is not an assignment's id", sign_up));
  }
}

std::optional<Course> load_course(const std::filesystem::path& content_root,
                                  const std::filesystem::path& workspace_root) {
  const auto course_file = content_root / "data" / "course.yaml";
  const auto own_file = workspace_root / "course.yaml";
  const bool has_course = std::filesystem::is_regular_file(course_file);
  const bool has_own = std::filesystem::is_regular_file(own_file);
  if (!has_course && !has_own) return std::nullopt;
  Course course;
  Problems problems;
  if (has_course) read_course_file(course_file, "data/course.yaml", course, problems);
  if (has_own) read_course_file(own_file, own_file.string(), course, problems, true);
  if (problems.empty()) check_course(course, problems);
  problems.throw_if_any();
  return course;
}

}  // namespace workbook
