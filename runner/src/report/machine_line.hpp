// The machine a run measured on, in words, for the report's machine line and `history`:
// the driver, the CUDA version the driver supports and the toolkit that built the lab,
// the clocks, the power draw against its limit, the performance state and, on a laptop,
// mains or battery; and what the journal did not record (runs from before it did: "not
// recorded", never a guessed value).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "journal/journal_queries.hpp"

namespace workbook {

struct MachineFacts {
  std::vector<std::string> recorded;  // "driver 580.159.04", "CUDA 13.0 (driver)", "SM 1980 MHz (max 1980)", ...
  std::vector<std::string> missing;   // "driver", "CUDA version", "clocks", "power state", ...
};

// Pure. A run with nothing recorded gives one missing entry naming all four.
MachineFacts machine_facts(const RunMachine& m);

// One line: the recorded facts joined by ", ", then "; not recorded: ..." for the rest;
// "not recorded" alone when the journal holds nothing of that run's machine.
std::string machine_text(const RunMachine& m);

// The recorded values (null where absent) and the list of what is not recorded.
nlohmann::json machine_json(const RunMachine& m);

}  // namespace workbook
