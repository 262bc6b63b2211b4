// The strength graph and the MIS(2) aggregation on the GPU against the host's, bit for bit
// (same hashed priorities, same rounds, same tie-breaking: the CPU and GPU paths must build
// the same hierarchy, so that their iteration counts compare exactly): 2-D and 3-D Poisson,
// elasticity, nonsymmetric convection-diffusion and random matrices at several thresholds,
// and matrices with isolated nodes; the symmetric path (no transpose) against the general one.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
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

// Whether a_ji is stored and bitwise equal to a_ij for every entry of the first n columns.
bool block_is_symmetric(const CsrMatrix<double>& a) {
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      const index_t j = a.columns[k];
      if (j >= a.rows || j == i) continue;
      bool found = false;
      for (index_t l = a.row_offsets[j]; l < a.row_offsets[j + 1]; ++l)
        found = found || (a.columns[l] == i && a.values[l] == a.values[k]);
      if (!found) return false;
    }
  return true;
}

// The same rows with `extra` halo slots (columns n..n+extra-1) ending some of them.
CsrMatrix<double> with_halo_slots(const CsrMatrix<double>& a, index_t extra) {
  CsrMatrix<double> whole;
  whole.rows = a.rows;
  whole.cols = a.cols + extra;
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      whole.columns.push_back(a.columns[k]);
      whole.values.push_back(a.values[k]);
    }
    for (index_t slot = 0; slot < extra; ++slot)
      if ((i + slot) % 3 == 0) {
        whole.columns.push_back(a.cols + slot);
        whole.values.push_back(-1.0 - slot);
      }
    whole.row_offsets.push_back(whole.nnz());
  }
  return whole;
}

// The symmetric path (no A^T; a whole form's halo slots ignored) finds the transposing path's
// graph wherever the block is symmetric, and refuses where it is not: a value one ulp off, an
// entry without its mirror.
TEST(AmgDeviceAggregation, SymmetricStrengthEqualsTheTransposeOnesAndRefusesAsymmetry) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  int symmetric_inputs = 0;
  for (const Input& input : inputs()) {
    const std::string what = input.name + ", theta " + std::to_string(input.theta);
    const bool symmetric = block_is_symmetric(input.a);
    const DeviceCsrMatrix<double> a = to_device(input.a, "test A");
    const DeviceStrengthGraph general = device_transposed_strength_graph(a, input.theta, context);
    for (const index_t extra : {0, 5}) {
      const DeviceCsrMatrix<double> whole =
          to_device(with_halo_slots(input.a, extra), "test whole");
      std::optional<DeviceStrengthGraph> graph =
          device_symmetric_strength_graph(whole, input.a.rows, input.theta, context);
      ASSERT_EQ(graph.has_value(), symmetric) << what << ", halo slots " << extra;
      if (!graph) continue;
      EXPECT_EQ(graph->nodes, general.nodes) << what;
      EXPECT_EQ(graph->row_offsets.to_host(), general.row_offsets.to_host()) << what;
      EXPECT_EQ(graph->neighbours.to_host(), general.neighbours.to_host()) << what;
    }
    symmetric_inputs += symmetric ? 1 : 0;
  }
  EXPECT_GE(symmetric_inputs, 8);  // Poisson, elasticity, isolated nodes

  CsrMatrix<double> off = generated("poisson3d", 6);
  const index_t k = off.row_offsets[40] + 1;  // an off-diagonal entry of row 40
  off.values[k] = std::nextafter(off.values[k], 0.0);
  EXPECT_FALSE(
      device_symmetric_strength_graph(to_device(off, "one ulp off"), off.rows, 0.0, context))
      << "one value one ulp off its mirror";
  CsrMatrix<double> lone = generated("poisson2d", 5);
  lone.cols = lone.rows;
  // row 0 gains column 24 (row 24 does not name column 0)
  lone.columns.insert(lone.columns.begin() + lone.row_offsets[1], 24);
  lone.values.insert(lone.values.begin() + lone.row_offsets[1], -0.5);
  for (index_t i = 1; i <= lone.rows; ++i) ++lone.row_offsets[i];
  EXPECT_FALSE(
      device_symmetric_strength_graph(to_device(lone, "lone entry"), lone.rows, 0.0, context))
      << "an entry without its mirror";
  // ...and the general entry point still finds the host's graph for it.
  const StrengthGraph host = strength_graph(lone, 0.0);
  const DeviceStrengthGraph device = device_strength_graph(to_device(lone, "lone"), 0.0, context);
  EXPECT_EQ(device.neighbours.to_host(), host.neighbours);
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
