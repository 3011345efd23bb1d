// The exercise bank of a module (exercises/moduleNN.yaml) as typed structs: Recall /
// Explain / Apply items with model answers and auto-checked numbers, optional fresh-number
// variants, and worked examples as ordered steps. Format: docs/authoring.md; version 1.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/yaml_reader.hpp"

namespace workbook {

inline constexpr int kExercisesFormatVersion = 1;

// A number in an answer that is checked automatically.
struct NumericAnswer {
  std::string name;         // [a-z0-9_]+
  double value = 0;
  std::string unit;
  double rel_tol = 0.01;    // used unless abs_tol is set
  std::optional<double> abs_tol;
};

// A parameter of a variant: a list of values, or min/max/step.
struct VariantParam {
  std::string name;
  std::vector<double> values;
};

struct Variant {
  std::vector<VariantParam> params;
  std::string prompt;                                       // {name} placeholders
  std::vector<std::pair<std::string, std::string>> answers;  // numeric name -> formula
};

enum class ItemKind { recall, explain, apply };
const char* to_string(ItemKind k);

struct ExerciseItem {
  std::string id;
  ItemKind kind = ItemKind::recall;
  std::string prompt, answer;
  std::vector<std::string> key_points;
  std::vector<NumericAnswer> numeric;
  std::optional<Variant> variant;
  int line = 0;
};

struct WorkedStep {
  std::string prompt, answer;
  std::vector<NumericAnswer> numeric;
};

struct WorkedExample {
  std::string id, title, problem;
  std::vector<WorkedStep> steps;
};

// An oral-exam drill question (modules 11 and 24): answered out loud against a clock,
// then scored by the points a strong answer covers.
struct DrillItem {
  std::string id;
  std::string question;
  std::vector<int> modules;          // where to reread when a point is missed
  std::vector<std::string> covers;   // what a strong answer covers
  int seconds = 60;
};

struct ExerciseBank {
  int module = 0;
  std::vector<ExerciseItem> items;
  std::vector<WorkedExample> worked_examples;
  std::vector<DrillItem> drills;
  std::string weekly_from;  // "YYYY-MM-DD": the weekly `workbook drill` offers these drills from
                            // that date on (module 24: December, as the workbook asks); "": always
};

// Reads exercises/moduleNN.yaml; problems are added to `problems` as file:line: field: what.
ExerciseBank read_exercises(const std::filesystem::path& file, int module, const std::string& display,
                            Problems& problems);

}  // namespace workbook
