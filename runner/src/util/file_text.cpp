// Reading a whole file (see file_text.hpp).
#include "util/file_text.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
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

namespace {

// A new, unique temporary beside `file`: `<file>.tmp.<pid>.<n>`, created with O_EXCL and
// O_NOFOLLOW, so two writers of one file (two runner processes, or two threads) never
// share it and a link of that name is never written through.
int open_unique_tmp(const std::filesystem::path& file, std::filesystem::path& tmp) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    tmp = fmt::format("{}.tmp.{}.{}", file.string(), ::getpid(), counter.fetch_add(1));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

void write_file_text(const std::filesystem::path& file, const std::string& text) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::filesystem::path tmp;
  const int fd = open_unique_tmp(file, tmp);
  if (fd < 0)
    throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file.string(), std::strerror(errno)),
                "check the folder is writable and the disk is not full");
  const bool wrote = write_all(fd, text);
  int err = errno;  // the write's error, else the close's: read before remove() can change errno
  const bool closed = ::close(fd) == 0;
  if (wrote) err = errno;
  if (!wrote || !closed) {
    std::filesystem::remove(tmp, ec);
    throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file.string(), std::strerror(err)),
                "check the folder is writable and the disk is not full");
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file.string(), why), "check the folder is writable");
  }
}

}  // namespace workbook
