#pragma once
// The comparison every distributed test makes: the same system solved by the single-process
// Solver (each process on the whole matrix) and by DistributedSolver over all processes.
#include <gtest/gtest.h>

#include <spkrylov/distributed.hpp>
#include <spkrylov/solver.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "spmv/host/generators.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk::test {

inline Options cpu_options(Method method, Preconditioner preconditioner, double tolerance = 1e-8) {
  Options options;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.tolerance = tolerance;
  options.solver.max_iterations = 20000;
  options.device = Device::cpu;
  return options;
}

inline CsrMatrix<double> generated_case(const std::string& kind, int n, int stencil = 7,
                                        double peclet = 1.0,
                                        const std::string& convection = "upwind") {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.stencil = stencil;
  spec.peclet = peclet;
  spec.convection = convection;
  return generate_matrix(spec);
}

struct Comparison {
  SolveResult single;
  SolveResult distributed;
  double solution_difference = 0.0;  // ||x_distributed - x_single|| / ||x_single||
  std::string transport;
};

// Solves A x = b on one process (each process, the whole matrix) and over all processes.
inline Comparison solve_both(const CsrMatrix<double>& whole, const Options& options,
                             RowBalance balance, const DistributedOptions& distributed = {}) {
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 7);
  Comparison comparison;
  Solver<double> single(arrays_of(whole), options);
  std::vector<double> x_single(b.size(), 0.0);
  comparison.single = single.solve(b, x_single);

  const RowPartition partition = test::partition_of(whole, balance);
  const RowBlock<double> rows = my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options, distributed);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x_local(b_local.size(), 0.0);
  comparison.distributed = solver.solve(b_local, x_local);
  comparison.transport = solver.transport();
  comparison.solution_difference =
      test::distributed_relative_error(x_local, my_part(x_single, partition));
  return comparison;
}

// The transport this many processes can use on a one-GPU machine (NCCL needs a GPU each);
// SPK_TEST_TRANSPORT=nccl asks for NCCL with any count (a machine with a GPU per process).
inline Transport transport_here() {
  const char* chosen = std::getenv("SPK_TEST_TRANSPORT");
  if (chosen != nullptr && std::string(chosen) == "nccl") return Transport::nccl;
  return test::world_size() == 1 ? Transport::nccl : Transport::mpi;
}

inline void expect_every_process_agrees(const SolveResult& result) {
  for (const int iterations : test::gathered(result.iterations))
    EXPECT_EQ(iterations, result.iterations);
  for (const double residual : test::gathered(result.true_residual))
    EXPECT_EQ(residual, result.true_residual);  // bit-identical: same sums everywhere
}

// A well-conditioned problem: the count within 1 of one process's (the sums over processes
// round differently in the last bits), x within 1e-6, the true residual met, every process the
// same.
inline void expect_matches_one_process(const Comparison& result) {
  ASSERT_EQ(result.single.status, SolveStatus::converged) << result.single.message;
  EXPECT_EQ(result.distributed.status, SolveStatus::converged) << result.distributed.message;
  EXPECT_NEAR(result.distributed.iterations, result.single.iterations, 1);
  EXPECT_LT(result.solution_difference, 1e-6);
  EXPECT_LE(result.distributed.true_residual, result.distributed.threshold);
  expect_every_process_agrees(result.distributed);
}

}  // namespace spk::test
