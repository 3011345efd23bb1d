// Tables for the terminal that fit its width: a header row, columns padded to their
// widest cell, and, when the table is wider than the terminal, first its one flexible
// column wrapped at word boundaries inside its cell, then the droppable columns left out
// from the right. Never a word cut, never a line the terminal has to break.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ui/style.hpp"

namespace workbook {

struct TableColumn {
  std::string head;
  bool right = false;      // right-aligned (figures)
  bool flexible = false;   // may wrap inside its cell when the table is too wide (one column)
  bool droppable = false;  // may be left out when the table is still too wide
};

struct Table {
  std::vector<TableColumn> columns;
  std::vector<std::vector<std::string>> rows;  // cells may hold Style's colour sequences
  std::string indent = "  ";
  bool header = true;
};

// The table as lines ending in '\n'; `width` 0: as wide as it needs. The header is bold
// when `style` has colour. A column whose every cell is empty is left out.
std::string render_table(const Table& table, std::size_t width, const Style& style);

// Which of the table's columns render_table shows at `width` (false: left out, empty or dropped).
std::vector<bool> shown_columns(const Table& table, std::size_t width);

}  // namespace workbook
