// compute-sanitizer's report (see sanitizer_summary.hpp).
#include "profile/sanitizer_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "profile/lines.hpp"
#include "util/text.hpp"

namespace workbook {

const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> t{"memcheck", "racecheck", "synccheck", "initcheck"};
  return t;
}

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "/abs/tools.cu:5 [8 hazards]" -> "tools.cu:5"
std::string file_and_line(std::string where) {
  if (auto bracket = where.find(" ["); bracket != std::string::npos) where.resize(bracket);
  if (auto slash = where.rfind('/'); slash != std::string::npos) where = where.substr(slash + 1);
  return where;
}

// racecheck's "... access at oob(float *, int)+0x90 in /abs/tools.cu:5" -> function, file:line.
void read_location(const std::string& text, SanitizerError& e) {
  const auto at = text.find("at ");
  const auto in = text.rfind(" in ");
  if (at == std::string::npos) return;
  if (in == std::string::npos || in < at) {
    e.function = trim(text.substr(at + 3));
    return;
  }
  e.function = trim(text.substr(at + 3, in - at - 3));
  e.where = file_and_line(trim(text.substr(in + 4)));
}

// "F+0x90 in FILE:LINE" (the text after "at " or "Device Frame:") becomes a frame; the
// error's function and where are its first frame in the lab's own code.
void add_frame(const std::string& text, SanitizerError& e) {
  SanitizerFrame f;
  const auto in = text.rfind(" in ");
  f.function = trim(in == std::string::npos ? text : text.substr(0, in));
  if (in != std::string::npos) {
    f.file = trim(text.substr(in + 4));
    f.where = file_and_line(f.file);
    f.toolkit = is_toolkit_file(f.file);
  }
  e.frames.push_back(f);
  const auto own = std::find_if(e.frames.begin(), e.frames.end(),
                                [](const SanitizerFrame& x) { return !x.where.empty() && !x.toolkit; });
  const SanitizerFrame& chosen = own != e.frames.end() ? *own : e.frames.front();
  e.function = chosen.function;
  e.where = chosen.where;
}

void read_summary(const std::string& body, SanitizerReport& r) {
  // "ERROR SUMMARY: 29 errors" / "ERROR SUMMARY: 1 error" / "ERROR SUMMARY: 0 errors"
  const std::string rest = trim(body.substr(std::string("ERROR SUMMARY:").size()));
  char* end = nullptr;
  const long long n = std::strtoll(rest.c_str(), &end, 10);
  if (end != rest.c_str()) r.error_count = n;
}

// "RACECHECK SUMMARY: 20 hazards displayed (0 errors, 30 warnings)": racecheck reports
// shared-memory races as warnings and may print no ERROR SUMMARY (seen on the H200,
// CUDA 13.0); every hazard it reports counts.
void read_racecheck_summary(const std::string& body, SanitizerReport& r) {
  const auto open = body.find('(');
  if (open == std::string::npos || r.error_count) return;
  char* end = nullptr;
  const char* p = body.c_str() + open + 1;
  const long long errors = std::strtoll(p, &end, 10);
  if (end == p) return;
  const auto comma = body.find(',', open);
  if (comma == std::string::npos) return;
  const char* q = body.c_str() + comma + 1;
  const long long warnings = std::strtoll(q, &end, 10);
  if (end == q) return;
  r.error_count = errors + warnings;
}

bool is_tool_line(const std::string& body) {
  return starts_with(body, "COMPUTE-SANITIZER") || starts_with(body, "RACECHECK SUMMARY") ||
         starts_with(body, "LEAK SUMMARY") || starts_with(body, "Target application returned") ||
         starts_with(body, "Error: No attachable") || starts_with(body, "Error: Failed") ||
         body.find("errors were not printed") != std::string::npos || starts_with(body, "Warning:");
}

