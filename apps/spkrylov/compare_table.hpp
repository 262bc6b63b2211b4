#pragma once
// The `compare:` table: the same system solved with several SpMV backends.
#include <ostream>
#include <vector>

#include "run_report.hpp"

namespace spk::app {

// SpMV calls per iteration of the method (CG 1, BiCGSTAB 2).
int spmv_per_iteration(Method method);

void print_compare_table(std::ostream& out, const std::vector<RunReport>& runs);

}  // namespace spk::app
