// The Galerkin product of the AMG setup on the GPU against the host's (the reference, itself
// checked against dense references in tests/cpu/test_amg_setup.cpp), on random, Poisson and
// elasticity inputs: the transpose bitwise; each sparse product and R A P with the same pattern
// bitwise and values within 1e-12 of the host's relative to the largest entry (cuSPARSE sums
// each entry's products in its own order: differences of a few ulp of the terms, large for an
// entry that cancels relative to that entry, not relative to the matrix), for every algorithm
// of the fallback (the row-hash product, then cuSPARSE's SpGEMMs), and again after new values
// (the re-setup).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "solver/amg/device_column_order.hpp"
#include "solver/amg/device_csr_matrix.hpp"
#include "solver/amg/device_galerkin_product.hpp"
#include "solver/amg/device_row_hash_product.hpp"
#include "solver/amg/device_sparse_product.hpp"
#include "solver/amg/device_transpose.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/sparse_product.hpp"
#include "tests/gpu/amg_device_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::expect_same_matrix;
using test::generated;
using test::host_level;
using test::Level;
using test::random_square;
using test::random_tall;
using test::TestStream;
using test::with_new_values;

std::vector<Level> galerkin_inputs() {
  std::mt19937_64 rng(20260415);
  std::vector<Level> inputs;
  inputs.push_back(host_level(generated("poisson2d", 23)));
  inputs.push_back(host_level(generated("poisson3d", 11)));
  inputs.push_back(host_level(generated("elasticity3d", 5)));
  inputs.push_back({random_square(300, rng), random_tall(300, 41, rng)});
  inputs.push_back({random_square(57, rng), random_tall(57, 57, rng)});  // square P
  return inputs;
}

// The 32 x 34 prolongator on which cusparseCsr2cscEx2 (CUDA 13.0, H100) gave the last entry
// the row index 32 (rank 0 of the distributed Galerkin test at 4 processes): row i in column
// i / 4, and rows 11, 20 and 25 with a second entry.
CsrMatrix<double> wide_prolongator() {
  CsrMatrix<double> p;
  p.rows = 32;
  p.cols = 34;
  for (index_t i = 0; i < p.rows; ++i) {
    p.columns.push_back(i / 4);
    if (i == 11) p.columns.push_back(14);
    if (i == 20) p.columns.push_back(28);
    if (i == 25) p.columns.push_back(32);
    p.row_offsets.push_back(static_cast<index_t>(p.columns.size()));
  }
  for (std::size_t k = 0; k < p.columns.size(); ++k)
    p.values.push_back(1.0 + 0.125 * static_cast<double>(k));
  return p;
}

TEST(AmgDeviceGalerkin, TransposeMatchesTheHostsBitwise) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  std::mt19937_64 rng(11);
  std::vector<CsrMatrix<double>> matrices;
  for (const Level& input : galerkin_inputs()) matrices.push_back(input.p);
  matrices.push_back(wide_prolongator());
  CsrMatrix<double> awkward;  // empty rows, one long row, empty columns
  awkward.rows = 7;
  awkward.cols = 40;
  awkward.row_offsets = {0, 0, 0, 30, 30, 31, 31, 31};
  for (index_t c = 0; c < 30; ++c) awkward.columns.push_back(c + (c >= 10 ? 5 : 0));
  awkward.columns.push_back(39);
  awkward.values.assign(awkward.columns.size(), 2.5);
  matrices.push_back(awkward);
  CsrMatrix<double> no_entries;
  no_entries.rows = 3;
  no_entries.cols = 5;
  no_entries.row_offsets = {0, 0, 0, 0};
  matrices.push_back(no_entries);
  for (const CsrMatrix<double>& input : matrices) {
    const DeviceCsrMatrix<double> p = to_device(input, "test P");
    DeviceCsrMatrix<double> t;
    DeviceTranspose transpose(p, t, context);
    expect_same_matrix(to_host(t, stream.get()), spk::transpose(input, nullptr), 0.0, "P^T");
    // new values: the gather again
    const CsrMatrix<double> again = with_new_values(input, rng);
    const DeviceCsrMatrix<double> p2 = to_device(again, "test P, new values");
    ASSERT_EQ(cudaMemsetAsync(t.values.data(), 0xff, t.values.bytes(), stream.get()),
              cudaSuccess);  // poisoned: NaN
    transpose.compute(p2, t);
    expect_same_matrix(to_host(t, stream.get()), spk::transpose(again, nullptr), 0.0,
                       "P^T, new values");
  }
}

