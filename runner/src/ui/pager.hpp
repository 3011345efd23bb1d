// Long output (a module's reading, a lab's page) shown through a pager on a terminal, the
// way git does: $WORKBOOK_PAGER, else $PAGER, else `less -FRX` (which quits at once when
// the text fits the screen). No pager when stdout is not a terminal (a pipe, a file, a
// Colab cell), with --no-pager, or when the pager named is empty or `cat`.
#pragma once

#include <optional>
#include <string>

namespace workbook {

// The pager to use, or "" for none: the rule above, from its inputs (nullptr: unset).
std::string choose_pager(bool no_pager_flag, bool stdout_terminal, const char* workbook_pager, const char* pager);

// choose_pager for this process's stdout and environment.
std::string pager_for_stdout(bool no_pager_flag);

enum class Shown {
  printed,  // written to stdout
  paged,    // given whole to the pager, which then ended (the learner may have quit early)
};

// Shows `text` through `pager` (run by /bin/sh -c on this stdout, with LESS=FRX when LESS
// is unset); with no pager, or one that cannot start (the shell's 126/127), prints it to
// stdout instead, so nothing is lost. A pager that quits before reading everything (q in
// less) ends the writing quietly: SIGPIPE is ignored meanwhile and EPIPE stops it; Ctrl-C
// goes to the pager, not to us.
Shown show_text(const std::string& text, const std::string& pager);

// Whether the learner was shown all of it: handed whole to a pager, or printed with no
// error to a terminal (`printed_to_terminal`); a pipe (`show 19 | less`) does not count.
inline bool shown_in_full(Shown how, bool printed_to_terminal) {
  return how == Shown::paged || printed_to_terminal;
}

}  // namespace workbook
