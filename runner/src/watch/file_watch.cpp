// Waiting for a save of one file (see file_watch.hpp).
#include "watch/file_watch.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace workbook {
namespace fs = std::filesystem;
using std::chrono::milliseconds;

namespace {

// What a save can look like from the folder: written in place, created, renamed over
// the old file (vim, VS Code), or touched. Losing the folder itself ends inotify.
constexpr std::uint32_t kFolderMask =
    IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;

// Sleeps up to `d` (a signal ends it early) and says nothing.
void nap(milliseconds d) { ::poll(nullptr, 0, static_cast<int>(std::max<long long>(0, d.count()))); }

// The time left to `deadline`, at most `cap`, in whole milliseconds (at least 1).
milliseconds left(std::chrono::steady_clock::time_point deadline, milliseconds cap) {
  const auto now = std::chrono::steady_clock::now();
  if (deadline <= now) return milliseconds(0);
  const auto rest = std::chrono::duration_cast<milliseconds>(deadline - now) + milliseconds(1);
  return std::min(rest, cap);
}

}  // namespace

const char* to_string(WatchEvent e) {
  switch (e) {
    case WatchEvent::saved: return "saved";
    case WatchEvent::timed_out: return "timed out";
    case WatchEvent::stopped: return "stopped";
  }
  return "?";
}

bool FileStamp::operator==(const FileStamp& o) const {
  return exists == o.exists && device == o.device && inode == o.inode && size == o.size && mtime_ns == o.mtime_ns;
}

FileStamp stamp_of(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  FileStamp s;
  s.exists = true;
  s.device = static_cast<unsigned long long>(st.st_dev);
  s.inode = static_cast<unsigned long long>(st.st_ino);
  s.size = static_cast<unsigned long long>(st.st_size);
  s.mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + static_cast<long long>(st.st_mtim.tv_nsec);
  return s;
}

bool watch_poll_requested() {
  const char* v = std::getenv("WORKBOOK_WATCH_POLL");
  return v && *v && std::strcmp(v, "0") != 0;
}

FileWatch::FileWatch(fs::path file, FileWatchOptions options)
    : file_(std::move(file)), name_(file_.filename().string()), options_(options), last_(stamp_of(file_)) {
  if (options_.poll || watch_poll_requested()) return;
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) return;  // no inotify here (or no descriptors left): poll
  const fs::path folder = file_.has_parent_path() ? file_.parent_path() : fs::path(".");
  if (::inotify_add_watch(fd_, folder.c_str(), kFolderMask) < 0) {  // e.g. the folder is missing
    ::close(fd_);
    fd_ = -1;
  }
}

FileWatch::~FileWatch() {
  if (fd_ >= 0) ::close(fd_);
}

WatchEvent FileWatch::wait(std::optional<milliseconds> timeout, const std::function<bool()>& stop) {
  const auto deadline = timeout ? Clock::now() + *timeout : Clock::time_point::max();
  return polling() ? wait_polling(deadline, stop) : wait_inotify(deadline, stop);
}

bool FileWatch::settled_change() {
  const FileStamp now = stamp_of(file_);
  if (!now.exists || now == last_) return false;
  last_ = now;
  return true;
}

bool FileWatch::read_events() {
  alignas(inotify_event) char buf[8192];
  bool named = false, lost = false;
  for (;;) {
    const ssize_t got = ::read(fd_, buf, sizeof buf);
    if (got <= 0) break;  // EAGAIN: drained (EINTR: the caller's loop comes back)
    for (ssize_t at = 0; at < got;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + at);
      if (ev->mask & (IN_Q_OVERFLOW)) named = true;  // events were dropped: look at the file
      if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) lost = true;
      if (ev->len > 0 && name_ == ev->name) named = true;
      at += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
    }
  }
  if (lost) {  // the folder went away or moved: only polling can follow the path now
    ::close(fd_);
    fd_ = -1;
    named = true;
  }
  return named;
}

WatchEvent FileWatch::wait_inotify(Clock::time_point deadline, const std::function<bool()>& stop) {
  bool pending = false;            // a change not yet quiet for the debounce time
  Clock::time_point last_event{};
  for (;;) {
    if (stop && stop()) return WatchEvent::stopped;
    if (pending && Clock::now() - last_event >= options_.debounce) {
      pending = false;
      if (settled_change()) return WatchEvent::saved;
    }
    if (Clock::now() >= deadline) return WatchEvent::timed_out;
    milliseconds span = left(deadline, options_.tick);
    if (pending) span = std::min(span, left(last_event + options_.debounce, options_.tick));
    pollfd p{fd_, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(span.count()));
    if (n > 0 && read_events()) {
      pending = true;
      last_event = Clock::now();
    }
    if (polling()) return wait_polling(deadline, stop);  // the folder was lost
  }
}

WatchEvent FileWatch::wait_polling(Clock::time_point deadline, const std::function<bool()>& stop) {
  bool changing = false;           // `seen` differs from last_, since `changed_at`
  Clock::time_point changed_at{};  // (no std::optional: GCC 12 warns it may be uninitialized)
  FileStamp seen;
  Clock::time_point next_look = Clock::now();
  for (;;) {
    if (stop && stop()) return WatchEvent::stopped;
    const auto now = Clock::now();
    if (now >= next_look) {
      const FileStamp s = stamp_of(file_);
      if (!s.exists || s == last_) {
        changing = false;
      } else if (!changing || s != seen) {  // a change, or still changing: wait for quiet
        changing = true;
        changed_at = now;
        seen = s;
      } else if (now - changed_at >= options_.debounce) {
        last_ = s;
        return WatchEvent::saved;
      }
      next_look = now + (changing ? options_.debounce : options_.poll_interval);
    }
    if (now >= deadline) return WatchEvent::timed_out;
    nap(std::min(left(deadline, options_.tick), left(next_look, options_.tick)));
  }
}

}  // namespace workbook
