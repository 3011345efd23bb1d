// The learning commands' two printers (the interface, learn::PracticePrinter, is
// learn/practice_print.hpp), chosen once per command by practice_printer; the cmd/ files
// hand the one they get to the session (learn::LearnContext::printer, learn/practice.hpp):
//   text  the header lines at the start, the summary at the end, in the Output's style
//   JSON  nothing until the end, then one JSON object (and the session itself is quiet)
#pragma once

#include <memory>

#include "learn/practice_print.hpp"
#include "ui/output.hpp"

namespace workbook::learn {

// The JSON printer for out.json, else the text printer in out.style.
std::unique_ptr<PracticePrinter> practice_printer(const Output& out);

}  // namespace workbook::learn
