// Results-file parsing (see results.hpp).
#include "grade/results.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

void parse_line(const json& j, LabResults& r, int line_no) {
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
    r.checks.push_back({name, pass->get<bool>(), opt_number(j, "value"), opt_number(j, "limit"),
                        opt_string(j, "detail")});
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
  } else if (type != "start") {
    r.protocol_problems.push_back(fmt::format("line {}: unknown record type '{}'", line_no, type));
  }
}

}  // namespace

LabResults parse_results(const std::string& text) {
  LabResults r;
  std::stringstream in(text);
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
      r.protocol_problems.push_back(fmt::format("line {}: not a JSON object", line_no));
      continue;
    }
    parse_line(j, r, line_no);
  }
  return r;
}

LabResults read_results_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_results(buffer.str());
}

}  // namespace workbook
