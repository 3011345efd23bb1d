// Tests for util/file_text (reading a whole file).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/file_text.hpp"

using namespace workbook;

TEST_CASE("read_file_text returns every byte, and nothing for a missing file", "[util]") {
  const auto file = std::filesystem::temp_directory_path() / ("wb-file-text-" + std::to_string(::getpid()));
  static const char raw[] = "line one\r\nline two\n\0\xFF end";  // a NUL and a byte that is not UTF-8
  const std::string bytes(raw, sizeof raw - 1);
  std::ofstream(file, std::ios::binary) << bytes;
  const auto text = read_file_text(file);
  REQUIRE(text);
  CHECK(*text == bytes);
  std::filesystem::remove(file);
  CHECK_FALSE(read_file_text(file));
}
