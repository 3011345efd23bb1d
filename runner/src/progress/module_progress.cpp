// Per-module progress (see module_progress.hpp).
#include "progress/module_progress.hpp"

#include <algorithm>

#include "content/outline.hpp"
#include "journal/views.hpp"
#include "learn/review_store.hpp"

namespace workbook::progress {

ModuleProgress summarize(const ModuleContent& content, const LearnerRecord& record) {
  ModuleProgress p;
  p.module = content.number;
  p.title = content.title;
  p.read = record.read.count(content.number) > 0;
  if (!p.read && record.read_inferred.count(content.number)) p.read = p.read_inferred = true;
  for (const auto& [id, steps] : content.examples) {
    auto it = record.followed.find({content.number, id});
    const int done = it == record.followed.end() ? 0 : it->second;
    ++p.follow.total;
    if (done >= steps) ++p.follow.done;
    else if (p.first_open_example.empty()) p.first_open_example = id;
  }
  for (const auto& item : content.items) {
    ++p.answer.total;
    if (record.answered.count({content.number, item})) ++p.answer.done;
  }
  p.items_open = p.answer.total - p.answer.done;
  for (const auto& lab : content.labs) {
    ++p.run.total;
    auto it = record.labs.find(lab);
    const bool ran = it != record.labs.end() && it->second.runs > 0;
    if (ran && it->second.passes > 0) {
      ++p.run.done;
      continue;
    }
    p.labs_open.push_back(lab);
    if (ran) p.labs_tried.push_back(lab);
    if (ran && it->second.last_verdict == "not_run") p.labs_not_run.push_back(lab);
  }
  return p;
}

std::vector<ModuleContent> course_content(const Catalog& catalog) {
  // The manifests and exercise banks, through the outline's cache (content/outline.hpp).
  std::vector<ModuleContent> out;
  for (const ModuleOutline& m : course_outline(catalog)) {
    ModuleContent c;
    c.number = m.number;
    c.title = m.title;
    for (const auto& lab : m.labs) c.labs.push_back(lab.id);
    for (const auto& ex : m.examples) c.examples.emplace_back(ex.id, ex.steps);
    c.items = m.items;
    out.push_back(std::move(c));
  }
  return out;
}

LearnerRecord learner_record(Journal& journal, const std::vector<ModuleContent>& content) {
  LearnerRecord r;
  r.read = modules_read(journal);
  r.read_inferred = modules_read_before_records(journal);
  for (auto& lab : lab_records(journal)) r.labs[lab.lab] = lab;
  learn::ReviewStore store(journal);
  for (const auto& card : store.cards()) r.answered.insert({card.module, card.item});
  for (const auto& m : content) {
    for (const auto& [id, steps] : m.examples) {
      if (int done = store.follow_progress(m.number, id); done > 0) r.followed[{m.number, id}] = done;
    }
  }
  return r;
}

}  // namespace workbook::progress
