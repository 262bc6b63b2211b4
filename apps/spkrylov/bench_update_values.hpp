#pragma once
// `spkrylov bench --update-values`: the time-loop user's cost of Solver::update_values (new
// values, same pattern) for every format, on the GPU, against one SpMV of the same format.
//   device values: GPU time between CUDA events around the call on the solver's stream
//                  (the scatter into the format's storage and the Jacobi diagonal), and the
//                  host time until the call returns;
//   host values:   host time until the call returns plus a stream synchronization (the
//                  upload included).
// The matrix is the 7-point Poisson system (n = 160, 4.1M rows; --only n=N picks another N),
// the preconditioner Jacobi, so both kernels run.
#include "bench_command.hpp"

namespace spk::app {

int run_update_values_bench(const BenchCommandOptions& options);

}  // namespace spk::app
