// The AMG hierarchy built on the GPU (AmgHierarchyOn<DeviceAmgBuild>) against the host's, level
// by level: the same number of levels and stop reason, the same aggregates bit for bit, the
// same patterns of A_l, P_l and R_l, values and lambda_l equal to rounding (the device's
// SpGEMM and Lanczos sum in their own order); its update_values against a fresh device setup;
// its errors (bad diagonal, singular or too large coarsest level) as the host's; and through
// the solver: the GPU path reports a setup on the GPU, a device-array update_values gives the
// iterations of a fresh setup, and the iteration counts are the CPU path's within one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "solver/amg/device_amg_build.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/host_amg_build.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/generators.hpp"
#include "tests/gpu/amg_device_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using DeviceHierarchy = AmgHierarchyOn<DeviceAmgBuild>;
using test::detail;
using test::expect_same_matrix;
using test::generated;

struct Case {
  std::string name;
  CsrMatrix<double> a;
  AmgOptions options;
};

std::vector<Case> cases() {
  AmgOptions deep;
  deep.max_coarse_rows = 60;  // more, smaller levels
  AmgOptions anisotropic;
  anisotropic.strength_threshold = 0.25;
  AmgOptions gershgorin;
  gershgorin.chebyshev.eigen_estimate = EigenEstimate::gershgorin;
  AmgOptions unsmoothed;
  unsmoothed.prolongator_weight = 0.0;
  GeneratorSpec convdiff;
  convdiff.kind = "convdiff2d";
  convdiff.n = 48;
  convdiff.peclet = 1.0;
  AmgOptions blocks;  // AMG for systems: nodal aggregation, constant per component (k = 3)
  blocks.block_size = 3;
  AmgOptions rigid = blocks;  // k = 6 rigid-body modes
  rigid.near_nullspace = NearNullspace::rigid_body;
  rigid.coordinates = test::grid_points(8);
  return {{"poisson3d 20, max_coarse_rows 60", generated("poisson3d", 20), deep},
          {"elasticity3d 8, block_size 3", generated("elasticity3d", 8), blocks},
          {"elasticity3d 8, rigid-body modes", generated("elasticity3d", 8), rigid},
          {"elasticity3d 8, rigid-body modes, node 100 isolated",
           test::with_node_decoupled(generated("elasticity3d", 8), 100, 3), rigid},
          {"poisson2d 64, theta 0.25", generated("poisson2d", 64), anisotropic},
          {"elasticity3d 8", generated("elasticity3d", 8), AmgOptions{}},
          {"convdiff2d 48 (nonsymmetric), gershgorin", generate_matrix(convdiff), gershgorin},
          {"poisson3d 16, omega 0", generated("poisson3d", 16), unsmoothed}};
}

double largest(const CsrMatrix<double>& matrix) {
  double value = 0.0;
  for (const double entry : matrix.values) value = std::max(value, std::abs(entry));
  return value;
}

void expect_same_hierarchy(const AmgHierarchy& host, DeviceHierarchy& device,
                           const std::string& name) {
  const cudaStream_t stream = device.build().stream();
  ASSERT_EQ(device.size(), host.size()) << name;
  EXPECT_EQ(device.stop_reason(), host.stop_reason()) << name;
  for (std::size_t l = 0; l < host.size(); ++l) {
    const std::string what = name + ", level " + std::to_string(l);
    const AmgLevel& h = host.level(l);
    const auto& d = device.level(l);
    // Each level's values carry the rounding of the levels above: 1e-10 of the largest.
    expect_same_matrix(to_host(d.matrix, stream), h.matrix, 1e-10, what + ": A");
    EXPECT_EQ(d.inverse_diagonal.to_host().size(), h.inverse_diagonal.size()) << what;
    if (l + 1 == host.size()) break;
    EXPECT_EQ(d.aggregates.count, h.aggregates.count) << what;
    EXPECT_EQ(d.aggregates.rounds, h.aggregates.rounds) << what;
    EXPECT_EQ(d.aggregates.aggregate_of.to_host(), h.aggregates.aggregate_of) << what;
    const std::vector<double> device_candidates = d.candidates.to_host();
    ASSERT_EQ(device_candidates.size(), h.candidates.size()) << what;
    for (std::size_t k = 0; k < h.candidates.size(); ++k)
      ASSERT_NEAR(device_candidates[k], h.candidates[k], 1e-10 * (1.0 + std::abs(h.candidates[k])))
          << what << ": B entry " << k;
    EXPECT_NEAR(d.bound.lambda_max, h.bound.lambda_max, 1e-10 * h.bound.lambda_max) << what;
    EXPECT_EQ(d.bound.source, h.bound.source) << what;
    expect_same_matrix(to_host(d.prolongation(), stream), h.prolongation(), 1e-10, what + ": P");
    expect_same_matrix(to_host(d.restriction(), stream), h.restriction(), 1e-10, what + ": R");
  }
  const CsrMatrix<double> inverse = to_host(device.coarse_inverse(), stream);
  ASSERT_EQ(inverse.columns, host.coarse_inverse().columns) << name;
  const double scale = largest(host.coarse_inverse());
  for (std::size_t k = 0; k < inverse.values.size(); ++k)
    ASSERT_NEAR(inverse.values[k], host.coarse_inverse().values[k], 1e-8 * scale) << name;
  EXPECT_NEAR(device.operator_complexity(), host.operator_complexity(), 1e-12) << name;
  EXPECT_NEAR(device.grid_complexity(), host.grid_complexity(), 1e-12) << name;
}

