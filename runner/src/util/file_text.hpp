// Reading a whole file as bytes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace workbook {

// The file's whole content, byte for byte; nullopt when it cannot be opened or read.
std::optional<std::string> read_file_text(const std::filesystem::path& file);

}  // namespace workbook
