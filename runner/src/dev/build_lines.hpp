// The by-hand build line in a lab's header comment (`dev check`): a learner on Colab or
// the cluster copies it, so it must compile the file it sits in, with the libraries the
// manifest links.
#pragma once

#include <string>
#include <vector>

#include "content/manifest.hpp"

namespace workbook {

// Problems with the nvcc lines in the first lines of `text`, the source of `rel_path`
// ("labs/module14/tiled_gemm.cu" or "solutions/module14/tiled_gemm.cu"): none at all,
// one that compiles another path, or one that leaves out a library of lab.libs.
// Each problem reads "<rel_path>:<line>: <what is wrong>". Only CUDA labs have them.
std::vector<std::string> build_line_problems(const LabSpec& lab, const std::string& rel_path, const std::string& text);

}  // namespace workbook