TEST(AmgDeviceHierarchy, EqualsTheHostsLevelByLevel) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const Case& c : cases()) {
    const AmgHierarchy host(c.a, c.options);
    DeviceHierarchy device(to_device(c.a, "test A"), c.options);
    expect_same_hierarchy(host, device, c.name);
    std::vector<std::string> phases;
    for (const auto& [phase, seconds] : device.setup_phases()) phases.push_back(phase);
    for (const char* phase : {"strength", "aggregation", "eigen_estimate", "prolongator",
                              "galerkin_product", "coarse_factorization"})
      EXPECT_NE(std::find(phases.begin(), phases.end(), phase), phases.end()) << phase;
  }
}

TEST(AmgDeviceHierarchy, UpdateValuesEqualsAFreshSetupAndTheHostsUpdate) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = generated("poisson3d", 22);
  CsrMatrix<double> changed = test::with_scaled_diagonal(a, 1.5);
  for (double& value : changed.values) value *= 3.0;
  AmgOptions options;
  options.max_coarse_rows = 100;
  DeviceHierarchy updated(to_device(a, "test A"), options);
  // New values written on the device (as the solver's update_values does), then the re-setup.
  const DeviceBuffer<double> new_values(changed.values, "test new values");
  updated.build().set_fine_values(updated.fine_matrix(), new_values.data());
  updated.update_values();
  EXPECT_FALSE(updated.update_phases().empty());

  DeviceHierarchy fresh(to_device(changed, "test A changed"), options);
  const cudaStream_t updated_stream = updated.build().stream();
  const cudaStream_t fresh_stream = fresh.build().stream();
  ASSERT_EQ(updated.size(), fresh.size());
  for (std::size_t l = 0; l < fresh.size(); ++l) {
    const std::string what = "level " + std::to_string(l);
    expect_same_matrix(to_host(updated.level(l).matrix, updated_stream),
                       to_host(fresh.level(l).matrix, fresh_stream), 1e-12, what + ": A");
    if (l + 1 < fresh.size())
      expect_same_matrix(to_host(updated.level(l).prolongation(), updated_stream),
                         to_host(fresh.level(l).prolongation(), fresh_stream), 1e-12, what + ": P");
  }
  AmgHierarchy host(a, options);  // and the host's own re-setup
  host.fine_matrix().values = changed.values;
  host.update_values();
  expect_same_hierarchy(host, updated, "poisson3d 22 after update_values");
}

