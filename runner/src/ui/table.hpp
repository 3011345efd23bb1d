// Tables for the terminal that fit its width: a header row, columns padded to their
// widest cell, and, when the table is wider than the terminal, first its flexible
// columns wrapped at word boundaries inside their cells, then the movable columns moved
// out of the row, from the right, onto lines of their own under it ("head: cell"); when
// even that is too wide, every row is stacked (its first cell, then a "head: cell" line
// for each other one). A column is never left out, a word never cut, and no line is one
// the terminal has to break.
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
  bool movable = false;    // may move under its row ("head: cell") when the table is still too wide
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

}  // namespace workbook