TEST(AmgDeviceGalerkin, SparseProductMatchesTheHostsWithEveryAlgorithm) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  std::mt19937_64 rng(7);
  for (const Level& input : galerkin_inputs()) {
    CsrMatrix<double> host = product_pattern(input.a, input.p);
    product_values(input.a, input.p, host);
    for (int attempt = 0; attempt < DeviceSparseProduct::attempts; ++attempt) {
      const std::string what =
          std::string("A P with ") + DeviceSparseProduct::attempt_name(attempt);
      DeviceCsrMatrix<double> a = to_device(input.a, "test A"), p = to_device(input.p, "test P"), c;
      DeviceSparseProduct product(a, p, c, context, attempt);
      EXPECT_EQ(product.algorithm(), DeviceSparseProduct::attempt_name(attempt));
      expect_same_matrix(to_host(c, stream.get()), host, 1e-12, what);

      // New values of both factors: the numeric phase again.
      const CsrMatrix<double> a2 = with_new_values(input.a, rng),
                              p2 = with_new_values(input.p, rng);
      a.values.copy_from_host(a2.values);
      p.values.copy_from_host(p2.values);
      product.compute(a, p, c);
      CsrMatrix<double> host2 = host;
      product_values(a2, p2, host2);
      expect_same_matrix(to_host(c, stream.get()), host2, 1e-12, what + ", new values");
    }
  }
}

TEST(AmgDeviceGalerkin, GalerkinProductMatchesTheHostsAndRefreshes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  std::mt19937_64 rng(11);
  for (const Level& input : galerkin_inputs()) {
    CsrMatrix<double> host_coarse;
    GalerkinProduct host(input.a, input.p, host_coarse);
    for (const int attempt : {0, 1, 2, 4}) {  // row hash, reuse, default, alg3
      const std::string what = std::string("R A P with ") +
                               DeviceSparseProduct::attempt_name(attempt) + ", " +
                               std::to_string(input.a.rows) + " rows";
      DeviceCsrMatrix<double> a = to_device(input.a, "test A"), p = to_device(input.p, "test P");
      DeviceCsrMatrix<double> coarse;
      DeviceGalerkinProduct device(a, p, coarse, context, attempt);
      expect_same_matrix(to_host(device.restriction(), stream.get()), host.restriction(), 0.0,
                         what + ": R");
      expect_same_matrix(to_host(coarse, stream.get()), host_coarse, 1e-12, what + ": A_c");

      // The re-setup: new values of A and P, same patterns.
      const CsrMatrix<double> a2 = with_new_values(input.a, rng),
                              p2 = with_new_values(input.p, rng);
      a.values.copy_from_host(a2.values);
      p.values.copy_from_host(p2.values);
      device.compute(a, p, coarse);
      CsrMatrix<double> host_coarse2 = host_coarse;
      GalerkinProduct host2(a2, p2, host_coarse2);
      expect_same_matrix(to_host(device.restriction(), stream.get()), host2.restriction(), 0.0,
                         what + ": R, new values");
      expect_same_matrix(to_host(coarse, stream.get()), host_coarse2, 1e-12,
                         what + ": A_c, new values");
    }
  }
}

TEST(AmgDeviceGalerkin, ReuseProductGivesBitwiseTheSameValuesAgain) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  const Level input = host_level(generated("poisson3d", 14));
  const DeviceCsrMatrix<double> a = to_device(input.a, "test A"), p = to_device(input.p, "test P");
  DeviceCsrMatrix<double> coarse;
  DeviceGalerkinProduct device(a, p, coarse, context);
  const CsrMatrix<double> first = to_host(coarse, stream.get());
  device.compute(a, p, coarse);
  EXPECT_EQ(to_host(coarse, stream.get()).values, first.values);  // deterministic algorithms
  EXPECT_NE(device.algorithms().find("A P: "), std::string::npos);
}

