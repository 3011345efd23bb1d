// `workbook list [--json]`: the modules that have content, and their labs.
#include <fmt/format.h>

#include <algorithm>

#include "cmd/registry.hpp"
#include "content/outline.hpp"
#include "ui/wrap.hpp"

namespace workbook {

void setup_list(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("list", "List the modules and their labs");
  auto json_out = std::make_shared<bool>(false);
  add_json_flag(cmd, *json_out, "one JSON array, a module an element");
  cmd->footer("Example:\n  workbook list --json");
  cmd->callback([&ctx, json_out] {
    const Catalog& catalog = ctx.global.catalog();
    std::vector<ModuleOutline> modules = course_outline(catalog);  // cached: content/outline.hpp
    modules.erase(std::remove_if(modules.begin(), modules.end(), [](const ModuleOutline& m) { return !m.has_manifest; }),
                  modules.end());
    if (*json_out) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& m : modules) {
        nlohmann::json labs = nlohmann::json::array();
        for (const auto& lab : m.labs) labs.push_back({{"id", lab.id}, {"title", lab.title}});
        j.push_back({{"module", m.id}, {"title", m.title}, {"labs", labs}});
      }
      print_json(j);
      return;
    }
    Style s = ctx.global.style();
    const std::size_t width = text_width();
    const std::string hang(33, ' ');
    for (const auto& m : modules) {
      fmt::print("{}  {}\n", s.bold(m.id), wrap_text(m.title, width, std::string(m.id.size() + 2, ' '), "    ").substr(m.id.size() + 2));
      for (const auto& lab : m.labs)  // the title wrapped in its column, under itself
        fmt::print("    {:<28} {}\n", lab.id, s.dim(wrap_text(lab.title, width, hang, hang).substr(hang.size())));
    }
    if (modules.empty()) fmt::print("No modules have content in {}.\n", catalog.root().string());
  });
}

}  // namespace workbook
