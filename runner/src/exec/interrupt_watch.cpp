// Signals caught for a while (see interrupt_watch.hpp).
#include "exec/interrupt_watch.hpp"

#include <signal.h>

#include <atomic>
#include <cstddef>

namespace workbook {

namespace {

constexpr int kWatched[] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_caught{0};
std::atomic<bool> g_watching{false};
struct sigaction g_previous[3];
bool g_installed[3] = {};

void on_watched_signal(int sig) { g_caught.store(sig); }

}  // namespace

InterruptWatch::InterruptWatch() {
  g_caught.store(0);
  for (std::size_t i = 0; i < 3; ++i) {
    struct sigaction current {};
    sigaction(kWatched[i], nullptr, &current);
    g_installed[i] = (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_IGN;
    if (!g_installed[i]) continue;
    struct sigaction ours {};
    ours.sa_handler = on_watched_signal;
    sigemptyset(&ours.sa_mask);
    sigaction(kWatched[i], &ours, &g_previous[i]);
  }
  g_watching.store(true);
}

InterruptWatch::~InterruptWatch() {
  g_watching.store(false);
  for (std::size_t i = 0; i < 3; ++i) {
    if (g_installed[i]) sigaction(kWatched[i], &g_previous[i], nullptr);
  }
}

int InterruptWatch::fired() const { return g_caught.load(); }
void InterruptWatch::clear() { g_caught.store(0); }
bool InterruptWatch::active() { return g_watching.load(); }

}  // namespace workbook
