// `workbook show MODULE`: a module's page as data, and its two renderings: the reading
// (moduleNN/README.md) rendered for the terminal, else the objectives, then the labs
// table; or one JSON object with the reading's raw Markdown.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "content/manifest.hpp"
#include "ui/style.hpp"

namespace workbook {

struct ModulePage {
  const Module& module;
  std::optional<std::string> reading;  // the README's text; none when the module has no reading
};

std::string module_page_text(const ModulePage& page, const Style& style, std::size_t width);
nlohmann::json module_page_json(const ModulePage& page);

}  // namespace workbook