TEST(AmgDeviceHierarchy, ErrorsAreTheHosts) {
  SPK_REQUIRE_GPU_OR_SKIP();
  auto zero_diagonal = generated("poisson2d", 30);
  for (index_t k = zero_diagonal.row_offsets[417]; k < zero_diagonal.row_offsets[418]; ++k)
    if (zero_diagonal.columns[k] == 417) zero_diagonal.values[k] = 0.0;
  try {
    DeviceHierarchy hierarchy(to_device(zero_diagonal, "test A"), AmgOptions{});
    FAIL() << "a zero diagonal entry was accepted";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 417);
    EXPECT_NE(std::string(error.what()).find("amg: row 417"), std::string::npos) << error.what();
  }
  AmgOptions one_level;
  one_level.max_levels = 1;
  try {
    DeviceHierarchy hierarchy(to_device(generated("poisson2d", 50), "test A"), one_level);
    FAIL() << "a 2500-row dense coarse solve was accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("too large for the dense coarse solve"),
              std::string::npos)
        << error.what();
  }
  auto neumann = generated("poisson2d", 30);  // row sums 0: singular on every level
  for (index_t row = 0; row < neumann.rows; ++row) {
    double off = 0.0;
    index_t diagonal = -1;
    for (index_t k = neumann.row_offsets[row]; k < neumann.row_offsets[row + 1]; ++k)
      if (neumann.columns[k] == row)
        diagonal = k;
      else
        off += neumann.values[k];
    neumann.values[diagonal] = -off;
  }
  AmgOptions small;
  small.max_coarse_rows = 50;
  try {
    DeviceHierarchy hierarchy(to_device(neumann, "test A"), small);
    FAIL() << "a singular coarsest matrix was factored";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("singular"), std::string::npos) << error.what();
  }
}

TEST(AmgDeviceHierarchy, GpuSolverBuildsItOnTheGpuAndReportsIt) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  SolverOptions options;
  options.preconditioner = Preconditioner::amg;
  Solver<double> gpu(arrays_of(a), Options{options, SpmvOptions{}, Device::gpu});
  const PreconditionerInfo& info = gpu.setup_info().preconditioner;
  EXPECT_EQ(detail(info, "setup_on"), "gpu");
  EXPECT_NE(detail(info, "sparse_products").find("level 0: A P: "), std::string::npos)
      << detail(info, "sparse_products");
  Solver<double> cpu(arrays_of(a), Options{options, SpmvOptions{}, Device::cpu});
  EXPECT_EQ(detail(cpu.setup_info().preconditioner, "setup_on"), "host");
  EXPECT_EQ(detail(info, "aggregation"), detail(cpu.setup_info().preconditioner, "aggregation"));
  ASSERT_EQ(info.levels.size(), cpu.setup_info().preconditioner.levels.size());
  for (std::size_t l = 0; l < info.levels.size(); ++l) {
    EXPECT_EQ(info.levels[l].rows, cpu.setup_info().preconditioner.levels[l].rows) << l;
    EXPECT_EQ(info.levels[l].nnz, cpu.setup_info().preconditioner.levels[l].nnz) << l;
  }
}

TEST(AmgDeviceHierarchy, DeviceArrayUpdateValuesGivesTheIterationsOfAFreshSetup) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 20);
  auto changed = test::with_scaled_diagonal(a, 1.3);
  for (double& value : changed.values) value *= 2.0;
  const auto b = test::random_vector(a.rows, 9);
  SolverOptions options;
  options.preconditioner = Preconditioner::amg;
  for (const Method method : {Method::cg, Method::bicgstab}) {
    options.method = method;
    Solver<double> solver(arrays_of(a), Options{options, SpmvOptions{}, Device::gpu});
    std::vector<double> x(a.rows, 0.0);
    ASSERT_TRUE(solver.solve(b, x).converged());
    const DeviceBuffer<double> device_values(changed.values, "test new values");
    solver.update_values(device_values.data());  // a device pointer: no host copy
    std::fill(x.begin(), x.end(), 0.0);
    const SolveResult updated = solver.solve(b, x);
    Solver<double> fresh(arrays_of(changed), Options{options, SpmvOptions{}, Device::gpu});
    std::vector<double> x_fresh(a.rows, 0.0);
    const SolveResult fresh_result = fresh.solve(b, x_fresh);
    ASSERT_TRUE(updated.converged()) << updated.message;
    EXPECT_LE(std::abs(updated.iterations - fresh_result.iterations), 1)
        << "updated " << updated.iterations << ", fresh " << fresh_result.iterations;
    EXPECT_LE(test::true_relative_residual(changed, b, x), 1e-8);
    EXPECT_NE(detail(solver.setup_info().preconditioner, "resetup_ms"), "not run");
  }
}

