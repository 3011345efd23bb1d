// A command's result on stdout: one JSON value for scripts (--json), else its text. The
// one print_json: pretty, a trailing newline, and bytes that are not UTF-8 (a lab's
// output, a learner's answer) as U+FFFD, never an error.
#pragma once

#include <nlohmann/json.hpp>

namespace workbook {

void print_json(const nlohmann::json& j);

// The result handed to its printer pair: print_json(to_json(result)) with `json`, else
// print_text(result), which prints the text.
template <class Result, class ToJson, class PrintText>
void print_result(bool json, const Result& result, ToJson&& to_json, PrintText&& print_text) {
  if (json) print_json(to_json(result));
  else print_text(result);
}

}  // namespace workbook