void continue_error(const std::string& text, SanitizerError& e) {
  if (starts_with(text, "at ")) {
    if (e.frames.empty()) add_frame(text.substr(3), e);
  } else if (starts_with(text, "Device Frame:")) {
    if (!e.frames.empty()) add_frame(trim(text.substr(std::string("Device Frame:").size())), e);
  } else if (starts_with(text, "by thread")) {
    if (e.thread.empty()) e.thread = text.substr(3);
  } else if (starts_with(text, "and ") && text.find(" access at ") != std::string::npos) {
    if (e.detail.empty()) e.detail = text;  // racecheck: the other side of the hazard
  } else if (starts_with(text, "Address") || text.find("out of bounds") != std::string::npos) {
    if (e.detail.empty()) e.detail = text;
  }
}

}  // namespace

bool is_toolkit_file(const std::string& file) {
  const std::string path = lower(file.substr(0, file.find(':')));
  const std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  for (const char* dir : {"/cuda/include/", "/targets/", "/cccl/", "/cub/", "/thrust/", "/cuda/std/", "/crt/",
                          "/cooperative_groups/"}) {
    if (path.find(dir) != std::string::npos) return true;
  }
  if (path.find("/include/") != std::string::npos && path.find("cuda") != std::string::npos) return true;
  // Printed without a folder: the toolkit's own header names.
  static const std::regex header(
      R"((sm_\d+_\w+|cuda_\w+|device_\w+|\w+_intrinsics|math_functions|cooperative_groups|mma|texture_\w+|surface_\w+)\.(h|hpp))");
  return std::regex_match(name, header);
}

SanitizerReport parse_sanitizer_output(const std::string& text, const std::string& tool, std::size_t keep) {
  SanitizerReport r;
  r.tool = tool;
  SanitizerError* current = nullptr;
  for (const std::string& line : split_lines(text)) {
    if (!starts_with(line, "=========")) continue;
    std::string body = line.substr(9);
    if (!body.empty() && body[0] == ' ') body.erase(0, 1);
    if (trim(body).empty()) {
      current = nullptr;
      continue;
    }
    if (body[0] == ' ' || body[0] == '\t') {  // a continuation of the error above
      if (current) continue_error(trim(body), *current);
      continue;
    }
    const bool race = starts_with(body, "Error: Race reported") || starts_with(body, "Warning: Race reported");
    if (starts_with(body, "ERROR SUMMARY:") && body.find("not printed") == std::string::npos) {
      read_summary(body, r);
      current = nullptr;
    } else if (starts_with(body, "RACECHECK SUMMARY:")) {
      read_racecheck_summary(body, r);
      r.tool_messages.push_back(body);
      current = nullptr;
    } else if (!race && is_tool_line(body)) {
      r.tool_messages.push_back(body);
      current = nullptr;
    } else {
      ++r.errors_printed;
      current = nullptr;
      if (r.errors.size() < keep) {
        SanitizerError e;
        e.what = body;
        if (race) read_location(body, e);
        r.errors.push_back(e);
        current = &r.errors.back();
      }
    }
  }
  return r;
}

std::string describe(const SanitizerReport& r) {
  if (!r.error_count) return fmt::format("compute-sanitizer ({}) printed no ERROR SUMMARY", r.tool);
  if (*r.error_count == 0) return fmt::format("{}: no errors", r.tool);
  std::string s = fmt::format("{} error{}", *r.error_count, *r.error_count == 1 ? "" : "s");
  if (!r.errors.empty()) {
    const SanitizerError& e = r.errors.front();
    s += ": " + e.what;
    if (!e.where.empty() && e.what.find(e.where) == std::string::npos) s += " at " + e.where;
    else if (!e.function.empty()) s += " in " + e.function;
    if (!e.thread.empty()) s += " (" + e.thread + ")";
  }
  return s;
}

std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool,
                                           const std::string& log_file) {
  return {sanitizer, "--tool", tool, "--print-limit", "20", "--log-file", log_file};
}

}  // namespace workbook
