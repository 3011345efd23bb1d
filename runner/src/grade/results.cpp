// Results-file parsing (see results.hpp).
#include "grade/results.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "util/json_depth.hpp"

namespace workbook {

using nlohmann::json;

const ReportedMetric* LabResults::metric(const std::string& name) const {
  for (auto it = metrics.rbegin(); it != metrics.rend(); ++it) {
    if (it->name == name) return &*it;
  }
  return nullptr;
}

const ReportedCheck* LabResults::check(const std::string& name) const {
  for (auto it = checks.rbegin(); it != checks.rend(); ++it) {
    if (it->name == name) return &*it;
  }
  return nullptr;
}

namespace {

std::optional<double> opt_number(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string opt_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// What parse_line needs beyond the results: the `start` records and the expected seed.
struct StartRecords {
  int count = 0;
  std::optional<std::uint64_t> expected_seed;
};

// A `start` record's seed against the seed the runner passed.
void check_start(const json& j, LabResults& r, StartRecords& starts, int line_no) {
  ++starts.count;
  auto seed = j.find("seed");
  std::optional<std::uint64_t> value;
  if (seed != j.end() && seed->is_number_unsigned()) value = seed->get<std::uint64_t>();
  if (seed != j.end() && seed->is_number_integer() && !seed->is_number_unsigned() && seed->get<std::int64_t>() >= 0) {
    value = static_cast<std::uint64_t>(seed->get<std::int64_t>());
  }
  if (value && !r.seed) r.seed = value;
  if (!starts.expected_seed) return;
  if (!value) {
    r.inconsistencies.push_back(fmt::format("line {}: the `start` record has no seed the runner can read ({}), but the "
                                            "runner passed seed {}",
                                            line_no, seed == j.end() ? "none" : seed->dump(), *starts.expected_seed));
  } else if (*value != *starts.expected_seed) {
    r.inconsistencies.push_back(fmt::format("line {}: the `start` record has seed {}, but the runner passed seed {} "
                                            "(records of another run?)",
                                            line_no, *value, *starts.expected_seed));
  }
}

void parse_line(const json& j, LabResults& r, int line_no, StartRecords& starts) {
  std::string type = opt_string(j, "type");
  std::string name = opt_string(j, "name");
  if (type == "metric") {
    auto value = j.find("value");
    if (name.empty()) {
      r.protocol_problems.push_back(fmt::format("line {}: metric without a name", line_no));
      return;
    }
    if (value == j.end() || !value->is_number()) {
      // null is how a lab writes NaN or infinity: a metric that is not a number.
      r.protocol_problems.push_back(fmt::format("line {}: metric '{}' has no finite value", line_no, name));
      return;
    }
    ReportedMetric m{name, opt_string(j, "unit"), value->get<double>(), opt_number(j, "min"),
                     opt_number(j, "max"), opt_number(j, "spread"), std::nullopt};
    if (auto s = opt_number(j, "samples")) m.samples = static_cast<int>(*s);
    r.metrics.push_back(m);
  } else if (type == "check") {
    auto pass = j.find("pass");
    if (name.empty() || pass == j.end() || !pass->is_boolean()) {
      r.protocol_problems.push_back(fmt::format("line {}: check needs a name and a true/false pass", line_no));
      return;
    }
    auto skipped = j.find("skipped");
    const bool skip = skipped != j.end() && skipped->is_boolean() && skipped->get<bool>();
    r.checks.push_back({name, pass->get<bool>() || skip, opt_number(j, "value"), opt_number(j, "limit"),
                        opt_string(j, "detail"), skip});
  } else if (type == "param") {
    if (auto v = opt_number(j, "value"); v && !name.empty()) r.params[name] = *v;
  } else if (type == "device") {
    r.device_name = opt_string(j, "name");
    r.device_cc = opt_string(j, "cc");
  } else if (type == "error") {
    r.errors.push_back(fmt::format("{}: {}", opt_string(j, "where"), opt_string(j, "message")));
  } else if (type == "end") {
    r.ended = true;
    auto pass = j.find("pass");
    r.end_pass = pass != j.end() && pass->is_boolean() && pass->get<bool>();
  } else if (type == "start") {
    check_start(j, r, starts, line_no);
  } else {
    r.protocol_problems.push_back(fmt::format("line {}: unknown record type '{}'", line_no, type));
  }
}

// Checks or metrics reported more than once: the grade would silently take the last.
void find_repeats(LabResults& r) {
  std::map<std::string, std::vector<const ReportedCheck*>> checks;
  for (const auto& c : r.checks) checks[c.name].push_back(&c);
  for (const auto& [name, reports] : checks) {
    if (reports.size() < 2) continue;
    std::string outcomes;
    for (const auto* c : reports) outcomes += (outcomes.empty() ? "" : ", then ") + std::string(c->pass ? "passed" : "failed");
    r.inconsistencies.push_back(fmt::format("check '{}' was reported {} times ({})", name, reports.size(), outcomes));
  }
  std::map<std::string, std::vector<double>> metrics;
  for (const auto& m : r.metrics) metrics[m.name].push_back(m.value);
  for (const auto& [name, values] : metrics) {
    if (values.size() < 2) continue;
    std::string list;
    for (std::size_t i = 0; i < values.size() && i < 5; ++i) list += fmt::format("{}{:g}", i ? ", " : "", values[i]);
    if (values.size() > 5) list += ", ...";
    r.inconsistencies.push_back(fmt::format("metric '{}' was reported {} times ({})", name, values.size(), list));
  }
}

// The first kMaxProblemLines problems, then one line that counts the rest: a megabyte of
// garbage must not print thousands of warnings.
void cap_problems(LabResults& r) {
  auto& p = r.protocol_problems;
  if (p.size() <= kMaxProblemLines) return;
  const std::size_t rest = p.size() - (kMaxProblemLines - 1);
  const std::string last = p.back();
  p.resize(kMaxProblemLines - 1);
  p.push_back(fmt::format("... and {} more problems like these (the last: {})", rest, last));
}

}  // namespace

LabResults parse_results(const std::string& text, std::optional<std::uint64_t> expected_seed) {
  LabResults r;
  StartRecords starts;
  starts.expected_seed = expected_seed;
  const std::string_view all(text);
  int line_no = 0;
  std::size_t records = 0;
  for (std::size_t pos = 0; pos < all.size();) {
    std::size_t end = all.find('\n', pos);
    if (end == std::string_view::npos) end = all.size();
    const std::string_view line = all.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (records == kMaxResultsRecords) {
      r.protocol_problems.push_back(fmt::format(
          "line {}: the results file has more than {} records; the rest was not read", line_no, kMaxResultsRecords));
      break;
    }
    ++records;
    if (json_nests_deeper_than(line, kMaxResultsDepth)) {  // the parser would recurse off the stack
      r.protocol_problems.push_back(fmt::format("line {}: nests more than {} levels deep", line_no, kMaxResultsDepth));
      continue;
    }
    json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
      r.protocol_problems.push_back(fmt::format("line {}: not a JSON object", line_no));
      continue;
    }
    parse_line(j, r, line_no, starts);
  }
  if (starts.count > 1) {
    r.inconsistencies.push_back(
        fmt::format("{} `start` records: the file holds the records of more than one run", starts.count));
  }
  find_repeats(r);
  cap_problems(r);
  return r;
}

namespace {

// Reads up to `limit` bytes of the results file, and whether it holds more. Opened without
// blocking and read only when it is a regular file: a lab that replaced it by a FIFO must
// not hold the runner (outside the lab's time limit) until someone writes to it.
struct ResultsBytes {
  bool opened = false;
  std::string not_regular;  // what the file is instead of a regular file
  std::string text;
  bool more = false;
  std::uintmax_t size = 0;
};

ResultsBytes read_results_bytes(const std::filesystem::path& file, std::size_t limit) {
  ResultsBytes b;
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return b;  // no file: no results
  b.opened = true;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    b.not_regular = S_ISFIFO(st.st_mode) ? "a named pipe" : S_ISDIR(st.st_mode) ? "a folder" : "not a regular file";
    ::close(fd);
    return b;
  }
  b.size = static_cast<std::uintmax_t>(st.st_size);
  b.text.resize(std::min<std::uintmax_t>(b.size, limit) + 1);  // one byte more: is there more?
  std::size_t got = 0;
  while (got < b.text.size()) {
    const ssize_t n = ::read(fd, b.text.data() + got, b.text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  b.more = got > limit;
  b.text.resize(std::min(got, limit));
  return b;
}

}  // namespace

LabResults read_results_file(const std::filesystem::path& file, std::optional<std::uint64_t> expected_seed) {
  ResultsBytes bytes = read_results_bytes(file, kMaxResultsBytes);
  if (!bytes.not_regular.empty()) {
    LabResults r = parse_results("", expected_seed);
    r.protocol_problems.push_back(fmt::format("the results file is {}, not a regular file: it was not read",
                                              bytes.not_regular));
    return r;
  }
  std::string& text = bytes.text;
  const bool more = bytes.more;
  if (more) {
    // Up to the last whole line: a line cut in two is not the lab's fault.
    const auto last = text.rfind('\n');
    text.resize(last == std::string::npos ? 0 : last + 1);
  }
  LabResults r = parse_results(text, expected_seed);
  if (more) {
    r.over_limit = true;
    r.protocol_problems.push_back(fmt::format("the results file is over the {} MB limit ({:.0f} MB); only the first "
                                              "{} MB were read",
                                              kMaxResultsBytes >> 20, static_cast<double>(bytes.size) / (1 << 20),
                                              kMaxResultsBytes >> 20));
  }
  return r;
}

}  // namespace workbook
