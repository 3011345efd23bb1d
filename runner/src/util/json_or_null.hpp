// An optional figure in a JSON result: its value, or null when it has none.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace workbook {

inline nlohmann::json json_or_null(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace workbook
