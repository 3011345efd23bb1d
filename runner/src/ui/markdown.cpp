// Markdown for the terminal (see markdown.hpp). Line-based: a block is a heading, a
// fenced or indented code block, a table, a rule, a list item, a quote or a paragraph.
#include "ui/markdown.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "ui/table.hpp"
#include "ui/wrap.hpp"

namespace workbook {

namespace {

constexpr char kKeep = '\x1f';  // stands for a space inside inline code while wrapping

std::string_view trim_left(std::string_view s) {
  const std::size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view{} : s.substr(i);
}

bool blank(std::string_view s) { return trim_left(s).empty(); }

std::size_t lead(std::string_view s) {
  const std::size_t i = s.find_first_not_of(' ');
  return i == std::string_view::npos ? s.size() : i;
}

// The marker of a list item ("- ", "* ", "12. ") with the spaces before it, or 0.
std::size_t list_marker(std::string_view line) {
  const std::size_t i = lead(line);
  if (i + 1 < line.size() && (line[i] == '-' || line[i] == '*' || line[i] == '+') && line[i + 1] == ' ') return i + 2;
  std::size_t j = i;
  while (j < line.size() && j - i < 3 && line[j] >= '0' && line[j] <= '9') ++j;
  if (j > i && j + 1 < line.size() && (line[j] == '.' || line[j] == ')') && line[j + 1] == ' ') return j + 2;
  return 0;
}

int heading_level(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == '#') ++n;
  return n >= 1 && n <= 6 && (n == line.size() || line[n] == ' ') ? static_cast<int>(n) : 0;
}

bool is_rule(std::string_view line) {
  const std::string_view t = trim_left(line);
  if (t.size() < 3) return false;
  const char c = t[0];
  if (c != '-' && c != '*' && c != '_') return false;
  return std::all_of(t.begin(), t.end(), [c](char x) { return x == c || x == ' '; });
}

bool is_fence(std::string_view line) {
  const std::string_view t = trim_left(line);
  return t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0;
}

bool is_table(std::string_view line) { return trim_left(line).rfind('|', 0) == 0; }

// What the report's writer escapes (report/report_data.hpp's md_text), shown as typed:
// a backslash before punctuation and the entities &lt; &gt; &amp; &quot;. The length
// of `text` from `i` that stands for one character, and that character; 0 for none.
std::size_t escaped(std::string_view text, std::size_t i, char& c) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}};
  if (text[i] == '\\' && i + 1 < text.size() && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
    c = text[i + 1];
    return 2;
  }
  for (const auto& [entity, ch] : kEntities)
    if (text.substr(i, entity.size()) == entity) return c = ch, entity.size();
  return 0;
}

// Inline code's spaces held as kKeep, so that wrapping never splits a `code span`;
// **strong** is bold in colour and plain text without (the markers are never shown:
// a reader without colour reads the words, not the syntax). Backticks stay: they say
// which words are code. Outside code, escapes show the character they stand for.
std::string inline_text(std::string_view text, const Style& s) {
  std::string out;
  bool code = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    char plain = 0;
    if (const std::size_t n = code ? 0 : escaped(text, i, plain); n != 0) {
      out += plain;
      i += n - 1;
      continue;
    }
    if (c == '`') code = !code;
    if (code && c == ' ') {
      out += kKeep;
      continue;
    }
    if (!code && c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("**", i + 2);
      if (end != std::string_view::npos && end > i + 2) {
        const std::string strong(text.substr(i + 2, end - i - 2));
        out += s.color() ? s.bold(strong) : strong;
        i = end + 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

std::string wrapped(std::string_view text, std::size_t width, const std::string& first, const std::string& rest,
                    const Style& s) {
  std::string out = wrap_text(inline_text(text, s), width, first, rest);
  std::replace(out.begin(), out.end(), kKeep, ' ');
  return out + "\n";
}

// The cells of a pipe-table row ("| a | b |"), trimmed, with inline markup read.
std::vector<std::string> table_cells(std::string_view row, const Style& s) {
  std::vector<std::string> cells;
  row = trim_left(row);
  if (!row.empty() && row.front() == '|') row.remove_prefix(1);
  while (!row.empty() && (row.back() == ' ' || row.back() == '|')) row.remove_suffix(1);
  for (std::size_t at = 0; at <= row.size();) {
    std::size_t bar = row.find('|', at);
    while (bar != std::string_view::npos && bar > 0 && row[bar - 1] == '\\') bar = row.find('|', bar + 1);  // \| is a cell's
    if (bar == std::string_view::npos) bar = row.size();
    std::string cell(trim_left(row.substr(at, bar - at)));
    while (!cell.empty() && cell.back() == ' ') cell.pop_back();
    cell = inline_text(cell, s);
    std::replace(cell.begin(), cell.end(), kKeep, ' ');
    cells.push_back(cell);
    at = bar + 1;
  }
  return cells;
}

// A pipe table as a ui Table: its first row the header, the |---| row read for the
// columns aligned right (---:), every column wrapping in its cells; stacked when even
// that is too wide (ui/table.hpp).
std::string pipe_table(const std::vector<std::string_view>& rows, std::size_t width, const Style& s) {
  Table t;
  t.indent = "  ";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string> cells = table_cells(rows[r], s);
    const bool rule = std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
      return !c.empty() && c.find_first_not_of("-: ") == std::string::npos;
    });
    if (rule) {
      for (std::size_t c = 0; c < cells.size() && c < t.columns.size(); ++c)
        t.columns[c].right = cells[c].back() == ':' && cells[c].front() != ':';
      continue;
    }
    if (t.columns.empty()) {
      for (auto& c : cells) t.columns.push_back({c, false, true});
      continue;
    }
    cells.resize(t.columns.size());
    t.rows.push_back(std::move(cells));
  }
  return render_table(t, width, s);
}

