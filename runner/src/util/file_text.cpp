// Reading a whole file (see file_text.hpp).
#include "util/file_text.hpp"

#include <fstream>
#include <sstream>

namespace workbook {

std::optional<std::string> read_file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

}  // namespace workbook
