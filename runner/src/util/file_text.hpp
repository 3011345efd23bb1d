// Reading and writing a whole file as bytes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace workbook {

// The file's whole content, byte for byte; nullopt when it cannot be opened or read.
std::optional<std::string> read_file_text(const std::filesystem::path& file);

// Writes `text` to `file` (its folders created), through a new temporary file beside it
// (`<file>.tmp.<pid>.<n>`, created exclusively: never shared by two writers, never a link
// written through) renamed into place, so a reader never sees half a file and two writers
// at once leave one whole text. The one temp-and-rename writer of the runner. Throws
// Error (Exit::io_error) on failure.
void write_file_text(const std::filesystem::path& file, const std::string& text);

// Writes all of `text` to `fd`, again after EINTR and short writes; false when a write
// failed (errno says why: EPIPE when the reader went away).
bool write_all(int fd, const std::string& text);

}  // namespace workbook
