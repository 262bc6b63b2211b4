#pragma once
// The matrices `spkrylov bench` runs on.
#include <string>
#include <vector>

#include "solver/config/run_config.hpp"

namespace spk::app {

struct BenchMatrix {
  std::string label;
  MatrixSpec spec;
};

// default: 10-50 million nonzeros each (several times the 50 MB L2 of an H100);
// small: the same kinds at a size for a quick check; none: only the given files.
std::vector<BenchMatrix> bench_suite(const std::string& name,
                                     const std::vector<std::string>& matrix_files);

}  // namespace spk::app
