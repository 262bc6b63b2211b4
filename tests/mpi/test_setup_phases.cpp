// A DistributedSolver's setup by phase (SetupInfo::phases, issue 32): on the CPU path and on
// the GPU path (skipped without a GPU), each phase is a time (>= 0), their sum is the whole
// setup_s (the phases are laps of one clock, so only the work before the first lap and after
// the last is outside them), the phases that do not apply are 0, and the preconditioner's own
// setup time lies within its phase.
#include <gtest/gtest.h>

#include <string>

#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

double sum_of(const SetupPhases& p) {
  return p.partition_s + p.context_s + p.communicator_s + p.layouts_s + p.preconditioner_s +
         p.warm_up_s;
}

void expect_phases_make_the_setup(const SetupInfo& setup) {
  const SetupPhases& p = setup.phases;
  for (const double phase :
       {p.partition_s, p.context_s, p.communicator_s, p.layouts_s, p.preconditioner_s, p.warm_up_s})
    EXPECT_GE(phase, 0.0);
  EXPECT_GT(p.partition_s, 0.0);
  EXPECT_LE(sum_of(p), setup.setup_s + 1e-9);
  EXPECT_GE(sum_of(p), 0.95 * setup.setup_s - 2e-3) << "setup " << setup.setup_s;
  EXPECT_GE(p.preconditioner_s, setup.preconditioner.setup_s);
}

TEST(DistributedSetupPhases, CpuPathPhasesMakeTheSetup) {
  const CsrMatrix<double> whole = test::generated_case("poisson3d", 24);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = test::my_rows(whole, partition);
  for (const Preconditioner preconditioner :
       {Preconditioner::none, Preconditioner::jacobi, Preconditioner::chebyshev}) {
    SCOPED_TRACE(to_string(preconditioner));
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                     test::cpu_options(Method::cg, preconditioner));
    const SetupInfo& setup = solver.setup_info();
    expect_phases_make_the_setup(setup);
    EXPECT_EQ(setup.phases.context_s, 0.0);  // no device, no NCCL, nothing to warm up
    EXPECT_EQ(setup.phases.communicator_s, 0.0);
    EXPECT_EQ(setup.phases.warm_up_s, 0.0);
    if (preconditioner == Preconditioner::chebyshev) {  // its Lanczos steps: products and sums
      EXPECT_GT(setup.phases.preconditioner_s, 0.0);
    }
  }
}

TEST(DistributedSetupPhases, GpuPathPhasesMakeTheSetup) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = test::generated_case("poisson3d", 24);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  Options options = test::cpu_options(Method::cg, Preconditioner::jacobi);
  options.device = Device::gpu;
  options.spmv.format = Format::ellpack_r;
  DistributedOptions distributed;  // NCCL with a GPU each, else MPI (host-staged)
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(test::my_rows(whole, partition)),
                                   options, distributed);
  const SetupInfo& setup = solver.setup_info();
  expect_phases_make_the_setup(setup);
  EXPECT_GT(setup.phases.context_s, 0.0);  // binding, stream, cuBLAS
  EXPECT_GT(setup.phases.layouts_s, 0.0);  // the blocks' uploads
  EXPECT_GT(setup.phases.warm_up_s, 0.0);  // one product and one sum
  if (std::string(solver.transport()) == "nccl") {
    EXPECT_GT(setup.phases.communicator_s, 0.0);
  }
}

}  // namespace
}  // namespace spk
