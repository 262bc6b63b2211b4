// The tentative and smoothed prolongators on the GPU against the host's: T and the coarse
// candidates bit for bit (each aggregate's norm summed in the host's order with its rounding),
// P = (I - omega/lambda D^-1 A) T with the same D^-1 and lambda within 1e-12 of the host's
// relative to its largest entry (A T is a cuSPARSE product), again after new values of A,
// and P = T for omega = 0; lambda from the Lanczos estimate on the device equals the host's
// to rounding.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/device_aggregation.hpp"
#include "solver/amg/device_smoothed_prolongator.hpp"
#include "solver/amg/device_tentative_prolongator.hpp"
#include "solver/amg/smoothed_prolongator.hpp"
#include "solver/amg/strength.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/eigen_estimate.hpp"
#include "solver/host_space.hpp"
#include "solver/jacobi.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/amg_device_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::expect_same_matrix;
using test::generated;
using test::TestStream;

std::vector<std::pair<std::string, CsrMatrix<double>>> inputs() {
  std::mt19937_64 rng(41);
  return {{"poisson2d 30", generated("poisson2d", 30)},
          {"poisson3d 12", generated("poisson3d", 12)},
          {"elasticity3d 5", generated("elasticity3d", 5)},
          {"random 400", test::random_square(400, rng)}};
}

// Candidates: ones (the finest level) and positive random values (a coarser level's B).
std::vector<std::vector<double>> candidate_sets(index_t rows) {
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<double> positive(0.1, 3.0);
  std::vector<double> random(static_cast<std::size_t>(rows));
  for (double& value : random) value = positive(rng);
  return {std::vector<double>(static_cast<std::size_t>(rows), 1.0), random};
}

std::vector<double> inverse_diagonal_of(const CsrMatrix<double>& a) {
  const std::vector<index_t> positions = diagonal_positions(a.rows, a.row_offsets, a.columns);
  std::vector<double> inverse(static_cast<std::size_t>(a.rows));
  for (index_t row = 0; row < a.rows; ++row) inverse[row] = 1.0 / a.values[positions[row]];
  return inverse;
}

TEST(AmgDeviceProlongator, TentativeProlongatorEqualsTheHostsBitwise) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  for (const auto& [name, a] : inputs()) {
    const DeviceCsrMatrix<double> device_a = to_device(a, "test A");
    const DeviceAggregates aggregates =
        device_aggregate_mis2(device_strength_graph(device_a, 0.0, context), context);
    const Aggregates host_aggregates = aggregate_mis2(strength_graph(a, 0.0));
    for (const std::vector<double>& candidates : candidate_sets(a.rows)) {
      const TentativeProlongator host = tentative_prolongator(host_aggregates, candidates);
      const DeviceBuffer<double> device_candidates(candidates, "test B");
      const DeviceTentativeProlongator device =
          device_tentative_prolongator(aggregates, device_candidates, context);
      expect_same_matrix(to_host(device.matrix, stream.get()), host.matrix, 0.0, name + ": T");
      EXPECT_EQ(device.coarse_candidates.to_host(), host.coarse_candidates) << name;
    }
  }
}

TEST(AmgDeviceProlongator, SmoothedProlongatorMatchesTheHostsAndRefreshes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  std::mt19937_64 rng(47);
  for (const auto& [name, a] : inputs()) {
    const TentativeProlongator tentative =
        tentative_prolongator(aggregate_mis2(strength_graph(a, 0.0)), candidate_sets(a.rows)[0]);
    const double lambda = gershgorin_lambda_max(a);
    SmoothedProlongator host(a, tentative.matrix, 4.0 / 3.0);
    host.compute(a, inverse_diagonal_of(a), lambda);

    DeviceCsrMatrix<double> device_a = to_device(a, "test A");
    DeviceSmoothedProlongator device(device_a, to_device(tentative.matrix, "test T"), 4.0 / 3.0,
                                     context);
    DeviceBuffer<double> inverse_diagonal(inverse_diagonal_of(a), "test D^-1");
    device.compute(device_a, inverse_diagonal, lambda);
    expect_same_matrix(to_host(device.matrix(), stream.get()), host.matrix(), 1e-12, name + ": P");

    // New values of A (same pattern): D^-1, lambda and P again.
    const CsrMatrix<double> a2 = test::with_new_values(test::with_scaled_diagonal(a, 3.0), rng);
    const double lambda2 = gershgorin_lambda_max(a2);
    host.compute(a2, inverse_diagonal_of(a2), lambda2);
    device_a.values.copy_from_host(a2.values);
    inverse_diagonal.copy_from_host(inverse_diagonal_of(a2));
    device.compute(device_a, inverse_diagonal, lambda2);
    expect_same_matrix(to_host(device.matrix(), stream.get()), host.matrix(), 1e-12,
                       name + ": P, new values");
  }
}

TEST(AmgDeviceProlongator, WeightZeroIsTheTentativeProlongator) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  const CsrMatrix<double> a = generated("poisson2d", 10);
  const CsrMatrix<double> t =
      tentative_prolongator(aggregate_mis2(strength_graph(a, 0.0)), candidate_sets(a.rows)[0])
          .matrix;
  const DeviceCsrMatrix<double> device_a = to_device(a, "test A");
  DeviceSmoothedProlongator device(device_a, to_device(t, "test T"), 0.0, context);
  const DeviceBuffer<double> inverse_diagonal(inverse_diagonal_of(a), "test D^-1");
  device.compute(device_a, inverse_diagonal, 2.0);
  expect_same_matrix(to_host(device.matrix(), stream.get()), t, 0.0, "P = T");
  EXPECT_EQ(device.algorithm(), "none");
}

TEST(AmgDeviceProlongator, LanczosEstimateOnTheDeviceMatchesTheHosts) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const auto& [name, a] : inputs()) {
    if (name.rfind("random", 0) == 0) continue;  // Lanczos needs an SPD matrix
    const std::vector<double> inverse_diagonal = inverse_diagonal_of(a);
    HostSpace<double> host_space;
    const HostCsrOperator<double> host_matrix(a);
    int host_steps = 0;
    const double host =
        lanczos_lambda_max(host_space, host_matrix, inverse_diagonal.data(), 10, &host_steps);

    DeviceContext context;
    DeviceSpace<double> space(context);
    const auto device_matrix = make_spmv_backend(a, SpmvOptions{}, context.stream());
    const DeviceBuffer<double> device_inverse(inverse_diagonal, "test D^-1");
    int device_steps = 0;
    const double device =
        lanczos_lambda_max(space, *device_matrix, device_inverse.data(), 10, &device_steps);
    EXPECT_EQ(device_steps, host_steps) << name;
    EXPECT_NEAR(device, host, 1e-10 * host) << name;
  }
}

}  // namespace
}  // namespace spk
