// A command's result on stdout: one JSON value for scripts (--json), else its text. The
// one print_json: pretty, a trailing newline, and bytes that are not UTF-8 (a lab's
// output, a learner's answer) as U+FFFD, never an error.
#pragma once

#include <nlohmann/json.hpp>

#include "ui/style.hpp"

namespace workbook {

void print_json(const nlohmann::json& j);
// One JSON value on one line (JSON Lines: a stream of results, as `watch --json` prints).
void print_json_line(const nlohmann::json& j);

// How a command prints, decided once from --json and the terminal's style: one JSON value
// (no colour, no prose on stdout) or text in `style`. Made by GlobalOptions::output.
struct Output {
  bool json = false;
  Style style{false};
  bool json_lines = false;  // with json: each result on one line (a stream), not pretty
};

// json: an Output for JSON (colour off whatever the terminal allows); else text in `terminal`.
inline Output output_for(bool json, const Style& terminal) { return json ? Output{true, Style(false)} : Output{false, terminal}; }

// The result handed to its printer pair: print_json(to_json(result)) for JSON, else
// print_text(result, style), which prints the text.
template <class Result, class ToJson, class PrintText>
void print_result(const Output& out, const Result& result, ToJson&& to_json, PrintText&& print_text) {
  if (out.json && out.json_lines) print_json_line(to_json(result));
  else if (out.json) print_json(to_json(result));
  else print_text(result, out.style);
}

// Text shown to people along the way (a notice before a slow step, a line before the
// questions): print_text(style) for text; nothing for JSON, whose one value stands alone.
template <class PrintText>
void print_notice(const Output& out, PrintText&& print_text) {
  if (!out.json) print_text(out.style);
}

}  // namespace workbook
