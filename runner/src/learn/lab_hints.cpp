// Progressive hints of a lab (see lab_hints.hpp).
#include "learn/lab_hints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "content/lab_id.hpp"
#include "journal/hint_log.hpp"
#include "ui/output.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"

namespace workbook::learn {

HintView plan_hints(const LabSpec& lab, const std::vector<int>& seen, bool all) {
  HintView v;
  v.lab = lab.id;
  v.total = static_cast<int>(lab.hints.size());
  const std::set<int> before(seen.begin(), seen.end());
  bool took_new = false;
  for (int i = 1; i <= v.total; ++i) {
    const bool was_seen = before.count(i) > 0;
    if (!was_seen && took_new && !all) break;  // one new hint per call
    v.shown.push_back({i, lab.hints[static_cast<std::size_t>(i - 1)], !was_seen});
    took_new = took_new || !was_seen;
  }
  // A hint seen before stays seen; indices beyond a shortened list do not count.
  std::set<int> after;
  for (int i : before) if (i >= 1 && i <= v.total) after.insert(i);
  for (const auto& h : v.shown) after.insert(h.index);
  v.seen = static_cast<int>(after.size());
  return v;
}

HintView take_hints(Journal& journal, const LabSpec& lab, bool all) {
  std::vector<int> seen;
  for (const auto& h : hints_shown(journal, lab.id)) seen.push_back(h.hint);
  HintView v = plan_hints(lab, seen, all);
  for (const auto& h : v.shown) {
    if (h.is_new) record_hint_shown(journal, lab.id, h.index);
  }
  return v;
}

std::string solution_command(const std::string& lab) { return "workbook show " + lab + " --solution"; }

std::string format_hints(const HintView& v, const Style& s) {
  if (v.total == 0) {
    return wrap_text(fmt::format("{} has no hints: its steps (`workbook show {}`) walk you through it.", v.lab, v.lab),
                     text_width()) + "\n";
  }
  const std::size_t width = text_width();
  std::string out;
  for (const auto& h : v.shown) {
    const std::string head = fmt::format("Hint {} of {}", h.index, v.total);
    out += (h.is_new ? s.bold(head) : s.dim(head + " (seen before)")) + "\n";
    out += wrap_text(h.text, width, "  ", "  ") + "\n\n";
  }
  if (v.all_seen()) {
    out += wrap_text(fmt::format("All {} hints of {} are shown. Still stuck? The reference solution:", v.total, v.lab), width) +
           fmt::format("\n  {}\n", solution_command(v.lab));
  } else {
    out += s.dim(wrap_text(fmt::format("{} of {} hints seen; `workbook hint {}` again shows the next one.", v.seen,
                                       v.total, v.lab), width)) + "\n";
  }
  return out;
}

nlohmann::json to_json(const HintView& v) {
  nlohmann::json shown = nlohmann::json::array();
  for (const auto& h : v.shown) shown.push_back({{"index", h.index}, {"text", h.text}, {"new", h.is_new}});
  return {{"lab", v.lab},
          {"total", v.total},
          {"seen", v.seen},
          {"hints", shown},
          {"all_seen", v.all_seen()},
          {"solution_command", v.all_seen() ? nlohmann::json(solution_command(v.lab)) : nlohmann::json(nullptr)}};
}

int show_hints(const Catalog& catalog, Journal& journal, const std::string& lab_ref, bool all, const Output& out) {
  const LabRef ref = parse_lab_ref_or_throw(lab_ref);
  LabSpec lab;
  if (ref.name.empty()) {
    const Module& m = catalog.load_module(ref.module);
    if (m.labs.size() != 1) {
      std::string names;
      for (const auto& l : m.labs) names += (names.empty() ? "" : ", ") + l.id;
      throw UsageError(fmt::format("'{}' names a module; hints belong to one of its labs", lab_ref),
                       m.labs.empty() ? fmt::format("{} has no labs", m.id) : "name one of: " + names);
    }
    lab = m.labs.front();
  } else {
    lab = catalog.find_lab(ref);
  }
  const HintView view = take_hints(journal, lab, all);
  print_result(out, view, [](const HintView& v) { return to_json(v); },
               [](const HintView& v, const Style& s) { fmt::print("{}", format_hints(v, s)); });
  return 0;
}

}  // namespace workbook::learn
