// The learner's home folder, where the default workspace (~/workbook) goes.
#pragma once

#include <filesystem>

namespace workbook {

// $HOME when it is an absolute path; when HOME is unset or empty, the account's home
// folder (the password database). Throws UsageError for a relative HOME (folders would
// land wherever a command is started) or no home at all.
std::filesystem::path home_folder();

}  // namespace workbook
