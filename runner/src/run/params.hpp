// A lab's parameters for one run: the manifest's defaults (or quick values), overridden
// by `-p NAME=VALUE`, every value checked before anything is recorded or built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "model/expr.hpp"

namespace workbook {

// The largest magnitude an integer parameter may have: every integer up to it is exact
// in the double the runner keeps it in, and it fits the lab's int64 (wb::param).
inline constexpr double kMaxParamMagnitude = 9007199254740992.0;  // 2^53

// The longest time limit a run may have (--timeout): 24 hours.
inline constexpr double kMaxTimeoutSeconds = 86400;
// The shortest (--timeout): below a second the runner's own start-up decides the verdict.
inline constexpr double kMinTimeoutSeconds = 1;

// Reads one integer parameter value as `wb::param` in the lab harness does
// (labs/common/wb_host.hpp parse_int): decimal or 0x-hexadecimal, with an optional sign;
// the learner's number forms that are whole numbers ("1e6", "1,048,576") are accepted
// too, as the runner passes the lab the plain decimal. Returns the value, or nullopt with
// `why` saying what is wrong ("is not a whole number", "is too large").
std::optional<double> parse_param_value(const std::string& text, std::string& why);

// The parameters of a run of `lab`: each default (its quick value with `quick`), then
// each NAME=VALUE of `flags` in order. Throws UsageError for a flag that is not
// NAME=VALUE, names no parameter of the lab or one an earlier flag set, or whose value is
// not a whole number in range.
Figures resolve_params(const LabSpec& lab, const std::vector<std::string>& flags, bool quick);

// `--sweep FLAG` with `-p` flags: throws UsageError when a -p sets the swept parameter
// (the sweep would silently override it). FLAG is "NAME=v1,v2,..." or "NAME".
void refuse_swept_param(const std::string& sweep_flag, const std::vector<std::string>& param_flags);

// --timeout: a number of seconds (or with a time unit: "1500 ms"), finite, from
// kMinTimeoutSeconds to kMaxTimeoutSeconds. Throws UsageError otherwise ("inf", "nan",
// "1e12", "0", "1e-9", "500 ms").
double parse_timeout(const std::string& text);

// --seed: a whole number from 0 to 2^64 - 1, decimal or 0x-hexadecimal (as the lab
// harness's parse_uint reads it). Throws UsageError otherwise ("2^64", "-1", "1.5").
std::uint64_t parse_seed(const std::string& text);

}  // namespace workbook
