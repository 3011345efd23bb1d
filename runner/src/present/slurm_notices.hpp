// What the login node says while a Slurm job is submitted and followed, for `run --slurm`
// and `experiment run --slurm` alike (nothing on stdout under --json).
#pragma once

#include "slurm/slurm_job.hpp"
#include "ui/output.hpp"

namespace workbook {

class ConsoleSlurmObserver : public SlurmObserver {
 public:
  explicit ConsoleSlurmObserver(Output out) : out_(out) {}
  void submitted(const std::string& job_id, const std::string& run_label, const SlurmSettings& s) override;
  void found_by_name(const std::string& what, const std::string& name, const std::string& job_id) override;
  void cancelling(const std::string& job_id) override;

 private:
  Output out_;
};

}  // namespace workbook
