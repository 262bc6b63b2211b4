// The strength graph and the MIS(2) aggregation on the GPU against the host's, bit for bit
// (same hashed priorities, same rounds, same tie-breaking: the CPU and GPU paths must build
// the same hierarchy, so that their iteration counts compare exactly): 2-D and 3-D Poisson,
// elasticity, nonsymmetric convection-diffusion and random matrices at several thresholds,
// and matrices with isolated nodes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/device_aggregation.hpp"
#include "solver/amg/device_strength.hpp"
#include "solver/amg/strength.hpp"
#include "tests/gpu/amg_device_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using test::TestStream;

struct Input {
  std::string name;
  CsrMatrix<double> a;
  double theta;
};

// Rows (and columns) in `decoupled` keep only their diagonal entry: isolated nodes.
CsrMatrix<double> with_decoupled_rows(const CsrMatrix<double>& a,
                                      const std::vector<index_t>& decoupled) {
  const auto is_decoupled = [&](index_t i) {
    for (const index_t d : decoupled)
      if (d == i) return true;
    return false;
  };
  CsrMatrix<double> result;
  result.rows = a.rows;
  result.cols = a.cols;
  for (index_t row = 0; row < a.rows; ++row) {
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      const index_t column = a.columns[k];
      if (column != row && (is_decoupled(row) || is_decoupled(column))) continue;
      result.columns.push_back(column);
      result.values.push_back(a.values[k]);
    }
    result.row_offsets.push_back(result.nnz());
  }
  return result;
}

std::vector<Input> inputs() {
  std::mt19937_64 rng(31);
  std::vector<Input> list;
  for (const double theta : {0.0, 0.25}) {
    list.push_back({"poisson2d 40", generated("poisson2d", 40), theta});
    list.push_back({"poisson3d 16", generated("poisson3d", 16), theta});
    list.push_back({"poisson3d 27-point 9", generated("poisson3d", 9, 27), theta});
    list.push_back({"elasticity3d 6", generated("elasticity3d", 6), theta});
    list.push_back({"convdiff2d 30 (nonsymmetric)", generated("convdiff2d", 30), theta});
  }
  list.push_back({"random 500", test::random_square(500, rng), 0.0});
  list.push_back({"random 500", test::random_square(500, rng), 0.3});
  list.push_back({"random 1", test::random_square(1, rng), 0.0});
  list.push_back(
      {"isolated nodes", with_decoupled_rows(generated("poisson2d", 12), {0, 5, 77, 143}), 0.0});
  list.push_back({"all isolated",
                  with_decoupled_rows(generated("poisson2d", 3), {0, 1, 2, 3, 4, 5, 6, 7, 8}),
                  0.0});
  return list;
}

TEST(AmgDeviceAggregation, StrengthGraphEqualsTheHosts) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  for (const Input& input : inputs()) {
    const std::string what = input.name + ", theta " + std::to_string(input.theta);
    const StrengthGraph host = strength_graph(input.a, input.theta);
    const DeviceCsrMatrix<double> a = to_device(input.a, "test A");
    const DeviceStrengthGraph device = device_strength_graph(a, input.theta, context);
    context.synchronize();
    EXPECT_EQ(device.nodes, host.nodes) << what;
    EXPECT_EQ(device.row_offsets.to_host(), host.row_offsets) << what;
    EXPECT_EQ(device.neighbours.to_host(), host.neighbours) << what;
  }
}

TEST(AmgDeviceAggregation, AggregatesEqualTheHostsBitwise) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  for (const Input& input : inputs()) {
    const std::string what = input.name + ", theta " + std::to_string(input.theta);
    for (const int distance : {2, 1}) {  // MIS(2), and the distance-1 variant
      const std::string which = what + ", distance " + std::to_string(distance);
      const Aggregates host = aggregate_mis2(strength_graph(input.a, input.theta), distance);
      const DeviceCsrMatrix<double> a = to_device(input.a, "test A");
      const DeviceAggregates device =
          device_aggregate_mis2(device_strength_graph(a, input.theta, context), context, distance);
      context.synchronize();
      EXPECT_EQ(device.count, host.count) << which;
      EXPECT_EQ(device.rounds, host.rounds) << which;
      EXPECT_EQ(device.isolated, host.isolated) << which;
      EXPECT_EQ(device.roots.to_host(), host.roots) << which;
      EXPECT_EQ(device.aggregate_of.to_host(), host.aggregate_of) << which;
    }
  }
}

TEST(AmgDeviceAggregation, IsolatedNodesAreOneNodeAggregates) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  const CsrMatrix<double> host_a = with_decoupled_rows(generated("poisson2d", 12), {0, 5, 77});
  const DeviceCsrMatrix<double> a = to_device(host_a, "test A");
  const DeviceAggregates device =
      device_aggregate_mis2(device_strength_graph(a, 0.0, context), context);
  EXPECT_EQ(device.isolated, 3);
  const std::vector<index_t> aggregate_of = device.aggregate_of.to_host();
  for (const index_t node : {0, 5, 77}) {
    index_t members = 0;
    for (const index_t aggregate : aggregate_of) members += aggregate == aggregate_of[node];
    EXPECT_EQ(members, 1) << "node " << node;
  }
}

}  // namespace
}  // namespace spk
