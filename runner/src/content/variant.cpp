// Lab variants (see variant.hpp).
#include "content/variant.hpp"

#include <fmt/format.h>

#include <fstream>

#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

const char* to_string(VariantKind kind) { return kind == VariantKind::wrong ? "wrong" : "slow"; }

namespace {
std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}
}  // namespace

std::string apply_variant(const std::string& text, const VariantSpec& variant, const std::string& file,
                          const std::string& field) {
  std::string out = text;
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < variant.edits.size(); ++i) {
    const SourceEdit& e = variant.edits[i];
    const std::size_t n = e.from.empty() ? 0 : count_occurrences(out, e.from);
    if (n != 1) {
      problems.push_back(fmt::format("{}:{}: {}.{}.edits[{}].from: occurs {} times in the solution{}; it must occur "
                                     "exactly once (quote more of the line)",
                                     file, e.line, field, variant.id, i, n, i > 0 ? " after the earlier edits" : ""));
      continue;
    }
    out.replace(out.find(e.from), e.from.size(), e.to);
  }
  if (!problems.empty()) throw ContentError(problems);
  return out;
}

const VariantSpec& find_variant(const LabSpec& lab, const std::string& id) {
  for (const auto& v : lab.variants)
    if (v.id == id) return v;
  std::string known;
  for (const auto& v : lab.variants) known += (known.empty() ? "" : ", ") + v.id;
  throw UsageError(fmt::format("{} has no variant '{}'", lab.id, id),
                   known.empty() ? "this lab declares no variants" : "its variants: " + known);
}

fs::path write_variant_source(const LabSpec& lab, const VariantSpec& variant, const fs::path& solution,
                              const fs::path& dir) {
  const std::optional<std::string> source = read_file_text(solution);
  if (!source) throw UsageError("cannot read the solution " + solution.string());
  const std::string text = apply_variant(*source, variant, "modules/" + lab.id.substr(0, lab.id.find('/')) + "/module.yaml");
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path out = dir / fmt::format("{}.{}{}", lab.name, variant.id, solution.extension().string());
  {
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) throw UsageError("cannot write the variant source " + out.string());
  }
  return out;
}

}  // namespace workbook
