// What a piece of code writes to stdout (the file descriptor, so printf, fmt::print and
// print_json alike), captured through a temporary file. Shared by the unit tests.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "temp_dir.hpp"

namespace wbtest {

template <class Print>
std::string stdout_of(Print&& print) {
  TempDir dir;
  const auto file = dir.path / "out";
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::dup2(fd, STDOUT_FILENO);
  ::close(fd);
  print();
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace wbtest
