// heat3d on the GPU against the CPU reference path, a few steps, for two formats: the same
// Solver reused with update_values every step.
#include <gtest/gtest.h>

#include "heat_simulation.hpp"
#include "tests/test_support.hpp"

namespace heat3d {
namespace {

TEST(Heat3dGpu, StepsMatchTheCpuReference) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const char* format : {"csr-vector", "ellpack-r"}) {
    SCOPED_TRACE(format);
    spk::Options options;
    options.solver.tolerance = 1e-12;
    options.solver.preconditioner = spk::Preconditioner::jacobi;
    options.spmv.format = spk::parse_format(format);
    spk::Options cpu = options;
    options.device = spk::Device::gpu;
    cpu.device = spk::Device::cpu;
    const double dt = 1e-3;
    HeatSimulation on_gpu(HeatProblem(16, dt, 20 * dt), dt, options);
    HeatSimulation on_cpu(HeatProblem(16, dt, 20 * dt), dt, cpu);
    for (int step = 1; step <= 4; ++step) {
      const StepReport gpu_step = on_gpu.step();
      const StepReport cpu_step = on_cpu.step();
      ASSERT_EQ(gpu_step.status, "converged");
      ASSERT_EQ(cpu_step.status, "converged");
      EXPECT_LE(std::abs(gpu_step.iterations - cpu_step.iterations), 2);
      EXPECT_LT(spk::test::relative_error(on_gpu.temperature(), on_cpu.temperature()), 1e-10)
          << "step " << step;
    }
    EXPECT_EQ(on_gpu.solver()->device(), spk::Device::gpu);
  }
}

}  // namespace
}  // namespace heat3d
