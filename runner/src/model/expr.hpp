// Arithmetic expressions over named figures, for expected ranges, derived metrics and
// exercise variants: "2*M*N*P / (fp32_tflops*1e12*0.05) * 1e3". Backed by muparser;
// ceil, floor and round are added to its built-ins (sin, sqrt, log, min, max, ...).
#pragma once

#include <map>
#include <set>
#include <string>

namespace workbook {

using Figures = std::map<std::string, double>;

// Evaluates `expr` with the given variables. Throws workbook::Error (usage) naming the
// expression and the problem (syntax, unknown variable, non-finite result).
double evaluate(const std::string& expr, const Figures& vars);

// The variable names an expression uses; throws workbook::Error on a syntax error.
std::set<std::string> variables_of(const std::string& expr);

}  // namespace workbook
