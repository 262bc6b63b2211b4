#pragma once
// The scalar fields of spk::SolveResult, in report order, written once: the JSON report
// (run_report.cpp), the Python result (python/src/spkrylov_module.cpp) and, through
// result_field_names(), the checks that the report schema (report.schema.json) and the Python
// stubs (python/spkrylov/__init__.pyi) list the same names (tests/cpu/test_result_fields.cpp,
// python/tests/test_result_fields.py). A new field of SolveResult is one line here.
//
//   for_each_result_field(r, visit)   visit(name, value) for each field: value a const char*
//                                     (the enums' names), a std::string, an int or a double
//
// The solve time and the residual history are not in the list: the JSON report gives the
// time in milliseconds under "times_ms" and no history; Python adds both itself.
#include <string>
#include <vector>

#include "spkrylov/result.hpp"

namespace spk {

template <class Visit>
void for_each_result_field(const SolveResult& r, Visit&& visit) {
  visit("status", to_string(r.status));
  visit("breakdown", to_string(r.breakdown));
  visit("message", r.message);
  visit("iterations", r.iterations);
  visit("iterations_executed", r.iterations_executed);
  visit("residual_replacements", r.residual_replacements);
  visit("breakdown_restarts", r.breakdown_restarts);
  visit("second_passes", r.second_passes);
  visit("threshold", r.threshold);
  visit("b_norm", r.b_norm);
  visit("initial_residual", r.initial_residual);
  visit("recursive_residual", r.recursive_residual);
  visit("true_residual", r.true_residual);
  visit("relative_true_residual", r.relative_true_residual);
}

inline std::vector<std::string> result_field_names() {
  std::vector<std::string> names;
  for_each_result_field(SolveResult{},
                        [&](const char* name, const auto&) { names.push_back(name); });
  return names;
}

}  // namespace spk
