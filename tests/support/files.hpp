// A whole file read into a string, or a string, a script or a JSON document written as a
// whole file (its folders made first). Shared by the unit and end-to-end tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace wbtest {

// The file's bytes ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A shell script <dir>/<name> running `body`, executable (0755); returns its path.
inline std::filesystem::path write_script(const std::filesystem::path& dir, const std::string& name,
                                          const std::string& body) {
  const std::filesystem::path p = dir / name;
  write_file(p, "#!/bin/sh\n" + body);
  using std::filesystem::perms;
  std::filesystem::permissions(p, perms::owner_all | perms::group_read | perms::group_exec | perms::others_read |
                                      perms::others_exec);
  return p;
}

// `doc` as indented JSON (one space a level) in `file`; returns `file`.
inline std::filesystem::path write_json(const std::filesystem::path& file, const nlohmann::json& doc) {
  write_file(file, doc.dump(1));
  return file;
}

}  // namespace wbtest
