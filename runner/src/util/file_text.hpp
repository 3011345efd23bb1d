// Reading and writing a whole file as bytes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace workbook {

// The most bytes read_file_text reads of one file.
inline constexpr std::size_t kMostFileBytes = std::size_t{256} << 20;

// The most bytes read of a lab's source (a learner's copy, a starter, a solution).
inline constexpr std::size_t kMostLabBytes = std::size_t{16} << 20;

// A file read whole, or why it was not: `problem` is "does not exist", "is a FIFO (named
// pipe), not a regular file", "is larger than 16 MB", or the system's reason.
struct FileText {
  std::optional<std::string> text;
  std::string problem;
  bool missing = false;  // it does not exist (ENOENT, ENOTDIR)
};

// The one reader of a file the runner did not write itself (a learner's copy, the
// outline cache, an experiment file, anything a workspace holds): opened without
// blocking (O_NONBLOCK, so a FIFO never hangs the open), a link followed but only to a
// regular file (fstat: a FIFO, a device such as /dev/zero or a folder is refused), and
// never more than `max_bytes` read (a file that grew past them while read is refused too).
FileText read_regular_file(const std::filesystem::path& file, std::size_t max_bytes = kMostFileBytes);

// read_regular_file's text: the file's whole content, byte for byte; nullopt when it
// cannot be opened or read, is not a regular file, or holds more than kMostFileBytes.
std::optional<std::string> read_file_text(const std::filesystem::path& file);

// A file written in pieces that appears whole or not at all: the pieces go to a new
// temporary file beside it (`<file>.tmp.<pid>.<n>`, created exclusively: never shared by
// two writers, never a link written through; its folders created), which commit() renames
// into place, so a reader never sees half a file and two writers at once leave one whole
// text. Destroyed without commit() (an exception, a failed write), the temporary is
// removed and `file` left as it was. The one temp-and-rename writer of the runner. Throws
// Error (Exit::io_error) on failure.
class FileWriter {
 public:
  explicit FileWriter(std::filesystem::path file);
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  void write(const std::string& text);
  void commit();

 private:
  [[noreturn]] void fail(int err);
  std::filesystem::path file_, tmp_;
  int fd_ = -1;
};

// Writes `text` to `file` whole, through a FileWriter.
void write_file_text(const std::filesystem::path& file, const std::string& text);

// Writes all of `text` to `fd`, again after EINTR and short writes; false when a write
// failed (errno says why: EPIPE when the reader went away).
bool write_all(int fd, const std::string& text);

}  // namespace workbook