// AMG for systems through the solver: the clamped beam with its rigid-body modes, the GPU's
// nodal aggregation, left-out nodes and batched QR against the CPU path, with update_values
// keeping the aggregates and T.
TEST(AmgDeviceHierarchy, SystemsMatchTheCpuPathAndSurviveUpdateValues) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GeneratedSystem beam = generate_beam3d(6, 0.3, true);
  SolverOptions options;
  options.preconditioner = Preconditioner::amg;
  options.preconditioner_options.amg.block_size = 3;
  options.preconditioner_options.amg.near_nullspace = NearNullspace::rigid_body;
  options.preconditioner_options.amg.coordinates = beam.coordinates;
  std::vector<double> x_cpu(beam.matrix.rows, 0.0), x_gpu(beam.matrix.rows, 0.0);
  Solver<double> cpu(arrays_of(beam.matrix), Options{options, SpmvOptions{}, Device::cpu});
  Solver<double> gpu(arrays_of(beam.matrix), Options{options, SpmvOptions{}, Device::gpu});
  const SolveResult on_cpu = cpu.solve(beam.load, x_cpu);
  const SolveResult on_gpu = gpu.solve(beam.load, x_gpu);
  ASSERT_TRUE(on_gpu.converged()) << on_gpu.message;
  EXPECT_LE(std::abs(on_cpu.iterations - on_gpu.iterations), 1)
      << "cpu " << on_cpu.iterations << ", gpu " << on_gpu.iterations;
  EXPECT_LE(test::true_relative_residual(beam.matrix, beam.load, x_gpu), 1e-8);
  EXPECT_EQ(detail(gpu.setup_info().preconditioner, "near_nullspace"),
            detail(cpu.setup_info().preconditioner, "near_nullspace"));
  // A stiffer material, same pattern: the re-setup keeps the aggregates and the QR.
  CsrMatrix<double> stiffer = beam.matrix;
  for (double& value : stiffer.values) value *= 2.5;
  gpu.update_values(stiffer.values);
  std::fill(x_gpu.begin(), x_gpu.end(), 0.0);
  const SolveResult updated = gpu.solve(beam.load, x_gpu);
  ASSERT_TRUE(updated.converged()) << updated.message;
  EXPECT_LE(std::abs(updated.iterations - on_gpu.iterations), 1);
  EXPECT_LE(test::true_relative_residual(stiffer, beam.load, x_gpu), 1e-8);
}

// Same aggregates, so the same hierarchy up to rounding: the GPU path's counts are the CPU
// path's within one, beyond the 3-D Poisson cases of tests/gpu/test_amg_gpu.cpp.
TEST(AmgDeviceHierarchy, IterationCountsMatchTheCpuPath) {
  SPK_REQUIRE_GPU_OR_SKIP();
  GeneratorSpec convdiff;
  convdiff.kind = "convdiff2d";
  convdiff.n = 64;
  convdiff.peclet = 1.0;
  struct System {
    std::string name;
    CsrMatrix<double> a;
    Method method;
  };
  const std::vector<System> systems = {
      {"poisson2d 128", generated("poisson2d", 128), Method::cg},
      {"elasticity3d 10", generated("elasticity3d", 10), Method::cg},
      {"convdiff2d 64, Peclet 1 (BiCGSTAB)", generate_matrix(convdiff), Method::bicgstab}};
  for (const System& system : systems) {
    SolverOptions options;
    options.preconditioner = Preconditioner::amg;
    options.method = system.method;
    const auto b = test::random_vector(system.a.rows, 5);
    std::vector<double> x_cpu(system.a.rows, 0.0), x_gpu(system.a.rows, 0.0);
    Solver<double> cpu(arrays_of(system.a), Options{options, SpmvOptions{}, Device::cpu});
    Solver<double> gpu(arrays_of(system.a), Options{options, SpmvOptions{}, Device::gpu});
    const SolveResult on_cpu = cpu.solve(b, x_cpu);
    const SolveResult on_gpu = gpu.solve(b, x_gpu);
    ASSERT_TRUE(on_cpu.converged()) << system.name << ": " << on_cpu.message;
    ASSERT_TRUE(on_gpu.converged()) << system.name << ": " << on_gpu.message;
    EXPECT_LE(std::abs(on_cpu.iterations - on_gpu.iterations), 1)
        << system.name << ": cpu " << on_cpu.iterations << ", gpu " << on_gpu.iterations;
    EXPECT_LE(test::true_relative_residual(system.a, b, x_gpu), 1e-8) << system.name;
  }
}

}  // namespace
}  // namespace spk