// The row-hash product (device_row_hash_product.hpp) on shapes the AMG inputs lack, against the
// host's product, its output poisoned before each fill: empty rows of A, a row of A with 3000
// entries whose columns fold into few columns of C, rows of B longer than a warp, n = 1, and a
// row of C with exactly row_hash_limit columns (the table's limit, kept) next to one with one
// more (refused: cuSPARSE's reuse algorithm runs instead, with the same result).
TEST(AmgDeviceGalerkin, RowHashProductOnAwkwardShapesAndItsLimit) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  std::mt19937_64 rng(20261127);
  const auto matrix = [&](index_t rows, index_t cols,
                          const std::vector<std::vector<index_t>>& by_row) {
    CsrMatrix<double> m;
    m.rows = rows;
    m.cols = cols;
    m.row_offsets.assign(1, 0);  // (a CsrMatrix starts with its first offset)
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (const std::vector<index_t>& columns : by_row) {
      for (const index_t column : columns) {
        m.columns.push_back(column);
        m.values.push_back(value(rng));
      }
      m.row_offsets.push_back(static_cast<index_t>(m.columns.size()));
    }
    return m;
  };
  const auto run = [&](const CsrMatrix<double>& a, const CsrMatrix<double>& b,
                       const std::string& expected_algorithm, const std::string& what) {
    CsrMatrix<double> host = product_pattern(a, b);
    product_values(a, b, host);
    const DeviceCsrMatrix<double> da = to_device(a, "test A"), db = to_device(b, "test B");
    DeviceCsrMatrix<double> c;
    DeviceSparseProduct product(da, db, c, context);
    EXPECT_EQ(product.algorithm(), expected_algorithm) << what;
    expect_same_matrix(to_host(c, stream.get()), host, 1e-12, what);
    if (c.nnz() == 0) return;
    ASSERT_EQ(cudaMemsetAsync(c.values.data(), 0xff, c.values.bytes(), stream.get()),
              cudaSuccess);  // poisoned: NaN
    product.compute(da, db, c);
    expect_same_matrix(to_host(c, stream.get()), host, 1e-12, what + ", recomputed");
  };
  // A: rows 0 and 2 empty, row 1 with 3000 entries, row 3 one entry; B: 3000 x 50, each row
  // 1-3 entries except row 7 with 40 (longer than a warp).
  std::vector<std::vector<index_t>> a_rows(4), b_rows(3000);
  for (index_t k = 0; k < 3000; ++k) a_rows[1].push_back(k);
  a_rows[3] = {7};
  for (index_t k = 0; k < 3000; ++k) {
    b_rows[static_cast<std::size_t>(k)].push_back(k % 50);
    if (k % 3 == 0) b_rows[static_cast<std::size_t>(k)].push_back((k * 7 + 1) % 50);
  }
  b_rows[7].clear();
  for (index_t j = 0; j < 40; ++j) b_rows[7].push_back(j);
  run(matrix(4, 3000, a_rows), matrix(3000, 50, b_rows), "row hash", "empty rows, a long row");
  run(matrix(1, 1, {{0}}), matrix(1, 1, {{0}}), "row hash", "1 x 1");
  // Row 0 of C: row_hash_limit distinct columns (from 2 rows of B); row 1 of the second A:
  // one more.
  const index_t limit = row_hash_limit;
  std::vector<std::vector<index_t>> wide_b(3);
  for (index_t j = 0; j < limit; ++j) wide_b[static_cast<std::size_t>(j % 2)].push_back(j);
  wide_b[2] = {limit};
  // row_hash_pattern itself: a 1-row A reaching 384 columns (kept), then 385 (refused).
  {
    const DeviceCsrMatrix<double> b = to_device(matrix(3, limit + 1, wide_b), "test B");
    const DeviceCsrMatrix<double> at = to_device(matrix(1, 3, {{0, 1}}), "test A (384)");
    const DeviceCsrMatrix<double> past = to_device(matrix(1, 3, {{0, 1, 2}}), "test A (385)");
    DeviceCsrMatrix<double> c;
    ASSERT_TRUE(row_hash_pattern(at, b, c, stream.get()));
    const CsrMatrix<double> pattern = to_host(c, stream.get());
    EXPECT_EQ(pattern.row_offsets, (std::vector<index_t>{0, limit}));
    std::vector<index_t> all(static_cast<std::size_t>(limit));
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(pattern.columns, all);
    DeviceCsrMatrix<double> refused;
    EXPECT_FALSE(row_hash_pattern(past, b, refused, stream.get()));
  }
  run(matrix(2, 3, {{0, 1}, {2}}), matrix(3, limit + 1, wide_b), "row hash", "at the limit");
  run(matrix(2, 3, {{0, 1}, {0, 1, 2}}), matrix(3, limit + 1, wide_b), "reuse",
      "one past the limit");
}

