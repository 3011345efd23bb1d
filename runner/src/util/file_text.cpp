// Reading a whole file (see file_text.hpp).
#include "util/file_text.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/error.hpp"

namespace workbook {

std::optional<std::string> read_file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

void write_file_text(const std::filesystem::path& file, const std::string& text) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  const std::filesystem::path tmp = file.string() + ".tmp";
  std::filesystem::remove(tmp, ec);  // a stale one, or a link: never written through
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      const int err = errno;
      std::filesystem::remove(tmp, ec);
      throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file.string(), std::strerror(err)),
                  "check the folder is writable and the disk is not full");
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file.string(), why), "check the folder is writable");
  }
}

}  // namespace workbook
