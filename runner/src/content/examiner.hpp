// The `examiner:` block of a lab: what an examiner checks in the learner's explanation of
// the main figure (the limiting resource, the figures that matter, the words that name
// each resource, the ceilings figures are compared with, Amdahl facts for a speed-up).
// explain/feedback.hpp grades an explanation against a run with it; docs/authoring.md
// documents the fields.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "content/manifest.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {

using ResourceWords = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The runner's own words for the common resources (memory, compute, latency, launch,
// pcie, occupancy, cache, shared, atomics, ...), lower case, hyphens as spaces.
const ResourceWords& builtin_resource_words();

// The lab's words for each resource merged over the runner's own: every resource either
// names, the lab's words first.
ResourceWords resource_words(const ExplainSpec& spec);

// The default ceilings of a bound the lab declares none for ("memory": dram_gbps GB/s).
std::vector<ExplainCeiling> default_ceilings(const std::string& bound);

// Reads `examiner:` into lab.examiner (call once metrics, derived metrics and vars are
// read: figure names are checked against them). An absent block leaves it empty.
void read_examiner(MapReader& r, LabSpec& lab);

}  // namespace workbook
