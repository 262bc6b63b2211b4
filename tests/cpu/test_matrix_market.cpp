// Matrix Market reader and writer: accepted variants, every error (type, NAME:LINE and
// what), round trips, and the real matrices in data/.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "spmv/host/matrix_market.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::expect_error;
using test::to_dense;

CsrMatrix<double> parse_matrix(const std::string& text, const std::string& name = "bad.mtx") {
  std::istringstream in(text);
  return parse_matrix_market(in, name);
}

std::vector<double> parse_vector(const std::string& text, const std::string& name = "bad.mtx") {
  std::istringstream in(text);
  return parse_vector_market(in, name);
}

void expect_matrix_error(const std::string& text, const std::string& location,
                         const std::string& fragment) {
  expect_error<BadInput>([&] { parse_matrix(text); }, location, fragment);
}

void expect_vector_error(const std::string& text, const std::string& location,
                         const std::string& fragment) {
  expect_error<BadInput>([&] { parse_vector(text); }, location, fragment);
}

std::string temp_path(const std::string& name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "spk_" + info->name() + "_" + name;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

const std::string general = "%%MatrixMarket matrix coordinate real general\n";
const std::string symmetric = "%%MatrixMarket matrix coordinate real symmetric\n";

// ---- accepted input --------------------------------------------------------------------

TEST(MatrixMarketRead, GeneralUnsortedWithDuplicatesCommentsAndBlankLines) {
  const CsrMatrix<double> matrix = parse_matrix(general +
                                                "% a comment\n"
                                                "\n"
                                                "3 4 6\n"
                                                "3 4 7.5\n"
                                                "% comment between entries\n"
                                                "1 3 2\n"
                                                "  \t\n"
                                                "1 1 -1.25\n"
                                                "3 1 4\n"
                                                "1 3 0.5\n"  // duplicate of (1,3): summed
                                                "3 2 -2e-3\n");
  test::expect_valid_csr(matrix);
  EXPECT_EQ(matrix.rows, 3);
  EXPECT_EQ(matrix.cols, 4);
  EXPECT_EQ(matrix.nnz(), 5);
  EXPECT_EQ(matrix.row_offsets, (std::vector<index_t>{0, 2, 2, 5}));
  EXPECT_EQ(matrix.columns, (std::vector<index_t>{0, 2, 0, 1, 3}));
  EXPECT_EQ(matrix.values, (std::vector<double>{-1.25, 2.5, 4.0, -2e-3, 7.5}));
}

TEST(MatrixMarketRead, SymmetricLowerOrUpperTriangleExpandsToTheSameMatrix) {
  const CsrMatrix<double> lower = parse_matrix(symmetric + "3 3 4\n1 1 2\n2 1 -1\n3 2 -3\n3 3 5\n");
  const CsrMatrix<double> upper = parse_matrix(symmetric + "3 3 4\n1 1 2\n1 2 -1\n2 3 -3\n3 3 5\n");
  test::expect_valid_csr(lower);
  EXPECT_EQ(lower.nnz(), 6);
  const std::vector<double> expected = {2, -1, 0, -1, 0, -3, 0, -3, 5};
  EXPECT_EQ(to_dense(lower), expected);
  EXPECT_EQ(to_dense(upper), expected);
}

TEST(MatrixMarketRead, SkewSymmetricExpandsWithNegatedMirror) {
  const CsrMatrix<double> matrix = parse_matrix(
      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n2 1 1.5\n3 1 -2\n3 3 0\n");
  test::expect_valid_csr(matrix);
  EXPECT_EQ(matrix.nnz(), 4);  // the explicit zero diagonal entry is dropped
  EXPECT_EQ(to_dense(matrix), (std::vector<double>{0, -1.5, 2, 1.5, 0, 0, -2, 0, 0}));
}

TEST(MatrixMarketRead, PatternEntriesAreOne) {
  const CsrMatrix<double> matrix =
      parse_matrix("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n");
  EXPECT_EQ(to_dense(matrix), (std::vector<double>{0, 1, 1, 1}));
}

TEST(MatrixMarketRead, IntegerFieldCrlfCaseInsensitiveBannerBomPlusSignAndFortranExponent) {
  const CsrMatrix<double> integers = parse_matrix(
      "%%MatrixMarket MATRIX Coordinate INTEGER General\r\n2 2 2\r\n1 1 -7\r\n2 2 +12\r\n");
  EXPECT_EQ(to_dense(integers), (std::vector<double>{-7, 0, 0, 12}));
  const CsrMatrix<double> with_bom = parse_matrix("\xEF\xBB\xBF" + general + "1 1 1\n1 1 3\n");
  EXPECT_EQ(with_bom.values, (std::vector<double>{3.0}));
  const CsrMatrix<double> fortran = parse_matrix(general + "1 2 2\n1 1 1.5D+03\n1 2 +2.5d-1\n");
  EXPECT_EQ(fortran.values, (std::vector<double>{1500.0, 0.25}));
}

TEST(MatrixMarketRead, SubnormalAndTinyValuesAreReadNotRejected) {
  const CsrMatrix<double> matrix =
      parse_matrix(general + "1 2 2\n1 1 4.9406564584124654e-324\n1 2 1e-400\n");
  EXPECT_EQ(matrix.values[0], std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(matrix.values[1], 0.0);  // underflows to zero, like strtod
}

TEST(MatrixMarketRead, RectangularAndEmptyMatricesAreAccepted) {
  const CsrMatrix<double> wide = parse_matrix(general + "2 5 2\n2 5 1\n1 4 2\n");
  EXPECT_EQ(wide.rows, 2);
  EXPECT_EQ(wide.cols, 5);
  EXPECT_EQ(to_dense(wide), (std::vector<double>{0, 0, 0, 2, 0, 0, 0, 0, 0, 1}));

  const CsrMatrix<double> no_entries = parse_matrix(general + "4 3 0\n");
  test::expect_valid_csr(no_entries);
  EXPECT_EQ(no_entries.rows, 4);
  EXPECT_EQ(no_entries.nnz(), 0);

  const CsrMatrix<double> nothing = parse_matrix(general + "0 0 0\n");
  test::expect_valid_csr(nothing);
  EXPECT_EQ(nothing.rows, 0);
}

TEST(MatrixMarketRead, DenseArrayMatricesKeepEveryStoredValue) {
  const CsrMatrix<double> dense =
      parse_matrix("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n0\n");
  test::expect_valid_csr(dense);
  EXPECT_EQ(dense.nnz(), 6);  // the stored 0 stays an entry
  EXPECT_EQ(to_dense(dense), (std::vector<double>{1, 3, 5, 2, 4, 0}));  // column-major input

  const CsrMatrix<double> lower =
      parse_matrix("%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");
  EXPECT_EQ(to_dense(lower), (std::vector<double>{1, 2, 3, 2, 4, 5, 3, 5, 6}));

  const CsrMatrix<double> skew =
      parse_matrix("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  EXPECT_EQ(to_dense(skew), (std::vector<double>{0, -1, -2, 1, 0, -3, 2, 3, 0}));
}

TEST(VectorMarketRead, ArrayColumnRowAndCoordinateVectors) {
  EXPECT_EQ(parse_vector("%%MatrixMarket matrix array real general\n% b\n3 1\n1.5\n\n-2\n3e2\n"),
            (std::vector<double>{1.5, -2.0, 300.0}));
  EXPECT_EQ(parse_vector("%%MatrixMarket matrix array integer general\n1 2\n4\n-5\n"),
            (std::vector<double>{4.0, -5.0}));
  EXPECT_EQ(parse_vector(general + "4 1 3\n4 1 2\n2 1 1\n4 1 0.5\n"),
            (std::vector<double>{0.0, 1.0, 0.0, 2.5}));
  EXPECT_TRUE(parse_vector("%%MatrixMarket matrix array real general\n0 1\n").empty());
}

// ---- errors: every one names NAME:LINE -------------------------------------------------

TEST(MatrixMarketErrors, MissingFileNamesThePath) {
  const std::string path = temp_path("does_not_exist.mtx");
  expect_error<BadInput>([&] { read_matrix_market(path); }, "file '" + path + "' does not exist",
                         "");
  expect_error<BadInput>([&] { read_vector_market(path); }, "file '" + path + "' does not exist",
                         "");
}

TEST(MatrixMarketErrors, ErrorsFromAFileUseThePathAsGiven) {
  const std::string path = temp_path("bad.mtx");
  std::ofstream(path) << general << "2 2 1\n1 3 1.0\n";
  expect_error<BadInput>([&] { read_matrix_market(path); },
                         path + ":3: ", "column index 3 out of range 1..2");
}

TEST(MatrixMarketErrors, EmptyFileAndMissingOrMalformedBanner) {
  expect_matrix_error("", "bad.mtx:1: ", "empty file");
  expect_matrix_error("3 3 1\n1 1 1\n", "bad.mtx:1: ", "missing Matrix Market banner");
  expect_matrix_error("%MatrixMarket matrix coordinate real general\n1 1 0\n",
                      "bad.mtx:1: ", "missing Matrix Market banner");
  expect_matrix_error("%%MatrixMarket matrix coordinate real\n1 1 0\n",
                      "bad.mtx:1: ", "malformed banner");
  expect_matrix_error("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n",
                      "bad.mtx:1: ", "malformed banner");
}

TEST(MatrixMarketErrors, UnknownObjectFormatFieldSymmetry) {
  expect_matrix_error("%%MatrixMarket vector coordinate real general\n",
                      "bad.mtx:1: ", "unknown object 'vector'");
  expect_matrix_error("%%MatrixMarket matrix sparse real general\n",
                      "bad.mtx:1: ", "unknown format 'sparse'");
  expect_matrix_error("%%MatrixMarket matrix coordinate float general\n",
                      "bad.mtx:1: ", "unknown field 'float'");
  expect_matrix_error("%%MatrixMarket matrix coordinate real upper\n",
                      "bad.mtx:1: ", "unknown symmetry 'upper'");
  expect_matrix_error("%%MatrixMarket matrix array pattern general\n",
                      "bad.mtx:1: ", "'pattern' is only valid with format 'coordinate'");
  expect_matrix_error("%%MatrixMarket matrix coordinate pattern skew-symmetric\n",
                      "bad.mtx:1: ", "cannot be skew-symmetric");
}

TEST(MatrixMarketErrors, ComplexAndHermitianAreNotSupported) {
  expect_error<NotSupported>(
      [] { parse_matrix("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"); },
      "bad.mtx:1: ", "complex matrices are not supported");
  expect_error<NotSupported>(
      [] { parse_matrix("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n"); },
      "bad.mtx:1: ", "complex matrices are not supported");
  expect_error<NotSupported>(
      [] { parse_vector("%%MatrixMarket matrix array complex general\n1 1\n1 0\n"); },
      "bad.mtx:1: ", "complex matrices are not supported");
}

TEST(MatrixMarketErrors, MissingMalformedAndNegativeSizeLine) {
  expect_matrix_error(general + "% only a comment\n\n", "bad.mtx:3: ", "missing size line");
  expect_matrix_error(general + "3 3\n", "bad.mtx:2: ", "malformed size line '3 3'");
  expect_matrix_error(general + "3 x 1\n", "bad.mtx:2: ", "malformed size line");
  expect_matrix_error(general + "3 3 1 4\n", "bad.mtx:2: ", "malformed size line");
  expect_matrix_error(general + "3 3 2.5\n", "bad.mtx:2: ", "malformed size line");
  expect_matrix_error(general + "-3 3 1\n", "bad.mtx:2: ", "negative rows -3");
  expect_matrix_error(general + "3 -3 1\n", "bad.mtx:2: ", "negative columns -3");
  expect_matrix_error(general + "3 3 -1\n", "bad.mtx:2: ", "negative declared entries -1");
  expect_matrix_error("%%MatrixMarket matrix array real general\n3\n",
                      "bad.mtx:2: ", "malformed size line");
}

TEST(MatrixMarketErrors, SizesPastThe32BitIndexRangeAreRefusedBeforeAllocating) {
  expect_matrix_error(general + "3 3 3000000000\n1 1 1\n", "bad.mtx:2: ",
                      "declared entries = 3000000000 exceeds the 32-bit index limit");
  expect_matrix_error(general + "3000000000 3 1\n1 1 1\n", "bad.mtx:2: ", "rows = 3000000000");
  expect_matrix_error(general + "3 2147483648 1\n1 1 1\n", "bad.mtx:2: ", "columns = 2147483648");
  expect_matrix_error("%%MatrixMarket matrix array real general\n100000 100000\n",
                      "bad.mtx:2: ", "dense array values = 10000000000");
  // A huge but representable declared count with few lines is a truncated file, not an OOM.
  expect_matrix_error(general + "3 3 2000000000\n1 1 1\n",
                      "bad.mtx:3: ", "file ends after 1 of 2000000000 declared entries");
}

TEST(MatrixMarketErrors, TruncatedFileNamesExpectedAndFoundCounts) {
  expect_matrix_error(general + "3 3 3\n1 1 1\n2 2 1\n",
                      "bad.mtx:4: ", "file ends after 2 of 3 declared entries");
  expect_matrix_error(general + "3 3 3\n",
                      "bad.mtx:2: ", "file ends after 0 of 3 declared entries");
}

TEST(MatrixMarketErrors, ExtraEntries) {
  expect_matrix_error(general + "3 3 2\n1 1 1\n2 2 1\n% fine\n3 3 1\n",
                      "bad.mtx:6: ", "extra entry after the 2 declared entries");
}

TEST(MatrixMarketErrors, IndexOutOfRangeOrNotAnInteger) {
  // The example, verbatim.
  std::string bcsstk13 = symmetric;
  for (int line = 2; line <= 15; ++line) bcsstk13 += "% padding comment\n";
  bcsstk13 += "2003 2003 1\n2003 2004 1.0\n";  // size on line 16, the entry on line 17
  try {
    parse_matrix(bcsstk13, "bcsstk13.mtx");
    ADD_FAILURE() << "no exception";
  } catch (const BadInput& error) {
    EXPECT_STREQ(error.what(), "bcsstk13.mtx:17: column index 2004 out of range 1..2003");
  }
  expect_matrix_error(general + "3 3 1\n4 1 1.0\n", "bad.mtx:3: ", "row index 4 out of range 1..3");
  expect_matrix_error(general + "3 3 1\n0 1 1.0\n", "bad.mtx:3: ", "row index 0 out of range 1..3");
  expect_matrix_error(general + "3 3 1\n1 0 1.0\n", "bad.mtx:3: ", "column index 0 out of range");
  expect_matrix_error(general + "0 3 1\n1 1 1.0\n", "bad.mtx:3: ", "the matrix has no rows");
  expect_matrix_error(general + "3 3 1\n1.5 1 1.0\n",
                      "bad.mtx:3: ", "row index '1.5' is not an integer");
  expect_matrix_error(general + "3 3 1\n1 x 1.0\n",
                      "bad.mtx:3: ", "column index 'x' is not an integer");
  expect_matrix_error(general + "3 3 1\n99999999999999999999 1 1.0\n",
                      "bad.mtx:3: ", "row index '99999999999999999999' is not an integer");
}

TEST(MatrixMarketErrors, NonNumericAndNonFiniteValues) {
  expect_matrix_error(general + "2 2 1\n1 1 abc\n", "bad.mtx:3: ", "value 'abc' is not a number");
  expect_matrix_error(general + "2 2 1\n1 1 1.0.0\n", "bad.mtx:3: ", "is not a number");
  expect_matrix_error(general + "2 2 1\n1 1 nan\n", "bad.mtx:3: ", "value 'nan' is not finite");
  expect_matrix_error(general + "2 2 1\n1 1 -inf\n", "bad.mtx:3: ", "value '-inf' is not finite");
  expect_matrix_error(general + "2 2 1\n1 1 1e999\n", "bad.mtx:3: ", "value '1e999' is not finite");
  expect_matrix_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
                      "bad.mtx:3: ", "value '1.5' is not an integer");
}

TEST(MatrixMarketErrors, MissingValueAndTrailingGarbage) {
  expect_matrix_error(general + "2 2 1\n1 1\n", "bad.mtx:3: ", "expected 'row column value'");
  expect_matrix_error(general + "2 2 1\n1 1 1.0 extra\n", "bad.mtx:3: ", "unexpected text 'extra'");
  expect_matrix_error(general + "2 2 1\n1 1 1.0 % comment\n", "bad.mtx:3: ", "unexpected text '%'");
  expect_matrix_error(
      "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1.0\n",
      "bad.mtx:3: ", "unexpected text '1.0' after the entry (expected 'row column')");
}

TEST(MatrixMarketErrors, SymmetryViolations) {
  expect_matrix_error(symmetric + "3 4 1\n1 1 1\n", "bad.mtx:2: ",
                      "symmetric matrix must be square, the size line declares 3 x 4");
  expect_matrix_error("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1.0\n",
                      "bad.mtx:3: ", "skew-symmetric matrix has a nonzero diagonal entry (2,2)");
  expect_matrix_error(symmetric + "3 3 3\n2 1 1\n3 3 1\n1 3 1\n",
                      "bad.mtx:5: ", "than line 3; a symmetric file must store one triangle only");
}

TEST(VectorMarketErrors, ShapeCountValuesAndLayout) {
  const std::string array = "%%MatrixMarket matrix array real general\n";
  expect_vector_error(array + "3 4\n",
                      "bad.mtx:2: ", "expected a vector (n x 1 or 1 x n), found a 3 x 4 matrix");
  expect_vector_error(general + "% c\n2 2 1\n1 1 1\n", "bad.mtx:3: ", "found a 2 x 2 matrix");
  expect_vector_error(array + "3 1\n1\n2\n",
                      "bad.mtx:4: ", "file ends after 2 of 3 declared values");
  expect_vector_error(array + "2 1\n1\n2\n3\n",
                      "bad.mtx:5: ", "extra value after the 2 declared values");
  expect_vector_error(array + "2 1\n1\nNaN\n", "bad.mtx:4: ", "value 'NaN' is not finite");
  expect_vector_error(array + "2 1\n1 2\n", "bad.mtx:3: ", "unexpected text '2' after the value");
  expect_vector_error(array + "2 1\n1\nx\n", "bad.mtx:4: ", "value 'x' is not a number");
  expect_vector_error(general + "3 1 1\n4 1 1.0\n", "bad.mtx:3: ", "row index 4 out of range 1..3");
  expect_vector_error("", "bad.mtx:1: ", "empty file");
  // A huge declared length with few lines is a truncated file, not a 16 GB allocation.
  expect_vector_error(array + "2000000000 1\n1\n",
                      "bad.mtx:3: ", "file ends after 1 of 2000000000 declared values");
  expect_matrix_error(array + "40000 40000\n1\n",
                      "bad.mtx:3: ", "file ends after 1 of 1600000000 declared values");
}

TEST(MatrixMarketWriteErrors, UnopenablePathIsBadInputNamingIt) {
  const std::string path = temp_path("missing_directory") + "/out.mtx";
  CsrMatrix<double> matrix;
  expect_error<BadInput>([&] { write_matrix_market(path, matrix); },
                         path + ": cannot open for writing", "");
  expect_error<BadInput>([&] { write_vector_market(path, {1.0}); },
                         path + ": cannot open for writing", "");
}

// ---- round trips --------------------------------------------------------------------

TEST(MatrixMarketRoundTrip, RandomMatrixIsBitIdenticalAfterWriteAndRead) {
  std::mt19937_64 rng(20240611);
  CsrMatrix<double> matrix = test::random_csr(37, 23, 0.2, rng, {0, 5, 36});
  // Awkward values: extremes, subnormals, negative zero, many digits.
  const std::vector<double> awkward = {std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::denorm_min(),
                                       -std::numeric_limits<double>::min(),
                                       -0.0,
                                       1.0 / 3.0,
                                       -2.5e300,
                                       123456789.123456789};
  ASSERT_GE(matrix.values.size(), awkward.size());
  std::copy(awkward.begin(), awkward.end(), matrix.values.begin());

  const std::string path = temp_path("round_trip.mtx");
  write_matrix_market(path, matrix);
  const CsrMatrix<double> read_back = read_matrix_market(path);
  EXPECT_EQ(read_back.rows, matrix.rows);
  EXPECT_EQ(read_back.cols, matrix.cols);
  EXPECT_EQ(read_back.row_offsets, matrix.row_offsets);
  EXPECT_EQ(read_back.columns, matrix.columns);
  ASSERT_EQ(read_back.values.size(), matrix.values.size());
  for (std::size_t k = 0; k < matrix.values.size(); ++k)
    EXPECT_TRUE(same_bits(read_back.values[k], matrix.values[k])) << "entry " << k;
}

TEST(MatrixMarketRoundTrip, EmptyMatrixAndVector) {
  CsrMatrix<double> empty;
  empty.rows = 3;
  empty.cols = 2;
  empty.row_offsets.assign(4, 0);
  const std::string matrix_path = temp_path("empty.mtx");
  write_matrix_market(matrix_path, empty);
  const CsrMatrix<double> read_back = read_matrix_market(matrix_path);
  EXPECT_EQ(read_back.rows, 3);
  EXPECT_EQ(read_back.cols, 2);
  EXPECT_EQ(read_back.nnz(), 0);

  const std::string vector_path = temp_path("empty_vector.mtx");
  write_vector_market(vector_path, {});
  EXPECT_TRUE(read_vector_market(vector_path).empty());
}

TEST(MatrixMarketRoundTrip, VectorIsBitIdentical) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1e6);
  std::vector<double> vector(1001);
  for (double& value : vector) value = normal(rng);
  vector[3] = std::numeric_limits<double>::denorm_min();
  vector[4] = -0.0;
  const std::string path = temp_path("vector.mtx");
  write_vector_market(path, vector);
  const std::vector<double> read_back = read_vector_market(path);
  ASSERT_EQ(read_back.size(), vector.size());
  for (std::size_t i = 0; i < vector.size(); ++i)
    EXPECT_TRUE(same_bits(read_back[i], vector[i])) << "entry " << i;
}

// ---- the real matrices in data/ -------------------------------------------------------

struct RealMatrix {
  const char* file;
  index_t n;
  index_t nnz;  // after symmetric expansion
  bool symmetric;
  index_t max_row_length;
};

class RealMatrices : public ::testing::TestWithParam<RealMatrix> {};

TEST_P(RealMatrices, ReadGivesTheDocumentedSizes) {
  const RealMatrix expected = GetParam();
  const CsrMatrix<double> matrix = read_matrix_market(test::data_path(expected.file));
  test::expect_valid_csr(matrix);
  EXPECT_EQ(matrix.rows, expected.n);
  EXPECT_EQ(matrix.cols, expected.n);
  EXPECT_EQ(matrix.nnz(), expected.nnz);
  const MatrixStats stats = compute_matrix_stats(matrix);
  EXPECT_EQ(stats.numerically_symmetric, expected.symmetric);
  EXPECT_EQ(stats.max_row_length, expected.max_row_length);
  EXPECT_EQ(stats.empty_rows, 0);
  for (double value : matrix.values) ASSERT_TRUE(std::isfinite(value));
}

// Counts verified against the files themselves (independent Python count, duplicates: none)
// and /work/shared/matrices/README.md; they agree.
INSTANTIATE_TEST_SUITE_P(Data, RealMatrices,
                         ::testing::Values(RealMatrix{"bcsstk13.mtx", 2003, 83883, true, 95},
                                           RealMatrix{"1138_bus.mtx", 1138, 4054, true, 18},
                                           RealMatrix{"west0479.mtx", 479, 1910, false, 12},
                                           RealMatrix{"watt_2.mtx", 1856, 11550, false, 128},
                                           RealMatrix{"rajat01.mtx", 6833, 43250, false, 1442},
                                           RealMatrix{"Pd.mtx", 8081, 13036, false, 5}),
                         [](const ::testing::TestParamInfo<RealMatrix>& param_info) {
                           std::string name = param_info.param.file;
                           return name.substr(0, name.find('.'));
                         });

TEST(RealMatrixContents, Bcsstk13FirstEntryAndRajat01PatternValues) {
  const CsrMatrix<double> bcsstk13 = read_matrix_market(test::data_path("bcsstk13.mtx"));
  ASSERT_GT(bcsstk13.row_length(0), 0);
  EXPECT_EQ(bcsstk13.columns[0], 0);
  EXPECT_EQ(bcsstk13.values[0], 277281165.183);  // "1 1 277281165.183" on line 15

  const CsrMatrix<double> rajat01 = read_matrix_market(test::data_path("rajat01.mtx"));
  for (double value : rajat01.values) ASSERT_EQ(value, 1.0);

  // west0479 stores 22 explicit zeros; they stay entries.
  const CsrMatrix<double> west0479 = read_matrix_market(test::data_path("west0479.mtx"));
  EXPECT_EQ(std::count(west0479.values.begin(), west0479.values.end(), 0.0), 22);
}

}  // namespace
}  // namespace spk
