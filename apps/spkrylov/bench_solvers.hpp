#pragma once
// `spkrylov bench --solvers`: end-to-end CG / BiCGSTAB per-iteration time of our solver
// (each backend, with and without CUDA graphs) against the NVIDIA-sample-style baseline
// (cuSPARSE SpMV, host-synchronous cuBLAS reductions), plus the loop-overhead check:
// per-iteration time / (SpMV alone x SpMVs per iteration + vector operations alone).
#include "bench_command.hpp"

namespace spk::app {

int run_solver_bench(const BenchCommandOptions& options);

}  // namespace spk::app
