// Help that fits the terminal (see help.hpp).
#include "ui/help.hpp"

#include <algorithm>

#include "ui/wrap.hpp"

namespace workbook {

namespace {

constexpr std::size_t kHelpMax = 80;

// The columns of the longest word of `text`.
std::size_t longest_word(const std::string& text) {
  std::size_t most = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find_first_of(" \n", at), text.size());
    most = std::max(most, text_columns(std::string_view(text).substr(at, end - at)));
    at = end + 1;
  }
  return most;
}

// "  NAME    description" with the description wrapped in its column from `col` on; a name
// too long for its column, or a word too long for the column's width, puts the
// description under the name, indented six.
std::string two_columns(const std::string& name, const std::string& desc, std::size_t col, std::size_t width) {
  if (desc.empty()) return wrap_text(name, width, "", "      ") + "\n";
  std::string hang(col, ' ');
  if (text_columns(name) + 1 > col || col + longest_word(desc) > width) {
    if (col + longest_word(desc) > width) hang = "      ";
    return wrap_text(name, width, "", "      ") + "\n" + wrap_text(desc, width, hang, hang) + "\n";
  }
  return wrap_text(desc, width, pad_to(name, col), hang) + "\n";
}

// The footer's prose as paragraphs: consecutive lines at column 0 (written wrapped in the
// source, at its own width) joined with a space, so that the terminal's width wraps them
// once; indented lines (examples), blank lines and a line ending in ':' stay as they are.
std::string join_prose(const std::string& text) {
  std::string out;
  bool in_prose = false;  // the last line written is prose that may go on
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    const bool prose = !line.empty() && line[0] != ' ';
    if (prose && in_prose) {
      out += ' ' + line;
    } else {
      if (!out.empty()) out += '\n';
      out += line;
    }
    in_prose = prose && line.back() != ':';
    if (nl == text.size()) break;
  }
  return out;
}

}  // namespace

std::size_t help_width() {
  const std::size_t w = text_width();
  return w == 0 ? kHelpMax : std::min(w, kHelpMax);
}

WrappingHelpFormatter::WrappingHelpFormatter(std::size_t width) : width_(width) {
  column_width(width >= 80 ? 30 : 24);
}

std::string WrappingHelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return two_columns("  " + make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt),
                     column_width_, width_);
}

std::string WrappingHelpFormatter::make_footer(const CLI::App* app) const {
  return join_prose(CLI::Formatter::make_footer(app));
}

std::string WrappingHelpFormatter::make_subcommand(const CLI::App* sub) const {
  return two_columns("  " + sub->get_display_name(true), sub->get_description(), column_width_, width_);
}

// The description, usage line and footer (its examples: "  workbook next    what it does")
// wrapped line by line, each continuation under its line's second column.
std::string WrappingHelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  const std::string text = CLI::Formatter::make_help(app, std::move(name), mode);
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    out += wrap_columns(std::string_view(text).substr(at, nl - at), width_);
    if (nl < text.size()) out += '\n';
    at = nl + 1;
  }
  return out;
}

void use_wrapping_help(CLI::App& app) { app.formatter(std::make_shared<WrappingHelpFormatter>(help_width())); }

}  // namespace workbook
