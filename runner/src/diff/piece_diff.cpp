// Kernel-by-kernel comparison (see piece_diff.hpp).
#include "diff/piece_diff.hpp"

#include <fmt/format.h>

#include <map>

#include "util/utf8.hpp"

namespace workbook::diff {

const char* to_string(PairState state) {
  switch (state) {
    case PairState::identical: return "identical";
    case PairState::changed: return "changed";
    case PairState::only_yours: return "only in yours";
    case PairState::only_reference: return "only in the reference";
  }
  return "?";
}

namespace {

PieceDiff compare(const Piece* mine, const Piece* ref) {
  const Piece& some = ref ? *ref : *mine;
  PieceDiff d{some.name, some.kind, PairState::identical, mine ? mine->first_line : 0, ref ? ref->first_line : 0,
              {}, {}, {}};
  if (!mine || !ref) {
    d.state = mine ? PairState::only_yours : PairState::only_reference;
    return d;
  }
  if (mine->lines == ref->lines) return d;
  d.state = PairState::changed;
  d.hunks = make_hunks(diff_lines(mine->lines, ref->lines), mine->lines, ref->lines);
  d.yours_numbers = mine->line_numbers;
  d.reference_numbers = ref->line_numbers;
  return d;
}

// The file line of a hunk's start (for an empty side: the line before it, as diff -u does).
int file_line(const std::vector<int>& numbers, int start, int count) {
  if (count == 0) return start == 0 ? 0 : numbers[static_cast<std::size_t>(start - 1)];
  return numbers[static_cast<std::size_t>(start)];
}


Piece whole_file(const std::string& text) {
  Piece p{PieceKind::file_scope, "(whole file)", 1, split_lines(text), {}};
  for (std::size_t i = 0; i < p.lines.size(); ++i) p.line_numbers.push_back(static_cast<int>(i + 1));
  return p;
}

}  // namespace

std::vector<PieceDiff> diff_pieces(const std::string& yours, const std::string& reference, bool by_function) {
  const std::vector<Piece> mine = by_function ? split_pieces(yours) : std::vector<Piece>{whole_file(yours)};
  const std::vector<Piece> ref = by_function ? split_pieces(reference) : std::vector<Piece>{whole_file(reference)};
  std::map<std::string, const Piece*> mine_by_name;
  for (const Piece& p : mine) mine_by_name[p.name] = &p;
  std::vector<PieceDiff> out;
  for (const Piece& r : ref) {
    auto it = mine_by_name.find(r.name);
    out.push_back(compare(it == mine_by_name.end() ? nullptr : it->second, &r));
    if (it != mine_by_name.end()) mine_by_name.erase(it);
  }
  for (const Piece& p : mine) {
    if (mine_by_name.count(p.name)) out.push_back(compare(&p, nullptr));
  }
  return out;
}

std::string hunk_header(const PieceDiff& d, const Hunk& h) {
  return fmt::format("@@ -{},{} +{},{} @@", file_line(d.yours_numbers, h.a_start, h.a_count), h.a_count,
                     file_line(d.reference_numbers, h.b_start, h.b_count), h.b_count);
}

std::string piece_heading(const PieceDiff& d) {
  switch (d.kind) {
    case PieceKind::kernel: return "__global__ " + d.name;
    case PieceKind::device: return "__device__ " + d.name;
    case PieceKind::file_scope:
    case PieceKind::type: return d.name;
    case PieceKind::host: return d.name + "()";
  }
  return d.name;
}

nlohmann::json piece_diffs_json(const std::vector<PieceDiff>& diffs) {
  nlohmann::json out = nlohmann::json::array();
  for (const PieceDiff& d : diffs) {
    nlohmann::json hunks = nlohmann::json::array();
    for (const Hunk& h : d.hunks) {
      nlohmann::json lines = nlohmann::json::array();
      for (const auto& [tag, text] : h.lines) lines.push_back(valid_utf8(std::string(1, tag) + text));
      hunks.push_back({{"header", hunk_header(d, h)}, {"lines", lines}});
    }
    out.push_back({{"name", d.name}, {"kind", to_string(d.kind)}, {"state", to_string(d.state)},
                   {"yours_line", d.yours_line ? nlohmann::json(d.yours_line) : nlohmann::json()},
                   {"reference_line", d.reference_line ? nlohmann::json(d.reference_line) : nlohmann::json()},
                   {"hunks", hunks}});
  }
  return out;
}

}  // namespace workbook::diff
