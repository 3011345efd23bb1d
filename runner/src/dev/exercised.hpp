// Every function a starter's TODO asks the learner to write must be run by a check
// (`dev check`). A PASS means the learner's code is right only where a check runs that
// code: a TODO in a function that nothing checks (a launcher used only for timing, a
// kernel run only at sizes that are a multiple of its block) leaves learner-written code
// that can be wrong and still pass.
//
// The rule is static and errs on the side of asking. Whether a check really runs a
// function at an odd size with its output between canary bands cannot be read from the
// source without running it, and a call graph would say only that the function is
// called, not that anything looks at what it did. So the author declares it: the lab's
// manifest maps each function that holds a TODO to the checks that run it
// (`exercised: {enqueue_serial: [serial_odd, serial_odd_bounds]}`), and `dev check --run`
// proves the declared checks by failing the lab's known-wrong variants. What the rule
// itself can see, it checks:
//   - every function holding a TODO is a key of `exercised:` (a new TODO without a
//     check is a problem, not a silent gap);
//   - such a function is referenced somewhere in the starter outside its own
//     definition (called, launched or passed), so that it runs at all;
//   - every key of `exercised:` is a function of the starter (no stale names);
//   - every check named is one the lab reports: one of its `checks:`, memcheck_quick
//     when it declares `memcheck: quick`, a check its solution reports only on some
//     machines (named in a string of the solution, e.g. p2p_copy_ok with two GPUs), or
//     kCudaErrorOnly, for a function whose only effect is CUDA calls inside WB_CHECK
//     (freeing, destroying): a wrong call ends the run with a CUDA error, and that it is
//     called at all no check can see.
// A TODO comment outside every function belongs to the function defined next after it
// (the comment above a function); one with no function after it is a problem.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace workbook {

// A TODO comment (one whose text starts with "TODO") and the function it belongs to
// ("" when none: a TODO after the last function). The functions are the definitions of
// a C++/CUDA (or Python) source: free functions, kernels, templates and member
// functions (C++: by diff/function_split.hpp's scanner); not lambdas or functions local
// to another.
struct TodoSite {
  int line = 0;
  std::string function;
};
std::vector<TodoSite> todo_sites(const std::string& text, bool python);

// The name a TODO site (and `exercised:`) gives a function the diff/ scanner names `name`:
// without its class (Matrix::at is at), a destructor by its class's name (Buf::~Buf is
// Buf); "" for an operator.
std::string todo_function_name(const std::string& name);

inline constexpr const char* kCudaErrorOnly = "cuda_error_only";

// The rule's problems for one lab's starter; `where` names the manifest's lab
// ("modules/module16/module.yaml (lab streams_pipeline)").
std::vector<std::string> unexercised_todo_problems(
    const std::string& starter_rel, const std::string& starter, bool python, const std::string& where,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& exercised);

// The checks named in `exercised` that the lab never reports: not in `checks`, not
// memcheck_quick of a `memcheck: quick` lab, not kCudaErrorOnly, and not in a string
// literal of the solution.
std::vector<std::string> unknown_exercised_checks(
    const std::string& where, const std::vector<std::pair<std::string, std::vector<std::string>>>& exercised,
    const std::vector<std::string>& checks, bool memcheck, const std::string& solution);

}  // namespace workbook
