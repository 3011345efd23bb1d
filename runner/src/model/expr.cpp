// muparser-backed expression evaluation (see expr.hpp).
#include "model/expr.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <muParser.h>

#include <cmath>
#include <list>

#include "util/error.hpp"

namespace workbook {
namespace {

double fn_ceil(double x) { return std::ceil(x); }
double fn_floor(double x) { return std::floor(x); }
double fn_round(double x) { return std::round(x); }

void add_functions(mu::Parser& p) {
  p.DefineFun("ceil", fn_ceil);
  p.DefineFun("floor", fn_floor);
  p.DefineFun("round", fn_round);
}

// muparser's variable factory: every unknown name gets a slot (used to list names).
double* make_slot(const char*, void* user) {
  auto* slots = static_cast<std::list<double>*>(user);
  slots->push_back(0.0);
  return &slots->back();
}

}  // namespace

double evaluate(const std::string& expr, const Figures& vars) {
  std::map<std::string, double> slots;
  for (const auto& name : variables_of(expr)) {
    auto it = vars.find(name);
    if (it == vars.end()) {
      std::vector<std::string> known;
      for (const auto& kv : vars) known.push_back(kv.first);
      throw UsageError(fmt::format("expression '{}' uses '{}', which is not known here", expr, name),
                       known.empty() ? std::string("known names: (none)") : fmt::format("known names: {}", fmt::join(known, ", ")));
    }
    slots[name] = it->second;
  }
  try {
    mu::Parser p;
    add_functions(p);
    for (auto& [name, value] : slots) p.DefineVar(name, &value);
    p.SetExpr(expr);
    double result = p.Eval();
    if (!std::isfinite(result)) {
      throw UsageError(fmt::format("expression '{}' gives {} (not a finite number)", expr, result));
    }
    return result;
  } catch (const mu::Parser::exception_type& e) {
    throw UsageError(fmt::format("expression '{}': {}", expr, e.GetMsg()));
  }
}

std::set<std::string> variables_of(const std::string& expr) {
  try {
    std::list<double> storage;
    mu::Parser p;
    add_functions(p);
    p.SetVarFactory(make_slot, &storage);
    p.SetExpr(expr);
    std::set<std::string> names;
    for (const auto& kv : p.GetUsedVar()) names.insert(kv.first);
    return names;
  } catch (const mu::Parser::exception_type& e) {
    throw UsageError(fmt::format("expression '{}': {}", expr, e.GetMsg()));
  }
}

}  // namespace workbook
