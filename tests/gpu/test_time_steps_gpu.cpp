// The config's time loop (frontend/time_steps.hpp) with step_values: device: each step's values
// handed to update_values as a device array take the iterations and the answers of the same
// loop with host arrays, for a preconditioner whose re-setup is one pass (Jacobi) and for AMG;
// only the device loop times the copy to the device; the CPU path refuses device values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/time_steps.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

app::RunReport loop_of(Solver<double>& solver, const CsrMatrix<double>& a,
                       const std::vector<double>& b, bool values_on_device) {
  app::RunReport report;
  std::vector<double> x(b.size(), 0.0);
  report.result = solver.solve(b, x);
  report.setup = solver.setup_info();
  app::run_time_steps(solver, 4, a.values, b, report, values_on_device);
  return report;
}

TEST(TimeStepsGpu, DeviceValuesTakeTheHostValuesIterations) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = test::generated("poisson3d", 16);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(a.rows), 3);
  for (const Preconditioner preconditioner : {Preconditioner::jacobi, Preconditioner::amg}) {
    SCOPED_TRACE(to_string(preconditioner));
    SolverOptions options;
    options.preconditioner = preconditioner;
    options.tolerance = 1e-8;
    SpmvOptions spmv;
    spmv.format = Format::ellpack_r;
    Solver<double> from_host(arrays_of(a), Options{options, spmv, Device::gpu});
    Solver<double> from_device(arrays_of(a), Options{options, spmv, Device::gpu});
    const app::RunReport host = loop_of(from_host, a, b, false);
    const app::RunReport device = loop_of(from_device, a, b, true);
    ASSERT_EQ(host.steps.size(), 3u);
    ASSERT_EQ(device.steps.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      SCOPED_TRACE("step " + std::to_string(device.steps[k].step));
      EXPECT_EQ(device.steps[k].status, SolveStatus::converged);
      EXPECT_LE(device.steps[k].relative_true_residual, 1e-8);
      EXPECT_EQ(device.steps[k].iterations, host.steps[k].iterations);
      EXPECT_NEAR(device.steps[k].relative_true_residual, host.steps[k].relative_true_residual,
                  1e-3 * host.steps[k].relative_true_residual);
      EXPECT_GE(device.steps[k].values_to_device_s, 0.0);
      EXPECT_LT(host.steps[k].values_to_device_s, 0.0);  // host values: no copy timed
    }
  }
  SolverOptions options;
  Solver<double> on_cpu(arrays_of(a), Options{options, SpmvOptions{}, Device::cpu});
  EXPECT_THROW(loop_of(on_cpu, a, b, true), BadInput);
}

}  // namespace
}  // namespace spk
