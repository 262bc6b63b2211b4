// CompressedRowsOperator (distributed/compressed_rows_operator.hpp): a block stored without its
// empty rows, as the distributed GPU path stores each halo block. Against the fp64 CPU reference of
// the whole block, on fresh random x, y poisoned for beta = 0 and random otherwise, for
// halo-like blocks (1 row in 50 non-empty), the awkward shapes, and two formats.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "distributed/compressed_rows_operator.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk {
namespace {

TEST(CompressedRows, DropEmptyRowsKeepsEntriesInOrder) {
  CsrMatrix<double> block;
  block.rows = 5;
  block.cols = 3;
  block.row_offsets = {0, 0, 2, 2, 2, 3};
  block.columns = {0, 2, 1};
  block.values = {1.0, 2.0, 3.0};
  const NonEmptyRows<double> kept = drop_empty_rows(block);
  EXPECT_EQ(kept.rows, (std::vector<index_t>{1, 4}));
  EXPECT_EQ(kept.matrix.rows, 2);
  EXPECT_EQ(kept.matrix.cols, 3);
  EXPECT_EQ(kept.matrix.row_offsets, (std::vector<index_t>{0, 2, 3}));
  EXPECT_EQ(kept.matrix.columns, block.columns);
  EXPECT_EQ(kept.matrix.values, block.values);
}

template <class T>
void expect_matches_whole_block(const CsrMatrix<double>& whole_double, Format format,
                                std::mt19937_64& rng, const std::string& label) {
  const CsrMatrix<T> whole = convert_values<T>(whole_double);
  const NonEmptyRows<T> kept = drop_empty_rows(whole);
  const test::TestStream stream;
  SpmvOptions options;
  options.format = format;
  if (kept.matrix.rows == 0) {  // no entries at all: nothing to build, y = beta y
    EXPECT_EQ(whole.nnz(), 0) << label;
    return;
  }
  const CompressedRowsOperator<T> op(make_spmv_backend(kept.matrix, options, stream.get()),
                                     kept.rows, whole.rows);
  EXPECT_EQ(op.rows(), whole.rows);
  EXPECT_EQ(op.cols(), whole.cols);
  SCOPED_TRACE(label + ", " + to_string(format));
  test::expect_scaled_products_match<T>(op, whole, rng, stream);
  // the halo product's case: y += alpha A x on a random y
  EXPECT_LT(test::spmv_scaled_relative_error<T>(op, whole, T(-0.75), T(1), rng, stream),
            test::spmv_tolerance<T>(test::max_row_length(whole)));
}

TEST(CompressedRows, MatchesTheWholeBlockOnEveryShape) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  std::vector<test::NamedShape> shapes = test::awkward_shapes(rng);
  shapes.push_back({"halo-like: 4000 x 300, 1 row in 50 with entries",
                    test::random_pattern_matrix(
                        4000, 300, [](index_t row) { return row % 50 == 7 ? 3 : 0; }, rng)});
  for (const test::NamedShape& shape : shapes)
    for (const Format format : {Format::csr, Format::ellpack_r}) {
      expect_matches_whole_block<double>(shape.matrix, format, rng, shape.name);
      expect_matches_whole_block<float>(shape.matrix, format, rng, shape.name);
    }
}

// The same check on one small halo-like block (the `sanitize` label's case: few launches).
TEST(CompressedRows, MatchesTheWholeBlockOnASmallHaloBlock) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  const CsrMatrix<double> block = test::random_pattern_matrix(
      600, 80, [](index_t row) { return row % 20 == 3 ? 4 : 0; }, rng);
  expect_matches_whole_block<double>(block, Format::csr, rng, "halo-like 600 x 80");
  expect_matches_whole_block<float>(block, Format::ellpack_r, rng, "halo-like 600 x 80");
}

}  // namespace
}  // namespace spk
