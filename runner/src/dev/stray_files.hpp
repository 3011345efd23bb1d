// labs/ and solutions/ hold nothing but the labs' sources (`dev check`, as rustlings'
// check of unexpected files): every file under labs/moduleNN/ and solutions/moduleNN/ is
// the `source:` of a lab of modules/moduleNN/module.yaml, and nothing else lies beside
// the module folders but labs/common (the harness). A stray file (a backup, an old name
// after a rename, a learner's copy committed by mistake) is reported with what to do.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace workbook {

// `sources`: per module folder ("module14"), the file names its labs declare. `root`: the
// content's root. Returns one problem per stray file or folder, "labs/module14/old.cu: ...".
std::vector<std::string> stray_file_problems(const std::filesystem::path& root,
                                             const std::map<std::string, std::set<std::string>>& sources);

}  // namespace workbook