// A heading's lines: bold and underlined in colour; plain, with a rule under it, without.
std::string heading(std::string_view text, int level, const Style& s) {
  const std::string t(text);
  if (s.color()) return (level <= 2 ? s.bold(s.underline(t)) : s.bold(t)) + "\n\n";
  if (level >= 3) return t + "\n\n";
  return t + "\n" + std::string(text_columns(t), level == 1 ? '=' : '-') + "\n\n";
}

class Renderer {
 public:
  Renderer(std::string_view md, std::size_t width, const Style& s) : width_(width), s_(s) {
    for (std::size_t at = 0; at <= md.size();) {
      const std::size_t nl = md.find('\n', at);
      lines_.push_back(md.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
      if (nl == std::string_view::npos) break;
      at = nl + 1;
    }
    while (!lines_.empty() && blank(lines_.back())) lines_.pop_back();
  }

  std::string run() {
    while (i_ < lines_.size()) block();
    while (out_.size() > 1 && out_[out_.size() - 1] == '\n' && out_[out_.size() - 2] == '\n') out_.pop_back();
    return out_;
  }

 private:
  std::string_view line() const { return lines_[i_]; }
  bool more() const { return i_ < lines_.size(); }
  // A blank line before the next block, unless there is one (or nothing) already.
  void blank_line() {
    if (!out_.empty() && out_.back() == '\n' && (out_.size() < 2 || out_[out_.size() - 2] != '\n')) out_ += "\n";
  }

  // A line that starts a block of its own, ending a paragraph or list item before it.
  bool starts_block(std::string_view l) const {
    return blank(l) || heading_level(l) || is_fence(l) || is_table(l) || is_rule(l) || list_marker(l) ||
           trim_left(l).rfind('>', 0) == 0;
  }

  // Code, indented and as it is, so that what is copied from the terminal is the code.
  // A ```text block holds a program's output, not code: a line of it wider than the
  // terminal is folded at its spaces, hanging two columns in.
  void code_fence() {
    const bool text = trim_left(line()).substr(3) == "text";
    ++i_;
    for (; more() && !is_fence(line()); ++i_) {
      const std::string indented = "    " + std::string(line());
      out_ += (text && width_ != 0 ? wrap_text(indented, width_, "", "  ") : indented) + "\n";
    }
    if (more()) ++i_;
    out_ += "\n";
  }

  // A block quote: its paragraphs (a line of ">" alone between them) each wrapped behind
  // "  | ", with a "  |" line between them.
  void quote() {
    std::string text;
    bool first = true;
    const auto flush = [&] {
      if (!text.empty()) out_ += (first ? "" : "  |\n") + wrapped(trim_left(text), width_, "  | ", "  | ", s_);
      first = first && text.empty();
      text.clear();
    };
    for (; more() && trim_left(line()).rfind('>', 0) == 0; ++i_) {
      const std::string_view inside = trim_left(trim_left(line()).substr(1));
      if (inside.empty()) flush();
      else text += " " + std::string(inside);
    }
    flush();
  }

  // Joins the lines of a paragraph or list item (continuation lines) onto one.
  std::string joined(std::string first) {
    ++i_;
    while (more() && !starts_block(line())) first += " " + std::string(trim_left(line())), ++i_;
    return first;
  }

  void block() {
    const std::string_view l = line();
    if (blank(l)) {
      blank_line();
      ++i_;
    } else if (const int h = heading_level(l)) {
      blank_line();
      out_ += heading(trim_left(l.substr(static_cast<std::size_t>(h))), h, s_);
      ++i_;
    } else if (is_fence(l)) {
      code_fence();
    } else if (lead(l) >= 4 && !list_) {
      while (more() && (lead(line()) >= 4 || blank(line()))) out_ += std::string(line()) + "\n", ++i_;
    } else if (is_table(l)) {
      std::vector<std::string_view> rows;
      while (more() && is_table(line())) rows.push_back(line()), ++i_;
      out_ += pipe_table(rows, width_, s_);
    } else if (is_rule(l)) {
      out_ += std::string(std::min<std::size_t>(width_ == 0 ? 40 : width_, 40), '-') + "\n";
      ++i_;
    } else if (const std::size_t m = list_marker(l)) {
      const std::string marker(l.substr(0, m));
      out_ += wrapped(joined(std::string(l.substr(m))), width_, marker, std::string(m, ' '), s_);
      list_ = true;
      return;
    } else if (trim_left(l).rfind('>', 0) == 0) {
      quote();
    } else if (i_ + 1 < lines_.size() && !blank(lines_[i_ + 1]) && trim_left(lines_[i_ + 1]).find_first_not_of('=') == std::string_view::npos) {
      blank_line();
      out_ += heading(trim_left(l), 1, s_);  // a Setext heading: Title, then ====
      i_ += 2;
    } else {
      const std::size_t indent = list_ ? lead(l) : 0;
      out_ += wrapped(joined(std::string(trim_left(l))), width_, std::string(indent, ' '), std::string(indent, ' '), s_);
      return;
    }
    if (!blank(l)) list_ = false;
    else if (more() && !list_marker(line()) && lead(line()) == 0) list_ = false;
  }

  std::vector<std::string_view> lines_;
  std::size_t i_ = 0, width_;
  const Style& s_;
  std::string out_;
  bool list_ = false;  // inside a list: indented lines continue it rather than start code
};

}  // namespace

std::string render_markdown(std::string_view markdown, std::size_t width, const Style& style) {
  std::string out = Renderer(markdown, width, style).run();
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

}  // namespace workbook
