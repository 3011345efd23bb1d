// The login node's notices (see slurm_notices.hpp).
#include "present/slurm_notices.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace workbook {

void ConsoleSlurmObserver::submitted(const std::string& job_id, const std::string& run_label, const SlurmSettings& s) {
  print_notice(out_, [&](const Style&) {
    fmt::print("Submitted Slurm job {} for {}{}{}; Ctrl-C cancels it.\n", job_id, run_label,
               s.partition.empty() ? "" : " (partition " + s.partition + ")", s.gres.empty() ? "" : ", gres " + s.gres);
    std::fflush(stdout);
  });
}

void ConsoleSlurmObserver::found_by_name(const std::string& what, const std::string& name, const std::string& job_id) {
  fmt::print(stderr, "{}; Slurm knows it by its name {} as job {}.\n", what, name, job_id);
}

void ConsoleSlurmObserver::cancelling(const std::string& job_id) {
  print_notice(out_, [&](const Style&) {
    fmt::print("\nCancelling Slurm job {} (scancel) ...\n", job_id);
    std::fflush(stdout);
  });
}

}  // namespace workbook