// cuSPARSE has always returned sorted rows here, so the fallback for unsorted ones is checked
// on its own: rows of shuffled columns come out sorted with their values, and a new fill of
// the raw values is gathered into the sorted order; a sorted matrix keeps nothing.
TEST(AmgDeviceGalerkin, UnsortedProductRowsAreSortedAndRefilledValuesGathered) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  std::mt19937_64 rng(20261126);
  const CsrMatrix<double> sorted = test::random_pattern_matrix(
      300, 200, [](index_t row) { return 1 + row % 12; }, rng);
  CsrMatrix<double> shuffled = sorted;
  for (index_t row = 0; row < shuffled.rows; ++row) {
    std::vector<std::pair<index_t, double>> entries;
    for (index_t k = shuffled.row_offsets[row]; k < shuffled.row_offsets[row + 1]; ++k)
      entries.emplace_back(shuffled.columns[k], shuffled.values[k]);
    std::shuffle(entries.begin(), entries.end(), rng);
    for (std::size_t j = 0; j < entries.size(); ++j) {
      shuffled.columns[shuffled.row_offsets[row] + static_cast<index_t>(j)] = entries[j].first;
      shuffled.values[shuffled.row_offsets[row] + static_cast<index_t>(j)] = entries[j].second;
    }
  }
  ASSERT_NE(shuffled.columns, sorted.columns) << "the shuffle left every row sorted";
  DeviceCsrMatrix<double> c = to_device(shuffled, "test unsorted");
  DeviceColumnOrder order;
  order.arrange(c, stream.get());
  ASSERT_TRUE(order.active());
  CsrMatrix<double> host = to_host(c, stream.get());
  EXPECT_EQ(host.row_offsets, sorted.row_offsets);
  EXPECT_EQ(host.columns, sorted.columns);
  EXPECT_EQ(host.values, sorted.values);
  // A new fill of the raw arrays (the producer's order): every value doubled.
  std::vector<double> doubled = shuffled.values;
  for (double& value : doubled) value *= 2.0;
  SPK_CUDA_CHECK(cudaMemcpy(order.raw_values(), doubled.data(), doubled.size() * sizeof(double),
                            cudaMemcpyHostToDevice));
  const std::vector<double> poison(doubled.size(), std::nan(""));
  SPK_CUDA_CHECK(cudaMemcpy(c.values.data(), poison.data(), poison.size() * sizeof(double),
                            cudaMemcpyHostToDevice));
  order.gather(c, stream.get());
  host = to_host(c, stream.get());
  for (std::size_t k = 0; k < host.values.size(); ++k)
    ASSERT_EQ(host.values[k], 2.0 * sorted.values[k]) << "entry " << k;
  DeviceCsrMatrix<double> already = to_device(sorted, "test sorted");
  DeviceColumnOrder untouched;
  untouched.arrange(already, stream.get());
  EXPECT_FALSE(untouched.active());
  EXPECT_EQ(to_host(already, stream.get()).columns, sorted.columns);
}

TEST(AmgDeviceGalerkin, EmptyProductHasNoEntries) {
  SPK_REQUIRE_GPU_OR_SKIP();
  TestStream stream;
  const DeviceSetupContext context(stream.get());
  CsrMatrix<double> zero;
  zero.rows = 4;
  zero.cols = 3;
  zero.row_offsets.assign(5, 0);
  std::mt19937_64 rng(3);
  const DeviceCsrMatrix<double> p = to_device(random_tall(5, 4, rng), "test P");
  const DeviceCsrMatrix<double> z = to_device(zero, "test zero");
  DeviceCsrMatrix<double> c;
  DeviceSparseProduct product(p, z, c, context);  // (5 x 4) (4 x 3), no entries in the second
  const CsrMatrix<double> host = to_host(c, stream.get());
  EXPECT_EQ(host.rows, 5);
  EXPECT_EQ(host.cols, 3);
  EXPECT_EQ(host.row_offsets, std::vector<index_t>(6, 0));
  EXPECT_EQ(product.algorithm(), "none (empty product)");
}

}  // namespace
}  // namespace spk
