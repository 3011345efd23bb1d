// A command's result on stdout (see output.hpp).
#include "ui/output.hpp"

#include <fmt/format.h>

namespace workbook {

void print_json(const nlohmann::json& j) {
  fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

void print_json_line(const nlohmann::json& j) {
  fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace workbook
