// Ctrl-C, SIGTERM and SIGHUP caught for a while, so that the runner can finish what it
// does (cancel a Slurm job, record a run) and say why before it stops.
#pragma once

namespace workbook {

// While it lives, SIGINT (Ctrl-C), SIGTERM and SIGHUP do not end the runner: they are
// caught, so that a login node following a job can cancel it and record why before it
// stops. A signal the runner ignores (nohup) stays ignored. One at a time.
class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  // The last of those signals that arrived since construction (or since clear()), or 0.
  int fired() const;
  void clear();
  // True while one lives: a child's run_process that caught such a signal hands it on.
  static bool active();
};

}  // namespace workbook
