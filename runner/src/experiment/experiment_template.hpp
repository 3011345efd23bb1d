// `workbook experiment new NAME`: a commented experiment file to start from, the llm.c
// comparison the project asks for (the FP32 and the BF16 build of GPT-2 training).
#pragma once

#include <filesystem>
#include <string>

namespace workbook {

// The file's text (pure); it parses as an experiment (tests check it).
std::string experiment_template(const std::string& name);

// Writes <workspace>/experiments/NAME.yaml; UsageError when it exists (never overwritten).
void write_experiment_template(const std::filesystem::path& file, const std::string& name);

}  // namespace workbook
