#pragma once
// `spkrylov bench --preconditioners SPEC...`: time to solution per preconditioner on the
// 7-point Poisson system of each --sizes n (and each --matrix file), on the GPU, CG to
// --tolerance relative to ||b|| with b = ones. Per run a fresh Solver is set up (timed from
// host arrays and from arrays already on the device) and solved once untimed (lazy
// resources, CUDA graph capture) and then timed; the medians of --runs runs are reported,
// with the solve speedup and the setup-plus-solve speedup over the first `jacobi` entry.
// A SPEC is kind[:format][:key=value...]: kind is solver.preconditioner, format
// spmv.format (every AMG level too), each key=value a solver.preconditioner_options key,
// all checked by the config reader, e.g. "amg:ellpack-r:smoother_degree=2".
#include "bench_command.hpp"

namespace spk::app {

int run_preconditioner_bench(const BenchCommandOptions& bench);

}  // namespace spk::app
