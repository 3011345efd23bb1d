// Waiting for a learner's save of one file: Linux inotify on the file's folder (editors
// often save by writing a new file and renaming it over the old one, which a watch on the
// file itself would lose), or polling the file's identity, size and modification time
// where inotify is unavailable (network file systems) or WORKBOOK_WATCH_POLL=1 asks for it.
//
// A save is reported once the file has been quiet for the debounce time (an editor may
// touch it several times in one save), and only when it exists and differs (inode, size,
// modification time) from what the previous report saw: deleting the file is not a save.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace workbook {

struct FileWatchOptions {
  bool poll = false;                            // poll even where inotify works
  std::chrono::milliseconds debounce{200};      // quiet time after the last change
  std::chrono::milliseconds poll_interval{500}; // polling: how often the file is looked at
  std::chrono::milliseconds tick{100};          // how often wait() asks `stop`
};

enum class WatchEvent { saved, timed_out, stopped };
const char* to_string(WatchEvent e);

// What tells one version of a file from the next; `exists` false when it is missing.
struct FileStamp {
  bool exists = false;
  unsigned long long device = 0, inode = 0, size = 0;
  long long mtime_ns = 0;
  bool operator==(const FileStamp& o) const;
  bool operator!=(const FileStamp& o) const { return !(*this == o); }
};
FileStamp stamp_of(const std::filesystem::path& file);

// True when the environment asks for polling (WORKBOOK_WATCH_POLL set to anything but
// "" or "0").
bool watch_poll_requested();

class FileWatch {
 public:
  // Starts watching now: a save made after this (even before the first wait()) is seen.
  // Falls back to polling when inotify cannot watch the file's folder.
  explicit FileWatch(std::filesystem::path file, FileWatchOptions options = {});
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  // Blocks until the file is saved (then quiet for the debounce time), `timeout` has
  // passed (nullopt: no limit), or `stop` returns true (it is asked every tick; a signal
  // also wakes the wait early).
  WatchEvent wait(std::optional<std::chrono::milliseconds> timeout, const std::function<bool()>& stop = {});

  bool polling() const { return fd_ < 0; }
  const std::filesystem::path& file() const { return file_; }

 private:
  using Clock = std::chrono::steady_clock;
  bool read_events();  // inotify: true when an event named the file
  WatchEvent wait_inotify(Clock::time_point deadline, const std::function<bool()>& stop);
  WatchEvent wait_polling(Clock::time_point deadline, const std::function<bool()>& stop);
  bool settled_change();  // the file exists and differs from last_: last_ updated

  std::filesystem::path file_;
  std::string name_;
  FileWatchOptions options_;
  int fd_ = -1;  // the inotify descriptor, -1 when polling
  FileStamp last_;
};

}  // namespace workbook
