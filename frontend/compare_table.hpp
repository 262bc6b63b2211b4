#pragma once
// The `compare:` table: the same system solved with several SpMV backends.
#include <ostream>
#include <vector>

#include "frontend/run_report.hpp"

namespace spk::app {

void print_compare_table(std::ostream& out, const std::vector<RunReport>& runs);

}  // namespace spk::app
