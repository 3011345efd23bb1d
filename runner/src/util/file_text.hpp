// Reading and writing a whole file as bytes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace workbook {

// The file's whole content, byte for byte; nullopt when it cannot be opened or read.
std::optional<std::string> read_file_text(const std::filesystem::path& file);

// Writes `text` to `file` (its folders created), through a temporary file `<file>.tmp`
// renamed into place, so a reader never sees half a file; a stale `.tmp` (or a link of
// that name) is removed first, never written through. The one temp-and-rename writer of
// the runner. Throws Error (Exit::io_error) on failure.
void write_file_text(const std::filesystem::path& file, const std::string& text);

}  // namespace workbook
