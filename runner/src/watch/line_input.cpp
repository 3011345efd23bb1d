// Lines from a file descriptor, given up on request (see line_input.hpp).
#include "watch/line_input.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace workbook {

LineInput::Status LineInput::next(std::string& line, const std::function<bool()>& stop,
                                  std::chrono::milliseconds tick) {
  for (;;) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return Status::line;
    }
    if (closed_) {
      if (buffer_.empty()) return Status::end;
      line.swap(buffer_);
      buffer_.clear();
      return Status::line;
    }
    if (stop && stop()) return Status::stopped;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(tick.count())) <= 0) continue;  // nothing yet, or a signal
    char buf[4096];
    const ssize_t got = ::read(fd_, buf, sizeof buf);
    if (got > 0) buffer_.append(buf, static_cast<std::size_t>(got));
    else if (got == 0 || (errno != EINTR && errno != EAGAIN)) closed_ = true;
  }
}

}  // namespace workbook
