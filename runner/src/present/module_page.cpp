// A module's page (see module_page.hpp).
#include "present/module_page.hpp"

#include <fmt/format.h>

#include "ui/markdown.hpp"
#include "ui/table.hpp"
#include "ui/wrap.hpp"
#include "util/utf8.hpp"

namespace workbook {

std::string module_page_text(const ModulePage& page, const Style& s, std::size_t width) {
  const Module& m = page.module;
  std::string out;
  if (page.reading) {
    out = render_markdown(*page.reading, width, s);
  } else {
    out = fmt::format("{}  {}\n\n{}\n", s.bold(m.id), s.bold(m.title), "After this module you can:");
    for (const auto& o : m.objectives) out += wrap_text(o, width, "  - ", "    ") + "\n";
  }
  out += "\nLabs:\n";
  Table labs{{{"lab"}, {"title", false, true}}, {}, "  ", false};
  for (const auto& lab : m.labs) labs.rows.push_back({lab.id, lab.title});
  out += m.labs.empty() ? "  (none yet)\n" : render_table(labs, width, s);
  return out;
}

nlohmann::json module_page_json(const ModulePage& page) {
  const Module& m = page.module;
  nlohmann::json labs = nlohmann::json::array();
  for (const auto& lab : m.labs) labs.push_back({{"id", lab.id}, {"title", lab.title}, {"goal", lab.goal}});
  return {{"module", m.id}, {"title", m.title}, {"objectives", m.objectives}, {"labs", labs},
          {"reading", page.reading ? nlohmann::json(valid_utf8(*page.reading)) : nlohmann::json()}};
}

}  // namespace workbook
