// `--help` that fits the terminal: CLI11's help text with every option's, command's and
// example's description wrapped in its column, at most 80 columns wide (fewer on a
// narrower terminal or under a smaller $COLUMNS). Set on the top App before any command
// is added, so every command inherits it.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace workbook {

// The width help is written to: the terminal's (or $COLUMNS), 80 when unknown, at most 80.
std::size_t help_width();

class WrappingHelpFormatter : public CLI::Formatter {
 public:
  explicit WrappingHelpFormatter(std::size_t width);
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_footer(const CLI::App* app) const override;

 private:
  std::size_t width_;
};

// Installs a WrappingHelpFormatter at help_width() on `app`.
void use_wrapping_help(CLI::App& app);

}  // namespace workbook
