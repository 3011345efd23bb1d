// Reading a whole file (see file_text.hpp).
#include "util/file_text.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include "util/error.hpp"

namespace workbook {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe), not a regular file";
  if (S_ISCHR(mode)) return "is a character device (such as /dev/zero), not a regular file";
  if (S_ISBLK(mode)) return "is a block device, not a regular file";
  if (S_ISDIR(mode)) return "is a folder, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

std::string size_text(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? fmt::format("{} MB", bytes >> 20) : fmt::format("{} bytes", bytes);
}

// Reads `fd` to its end, at most `max_bytes` + 1 bytes; false on a read error.
bool read_bounded(int fd, std::size_t max_bytes, std::string& text) {
  char buffer[64 * 1024];
  while (text.size() <= max_bytes) {
    const std::size_t want = std::min(sizeof buffer, max_bytes + 1 - text.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

FileText read_regular_file(const std::filesystem::path& file, std::size_t max_bytes) {
  FileText r;
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.missing = errno == ENOENT || errno == ENOTDIR;
    r.problem = r.missing ? "does not exist" : std::strerror(errno);
    return r;
  }
  struct stat st {};
  std::string text;
  if (::fstat(fd, &st) != 0) {
    r.problem = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    r.problem = kind_of(st.st_mode);
  } else if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    r.problem = fmt::format("is larger than {} ({} bytes)", size_text(max_bytes), st.st_size);
  } else if (!read_bounded(fd, max_bytes, text)) {
    r.problem = std::strerror(errno);
  } else if (text.size() > max_bytes) {
    r.problem = fmt::format("is larger than {} (it grew while read)", size_text(max_bytes));
  } else {
    r.text = std::move(text);
  }
  ::close(fd);
  return r;
}

std::optional<std::string> read_file_text(const std::filesystem::path& file) {
  return read_regular_file(file).text;
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

FileWriter::FileWriter(std::filesystem::path file) : file_(std::move(file)) {
  std::error_code ec;
  if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path(), ec);
  fd_ = open_unique_tmp(file_, tmp_);
  if (fd_ < 0) fail(errno);
}

FileWriter::~FileWriter() {
  if (fd_ < 0) return;
  ::close(fd_);
  std::error_code ec;
  std::filesystem::remove(tmp_, ec);
}

void FileWriter::fail(int err) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  if (!tmp_.empty()) std::filesystem::remove(tmp_, ec);
  throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file_.string(), std::strerror(err)),
              "check the folder is writable and the disk is not full");
}

void FileWriter::write(const std::string& text) {
  if (fd_ < 0) throw Error(Exit::internal, "FileWriter::write after commit");
  if (!write_all(fd_, text)) fail(errno);
}

void FileWriter::commit() {
  if (fd_ < 0) throw Error(Exit::internal, "FileWriter::commit twice");
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail(errno);  // the temporary is removed
  std::error_code ec;
  std::filesystem::rename(tmp_, file_, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp_, ec);
    throw Error(Exit::io_error, fmt::format("cannot write {}: {}", file_.string(), why), "check the folder is writable");
  }
}

void write_file_text(const std::filesystem::path& file, const std::string& text) {
  FileWriter out(file);
  out.write(text);
  out.commit();
}

}  // namespace workbook
