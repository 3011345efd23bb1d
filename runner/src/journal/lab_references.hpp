// A GPU's own lab references (journal table lab_references, schema.cpp "lab references"):
// what `workbook device --calibrate --labs` measured by running each lab's reference
// solution on this GPU, in the meaning of data/measured/*.yaml (value and band per
// figure), keyed by what makes a figure valid: the GPU (its name, a MIG slice's with its
// profile: slurm/slurm_node.hpp's gpu_reference_name; the UUID is recorded),
// the driver, the toolkit, the solution's source hash and the parameters, with the clock
// and power state it was measured in. Rows are never changed: a new calibration adds a
// row and the newest that matches is used. They travel with `journal export`, so a Colab
// T4 measured once serves the next Colab session.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

struct LabReferenceFigure {
  double value = 0;   // the median over the calibration's runs
  double band = 0;    // graded range: value / (1 + band) .. value * (1 + band)
  double spread = 0;  // (max - min) / median over the runs
};

struct LabReference {
  std::string gpu_name, gpu_uuid, driver, toolkit, lab, source_hash;
  std::map<std::string, double> params;           // the run's parameters, every one
  std::optional<double> sm_clock_mhz;             // read before the runs ("" where unknown)
  std::string power_source;                       // "mains", "battery" or ""
  int runs = 0;                                   // how many runs the figures are over
  std::map<std::string, LabReferenceFigure> figures;
  std::map<std::string, double> basis;            // the device figures the runs were graded on
  std::string measured_at;                        // set by record_lab_reference
};

void record_lab_reference(Journal& journal, const LabReference& r);

// Every reference recorded for a GPU of this name, newest first.
std::vector<LabReference> lab_references_for(Journal& journal, const std::string& gpu_name);

}  // namespace workbook
