// Host layouts of the ELL family (ellpack, ellpack-r, hyb, sell): element-by-element layout
// checks on hand-made matrices, layout reference SpMV against the CSR reference on random and
// awkward matrices, sell's long-row split (its rule, the tail, the size guard), the refusal
// rules, the HYB width rule, and the value slot maps of update_values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/formats/ellpack_r_layout.hpp"
#include "spmv/formats/hyb_layout.hpp"
#include "spmv/formats/sell_layout.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::expect_error;
using test::matrix_with_row_lengths;
using test::NamedMatrix;

// The 4x4 of the layout tests (row 2 empty):
//   [ 1 0 2 0 ]
//   [ 0 3 0 0 ]
//   [ 0 0 0 0 ]
//   [ 4 5 0 6 ]
template <class T>
CsrMatrix<T> four_by_four() {
  CsrMatrix<T> matrix;
  matrix.rows = 4;
  matrix.cols = 4;
  matrix.row_offsets = {0, 2, 3, 3, 6};
  matrix.columns = {0, 2, 1, 0, 1, 3};
  matrix.values = {1, 2, 3, 4, 5, 6};
  return matrix;
}

std::vector<index_t> random_lengths(index_t rows, index_t max_length, std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> length(0, max_length);
  std::vector<index_t> lengths(static_cast<std::size_t>(rows));
  for (auto& value : lengths) value = length(rng);
  return lengths;
}

// Random and awkward shapes for the layout-vs-CSR reference checks.
std::vector<NamedMatrix> awkward_matrices(std::mt19937_64& rng) {
  std::vector<NamedMatrix> cases;
  cases.push_back(
      {"random 300x300", matrix_with_row_lengths(300, random_lengths(300, 17, rng), rng)});
  std::vector<index_t> with_empty = random_lengths(200, 9, rng);
  for (std::size_t row = 0; row < with_empty.size(); row += 3) with_empty[row] = 0;
  cases.push_back({"every third row empty", matrix_with_row_lengths(200, with_empty, rng)});
  cases.push_back({"n=1", matrix_with_row_lengths(1, {1}, rng)});
  cases.push_back({"n=1 empty", matrix_with_row_lengths(1, {0}, rng)});
  cases.push_back(
      {"nnz=0 (all rows empty)", matrix_with_row_lengths(50, std::vector<index_t>(50, 0), rng)});
  std::vector<index_t> one_full = random_lengths(120, 4, rng);
  one_full[37] = 120;
  cases.push_back({"one row holding every column", matrix_with_row_lengths(120, one_full, rng)});
  cases.push_back({"tall 400x37", matrix_with_row_lengths(37, random_lengths(400, 8, rng), rng)});
  cases.push_back({"wide 37x400", matrix_with_row_lengths(400, random_lengths(37, 60, rng), rng)});
  cases.push_back({"5x0", matrix_with_row_lengths(0, std::vector<index_t>(5, 0), rng)});
  cases.push_back({"0x0", matrix_with_row_lengths(0, {}, rng)});
  cases.push_back(
      {"every row the same length", matrix_with_row_lengths(64, std::vector<index_t>(90, 7), rng)});
  return cases;
}

template <class T>
std::vector<T> random_vector(std::size_t size, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<T> vector(size);
  for (auto& entry : vector) entry = static_cast<T>(value(rng));
  return vector;
}

// ---------------------------------------------------------------------------------------
// ELLPACK layout, element by element

TEST(EllpackLayout, PitchRoundsRowsUpToWholeAlignedColumns) {
  EXPECT_EQ(ell_pitch(0), 0u);
  EXPECT_EQ(ell_pitch(1), 32u);
  EXPECT_EQ(ell_pitch(32), 32u);
  EXPECT_EQ(ell_pitch(33), 64u);
  EXPECT_EQ(ell_pitch(max_index), 2147483648u);  // 2^31: past the 32-bit index range
}

TEST(EllpackLayout, FourByFourIsColumnMajorPaddedWithMinusOne) {
  const EllpackLayout<double> layout = to_ellpack(four_by_four<double>(), EllPaddingLimits{});
  EXPECT_EQ(layout.rows, 4);
  EXPECT_EQ(layout.cols, 4);
  EXPECT_EQ(layout.width, 3);  // row 3 has 3 entries
  EXPECT_EQ(layout.pitch, 32u);
  EXPECT_EQ(layout.stored_entries, 6);
  EXPECT_EQ(layout.padded_entries(), 12);
  EXPECT_DOUBLE_EQ(layout.fill_ratio(), 2.0);
  ASSERT_EQ(layout.columns.size(), 96u);
  ASSERT_EQ(layout.values.size(), 96u);
  // slot k of row i at k * 32 + i
  const index_t expected_columns[3][4] = {{0, 1, -1, 0}, {2, -1, -1, 1}, {-1, -1, -1, 3}};
  const double expected_values[3][4] = {{1, 3, 0, 4}, {2, 0, 0, 5}, {0, 0, 0, 6}};
  for (int slot = 0; slot < 3; ++slot)
    for (int row = 0; row < 4; ++row) {
      EXPECT_EQ(layout.columns[slot * 32 + row], expected_columns[slot][row])
          << "slot " << slot << " row " << row;
      EXPECT_EQ(layout.values[slot * 32 + row], expected_values[slot][row])
          << "slot " << slot << " row " << row;
    }
  // the pitch rows past `rows` are padding too
  for (int slot = 0; slot < 3; ++slot)
    for (int row = 4; row < 32; ++row) {
      EXPECT_EQ(layout.columns[slot * 32 + row], ell_padding_column);
      EXPECT_EQ(layout.values[slot * 32 + row], 0.0);
    }
}

TEST(EllpackLayout, WithWidthKeepsTheFirstEntriesOfEachRow) {
  const EllpackLayout<float> layout =
      to_ellpack_with_width(four_by_four<float>(), 1, EllPaddingLimits{});
  EXPECT_EQ(layout.width, 1);
  EXPECT_EQ(layout.stored_entries, 3);
  const std::vector<index_t> first_columns = {0, 1, -1, 0};
  const std::vector<float> first_values = {1, 3, 0, 4};
  for (int row = 0; row < 4; ++row) {
    EXPECT_EQ(layout.columns[row], first_columns[row]);
    EXPECT_EQ(layout.values[row], first_values[row]);
  }
  const EllpackLayout<float> empty =
      to_ellpack_with_width(four_by_four<float>(), 0, EllPaddingLimits{});
  EXPECT_EQ(empty.width, 0);
  EXPECT_TRUE(empty.columns.empty());
  EXPECT_EQ(empty.stored_entries, 0);
}

// The slot map of update_values against the layout built from the same values: every
// nonzero lands on its own value, each slot at most once, and the slots no nonzero maps to
// are padding (value 0, column -1). With width past a row's length nothing overflows; with a
// narrower width (HYB) the overflow takes the slots after the ELL array, in COO order.
TEST(EllpackLayout, ValueSlotsPutEveryNonzeroOnItsValue) {
  std::mt19937_64 rng(11);
  std::vector<index_t> lengths = random_lengths(70, 12, rng);
  lengths[5] = 0;
  lengths[6] = 12;
  const CsrMatrix<double> matrix = matrix_with_row_lengths(90, lengths, rng);
  for (const index_t width : {0, 3, 12}) {
    SCOPED_TRACE("width " + std::to_string(width));
    const EllpackLayout<double> layout = to_ellpack_with_width(matrix, width, EllPaddingLimits{});
    const ValueSlots slots = ell_value_slots(matrix.row_offsets, width, layout.pitch);
    ASSERT_EQ(slots.size(), matrix.values.size());
    const std::size_t ell_slots = layout.pitch * static_cast<std::size_t>(width);
    std::vector<int> hits(ell_slots + matrix.values.size(), 0);
    std::size_t overflow = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      ASSERT_LT(slots[k], hits.size());
      ++hits[slots[k]];
      if (slots[k] < ell_slots) {
        EXPECT_EQ(layout.values[slots[k]], matrix.values[k]) << "nonzero " << k;
        EXPECT_EQ(layout.columns[slots[k]], matrix.columns[k]) << "nonzero " << k;
      } else {
        EXPECT_EQ(slots[k], ell_slots + overflow) << "nonzero " << k;  // COO order
        ++overflow;
      }
    }
    for (std::size_t slot = 0; slot < hits.size(); ++slot) {
      EXPECT_LE(hits[slot], 1) << "slot " << slot;
      if (slot < ell_slots && hits[slot] == 0) {
        EXPECT_EQ(layout.values[slot], 0.0) << "slot " << slot;
        EXPECT_EQ(layout.columns[slot], ell_padding_column) << "slot " << slot;
      }
    }
    std::size_t expected_overflow = 0;
    for (const index_t length : lengths)
      expected_overflow += static_cast<std::size_t>(std::max<index_t>(0, length - width));
    EXPECT_EQ(overflow, expected_overflow);
  }
  EXPECT_TRUE(ell_value_slots(CsrMatrix<double>{}.row_offsets, 0, 0).empty());
}

// ---------------------------------------------------------------------------------------
// ELLPACK-R layout

TEST(EllpackRLayout, FourByFourHasTheEllpackArraysPlusRowLengths) {
  const EllpackRLayout<double> layout = to_ellpack_r(four_by_four<double>(), EllPaddingLimits{});
  const EllpackLayout<double> plain = to_ellpack(four_by_four<double>(), EllPaddingLimits{});
  EXPECT_EQ(layout.row_lengths, (std::vector<index_t>{2, 1, 0, 3}));
  EXPECT_EQ(layout.ell.width, 3);
  EXPECT_EQ(layout.ell.columns, plain.columns);
  EXPECT_EQ(layout.ell.values, plain.values);
}

TEST(EllpackRLayout, ReferenceReadsOnlyTheFirstRowLengthSlots) {
  // Corrupt the padding: ELLPACK-R's reference must not look at it.
  EllpackRLayout<double> layout = to_ellpack_r(four_by_four<double>(), EllPaddingLimits{});
  layout.ell.columns[2 * 32 + 0] = 3;  // row 0, slot 2 (padding)
  layout.ell.values[2 * 32 + 0] = 1000.0;
  const std::vector<double> x = {1, 10, 100, 1000};
  std::vector<double> y(4, -1.0);
  ellpack_r_reference_spmv(layout, x.data(), y.data());
  EXPECT_EQ(y, (std::vector<double>{201, 30, 0, 6054}));
}

// ---------------------------------------------------------------------------------------
// Layout reference SpMV == CSR reference

template <class T>
void expect_layout_references_match_csr(const CsrMatrix<double>& source, const std::string& name,
                                        std::mt19937_64& rng) {
  const CsrMatrix<T> matrix = convert_values<T>(source);
  const std::vector<T> x = random_vector<T>(static_cast<std::size_t>(matrix.cols), rng);
  const std::size_t rows = static_cast<std::size_t>(matrix.rows);
  // fp64 reference of the very same T values
  const CsrMatrix<double> exact = convert_values<double>(matrix);
  const std::vector<double> x_double(x.begin(), x.end());
  std::vector<double> expected(rows);
  reference_spmv(exact, x_double.data(), expected.data());
  const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-13;

  std::vector<T> y(rows, std::numeric_limits<T>::quiet_NaN());
  ellpack_reference_spmv(to_ellpack(matrix, EllPaddingLimits{}), x.data(), y.data());
  EXPECT_LT(test::relative_error(y, expected), tolerance) << name << ": ellpack";

  y.assign(rows, std::numeric_limits<T>::quiet_NaN());
  ellpack_r_reference_spmv(to_ellpack_r(matrix, EllPaddingLimits{}), x.data(), y.data());
  EXPECT_LT(test::relative_error(y, expected), tolerance) << name << ": ellpack-r";

  const index_t longest = spk::max_row_length(matrix);
  for (const int width : {-1, 0, 1, 2, static_cast<int>(longest), static_cast<int>(longest) + 5}) {
    y.assign(rows, std::numeric_limits<T>::quiet_NaN());
    const HybLayout<T> hyb = to_hyb(matrix, width, EllPaddingLimits{});
    hyb_reference_spmv(hyb, x.data(), y.data());
    EXPECT_LT(test::relative_error(y, expected), tolerance) << name << ": hyb width " << width;
    EXPECT_EQ(hyb.choice.ell_entries + hyb.choice.coo_entries, matrix.nnz()) << name;
    EXPECT_EQ(hyb.ell.stored_entries, hyb.choice.ell_entries) << name;
    EXPECT_EQ(hyb.coo.entries(), hyb.choice.coo_entries) << name;
  }

  for (const index_t sigma : {32, 64, 1024}) {
    y.assign(rows, std::numeric_limits<T>::quiet_NaN());
    const SellLayout<T> sell = to_sell(matrix, sigma);
    sell_reference_spmv(sell, x.data(), y.data());
    EXPECT_LT(test::relative_error(y, expected), tolerance) << name << ": sell sigma " << sigma;
  }
  // sell with long rows split off at small thresholds (0: every non-empty row is long)
  for (const index_t long_row_length : {0, 3, 40}) {
    y.assign(rows, std::numeric_limits<T>::quiet_NaN());
    const SellLayout<T> sell = to_sell_with_long_row_length(matrix, 64, long_row_length);
    sell_reference_spmv(sell, x.data(), y.data());
    EXPECT_LT(test::relative_error(y, expected), tolerance)
        << name << ": sell with rows over " << long_row_length << " long";
  }
}

TEST(EllLayoutReference, MatchesCsrReferenceOnRandomAndAwkwardMatrices) {
  std::mt19937_64 rng(2024);
  for (const NamedMatrix& named : awkward_matrices(rng)) {
    expect_layout_references_match_csr<double>(named.matrix, named.name, rng);
    expect_layout_references_match_csr<float>(named.matrix, named.name, rng);
  }
}

TEST(EllLayoutReference, MatchesCsrReferenceOnEverySharedMatrix) {
  std::mt19937_64 rng(7);
  for (const char* file :
       {"bcsstk13.mtx", "1138_bus.mtx", "west0479.mtx", "watt_2.mtx", "rajat01.mtx", "Pd.mtx"}) {
    const CsrMatrix<double> matrix = read_matrix_market(test::data_path(file));
    // ellpack would refuse rajat01 under the default fill rule; the unlimited rule is fine here
    expect_layout_references_match_csr<double>(matrix, file, rng);
  }
}

// ---------------------------------------------------------------------------------------
// SELL-C-sigma

TEST(SellLayout, RowsSortedWithinWindowsAndChunksPaddedToTheirLongestRow) {
  // 70 rows: lengths cycle 0..4 except row 33 (10 entries) and row 65 (7); sigma 64: rows
  // 0..63 sort in one window, 64..69 in another.
  std::vector<index_t> lengths(70);
  for (index_t r = 0; r < 70; ++r) lengths[static_cast<std::size_t>(r)] = r % 5;
  lengths[33] = 10;
  lengths[65] = 7;
  CsrMatrix<double> a;
  a.rows = 70;
  a.cols = 12;
  a.row_offsets = {0};
  for (index_t r = 0; r < 70; ++r) {
    for (index_t j = 0; j < lengths[static_cast<std::size_t>(r)]; ++j) {
      a.columns.push_back(j);
      a.values.push_back(100.0 * r + j);
    }
    a.row_offsets.push_back(static_cast<index_t>(a.columns.size()));
  }
  const SellLayout<double> sell = to_sell(a, 64);
  ASSERT_EQ(sell.chunks(), 3u);  // 96 positions
  ASSERT_EQ(sell.permutation.size(), 96u);
  EXPECT_EQ(sell.permutation[0], 33);  // the longest row of window 0 comes first
  EXPECT_EQ(sell.row_lengths[0], 10);
  // then the rows of length 4 in row order: 4, 9, 14, ...
  EXPECT_EQ(sell.permutation[1], 4);
  EXPECT_EQ(sell.permutation[2], 9);
  // window 1: row 65 (7) first, then 64 and 69 (4 each, in row order), 68 (3), 67, 66
  EXPECT_EQ(sell.permutation[64], 65);
  EXPECT_EQ(sell.permutation[65], 64);
  EXPECT_EQ(sell.permutation[66], 69);
  EXPECT_EQ(sell.permutation[69], 66);
  EXPECT_EQ(sell.permutation[70], -1);  // the last chunk's tail
  EXPECT_EQ(sell.row_lengths[70], 0);
  // Chunk widths: 10 (row 33), the longest of positions 32..63, 7 (row 65).
  EXPECT_EQ(sell.chunk_offsets[0], 0u);
  EXPECT_EQ(sell.chunk_offsets[1], 10u * 32);
  const index_t second_width = sell.row_lengths[32];
  EXPECT_EQ(sell.chunk_offsets[2], (10u + static_cast<std::uint64_t>(second_width)) * 32);
  EXPECT_EQ(sell.slots(), (10u + static_cast<std::uint64_t>(second_width) + 7u) * 32);
  // Column-major within a chunk: entry j of position p at offset + 32 j + p % 32.
  const std::uint64_t slot = sell_slot(sell.chunk_offsets[2], 3, 64);
  EXPECT_EQ(sell.columns[slot], 3);
  EXPECT_EQ(sell.values[slot], 6503.0);  // row 65, entry 3
  // Padding: column -1, value 0.
  const std::uint64_t padding = sell_slot(sell.chunk_offsets[2], 6, 65);  // row 64 has 4
  EXPECT_EQ(sell.columns[padding], -1);
  EXPECT_EQ(sell.values[padding], 0.0);
  // Every row sits at exactly one position.
  std::vector<int> seen(70, 0);
  for (const index_t row : sell.permutation)
    if (row >= 0) ++seen[static_cast<std::size_t>(row)];
  for (const int count : seen) EXPECT_EQ(count, 1);
}

TEST(SellLayout, SigmaAndSizeAreChecked) {
  EXPECT_THROW(checked_sell_sigma(0), BadInput);
  EXPECT_THROW(checked_sell_sigma(48), BadInput);
  EXPECT_EQ(checked_sell_sigma(96), 96);
  EXPECT_NO_THROW(check_sell_size(1000, 8, 12000));
  EXPECT_THROW(check_sell_size(1001, 8, 12000), BadInput);
  EXPECT_THROW(check_sell_size(0x100000000ull, 4, static_cast<std::size_t>(-1)), BadInput);
  CsrMatrix<double> empty;
  empty.cols = 5;
  empty.row_offsets = {0};
  const SellLayout<double> layout = to_sell(empty, 32);
  EXPECT_EQ(layout.chunks(), 0u);
  EXPECT_EQ(layout.slots(), 0u);
}

TEST(SellLongRows, RuleIs256Or32TimesTheMeanRowLengthRoundedUp) {
  EXPECT_EQ(sell_long_row_length(0, 0), 256);
  EXPECT_EQ(sell_long_row_length(100, 0), 256);
  EXPECT_EQ(sell_long_row_length(100, 800), 256);  // mean 8: 32 x 8 = 256
  EXPECT_EQ(sell_long_row_length(100, 801), 288);  // mean 8.01 rounds up to 9
  EXPECT_EQ(sell_long_row_length(1, 100000), 3200000);
  // a row is never longer than 32 x the mean when there is only one: n = 1 has no long row
  EXPECT_EQ(sell_long_row_length(1, max_index), max_index);
  EXPECT_EQ(sell_chunk_length(256, 256), 256);
  EXPECT_EQ(sell_chunk_length(257, 256), 0);
}

// 70 rows of r % 5 entries over 1200 columns, except rows 5 (100 entries), 33 (1100) and 69,
// the last (70); long rows are those over 64 entries; sigma 64.
CsrMatrix<double> matrix_with_three_long_rows(std::mt19937_64& rng) {
  std::vector<index_t> lengths(70);
  for (index_t r = 0; r < 70; ++r) lengths[static_cast<std::size_t>(r)] = r % 5;
  lengths[5] = 100;
  lengths[33] = 1100;
  lengths[69] = 70;
  return matrix_with_row_lengths(1200, lengths, rng);
}

TEST(SellLongRows, LongRowsLeaveTheChunksAndArePackedAfterThemInRowOrder) {
  std::mt19937_64 rng(31);
  const CsrMatrix<double> a = matrix_with_three_long_rows(rng);
  const SellLayout<double> sell = to_sell_with_long_row_length(a, 64, 64);
  EXPECT_EQ(sell.long_row_length, 64);
  ASSERT_EQ(sell.long_rows.rows, (std::vector<index_t>{5, 33, 69}));
  // In the chunks a long row has length 0 and flag -1: window 0 sorts 12 rows of 4, 12 of 3
  // (row 33 is long), 13 of 2, 13 of 1, then 14 of 0 (rows 0, 5, 10, ..., 33 in row order);
  // window 1 is rows 64 (4), 68, 67, 66, 65 (0) and 69 (long).
  std::vector<int> seen(70, 0);
  for (std::size_t p = 0; p < sell.permutation.size(); ++p) {
    const index_t row = sell.permutation[p];
    if (row >= 0) {
      ++seen[static_cast<std::size_t>(row)];
      EXPECT_EQ(sell.row_lengths[p], a.row_length(row)) << "position " << p;
    } else {
      EXPECT_EQ(sell.row_lengths[p], 0) << "position " << p;
    }
  }
  for (index_t row = 0; row < 70; ++row)
    EXPECT_EQ(seen[static_cast<std::size_t>(row)], row == 5 || row == 33 || row == 69 ? 0 : 1)
        << "row " << row;
  EXPECT_EQ(sell.permutation[69], -1);  // row 69: the last of window 1 (5 rows before it)
  // Chunk widths 4, 2 (position 32 holds a row of 2), 4: no chunk is widened by a long row.
  ASSERT_EQ(sell.chunk_offsets, (std::vector<std::uint64_t>{0, 128, 192, 320}));
  EXPECT_EQ(sell.chunk_slots(), 320u);
  // The tail: rows 5, 33 and 69 one after another from slot 320, each in CSR order.
  EXPECT_EQ(sell.long_row_starts, (std::vector<std::uint64_t>{320, 420, 1520, 1590}));
  EXPECT_EQ(sell.slots(), 1590u);
  ASSERT_EQ(sell.values.size(), 1590u);
  ASSERT_EQ(sell.columns.size(), 1590u);
  for (std::size_t slot = 0; slot < 3; ++slot) {
    const index_t row = sell.long_rows.rows[slot];
    for (index_t j = 0; j < a.row_length(row); ++j) {
      const std::size_t stored = static_cast<std::size_t>(sell.long_row_starts[slot]) + j;
      EXPECT_EQ(sell.columns[stored], a.columns[a.row_offsets[row] + j]) << "row " << row;
      EXPECT_EQ(sell.values[stored], a.values[a.row_offsets[row] + j]) << "row " << row;
    }
  }
  // Chunks cut at absolute multiples of 1024 of the arrays: [320, 420); [420, 1024) and
  // [1024, 1520); [1520, 1590).
  EXPECT_EQ(sell.long_rows.chunk_offsets, (std::vector<index_t>{0, 1, 3, 4}));
  EXPECT_EQ(sell.long_rows.chunk_rows, (std::vector<index_t>{0, 1, 1, 2}));
  const EntryRange second = long_row_chunk_range(420, 1520, 1);
  EXPECT_EQ(second.begin, 1024);
  EXPECT_EQ(second.end, 1520);

  std::vector<double> x(1200), expected(70), y(70, std::numeric_limits<double>::quiet_NaN());
  for (double& value : x) value = std::uniform_real_distribution<double>(-1, 1)(rng);
  reference_spmv(a, x.data(), expected.data());
  sell_reference_spmv(sell, x.data(), y.data());
  EXPECT_LT(test::relative_error(y, expected), 1e-14);
}

TEST(SellLongRows, WithoutLongRowsThereIsNoTailAndNoSplit) {
  std::mt19937_64 rng(32);
  const CsrMatrix<double> a = matrix_with_three_long_rows(rng);
  const SellLayout<double> sell = to_sell_with_long_row_length(a, 64, 1100);
  EXPECT_TRUE(sell.long_rows.rows.empty());
  EXPECT_TRUE(sell.long_row_starts.empty());
  EXPECT_EQ(sell.slots(), sell.chunk_slots());
  EXPECT_EQ(sell.chunk_offsets[1], 1100u * 32);  // row 33 widens chunk 0
}

// The default rule on a skewed matrix: 2000 rows of 0..4 entries and rows of 257 (the
// threshold is max(256, 32 x 3) = 256), 256 (not long), 5000 and, last, 3000.
TEST(SellLongRows, DefaultRuleSplitsRowsPastItAndMatchesTheCsrReference) {
  std::mt19937_64 rng(33);
  std::vector<index_t> lengths(2000);
  for (index_t r = 0; r < 2000; ++r) lengths[static_cast<std::size_t>(r)] = r % 5;
  lengths[40] = 257;
  lengths[41] = 256;
  lengths[1000] = 5000;
  lengths[1999] = 3000;
  const CsrMatrix<double> a = matrix_with_row_lengths(5000, lengths, rng);
  ASSERT_EQ(sell_long_row_length(a.rows, a.nnz()), 256);
  std::vector<double> x(5000), expected(2000);
  for (double& value : x) value = std::uniform_real_distribution<double>(-1, 1)(rng);
  reference_spmv(a, x.data(), expected.data());
  for (const index_t sigma : {32, 1024}) {
    const SellLayout<double> sell = to_sell(a, sigma);
    EXPECT_EQ(sell.long_rows.rows, (std::vector<index_t>{40, 1000, 1999}));
    EXPECT_EQ(sell.slots(), sell.chunk_slots() + 257 + 5000 + 3000);
    std::vector<double> y(2000, std::numeric_limits<double>::quiet_NaN());
    sell_reference_spmv(sell, x.data(), y.data());
    EXPECT_LT(test::relative_error(y, expected), 1e-14) << "sigma " << sigma;
  }
}

// n = 1 has a long row only under an explicit threshold (the rule never makes one).
TEST(SellLongRows, OneRowThatIsLong) {
  std::mt19937_64 rng(34);
  const CsrMatrix<double> a = matrix_with_row_lengths(3000, {2500}, rng);
  EXPECT_TRUE(to_sell(a, 32).long_rows.rows.empty());
  const SellLayout<double> sell = to_sell_with_long_row_length(a, 32, 100);
  EXPECT_EQ(sell.permutation, std::vector<index_t>(32, -1));
  EXPECT_EQ(sell.chunk_slots(), 0u);
  EXPECT_EQ(sell.long_row_starts, (std::vector<std::uint64_t>{0, 2500}));
  EXPECT_EQ(sell.long_rows.chunk_offsets, (std::vector<index_t>{0, 3}));
  std::vector<double> x(3000), expected(1), y(1, std::numeric_limits<double>::quiet_NaN());
  for (double& value : x) value = std::uniform_real_distribution<double>(-1, 1)(rng);
  reference_spmv(a, x.data(), expected.data());
  sell_reference_spmv(sell, x.data(), y.data());
  EXPECT_NEAR(y[0], expected[0], 1e-13);
}

// The size guard counts the long rows' tail before anything is allocated.
TEST(SellLongRows, SizeGuardCountsTheTail) {
  std::mt19937_64 rng(35);
  std::vector<index_t> lengths(64, 1);
  lengths[10] = 1000;
  const CsrMatrix<double> a = matrix_with_row_lengths(1000, lengths, rng);
  // chunks: 2 of width 1 (64 slots), tail: 1000 entries; 12 bytes a slot in double
  EXPECT_EQ(to_sell_with_long_row_length(a, 32, 64).slots(), 1064u);
  EXPECT_NO_THROW((void)to_sell_with_long_row_length(a, 32, 64, 1064 * 12));
  EXPECT_THROW((void)to_sell_with_long_row_length(a, 32, 64, 1063 * 12), BadInput);
}

// ---------------------------------------------------------------------------------------
// Refusal rules

CsrMatrix<double> skewed_matrix(index_t rows, index_t long_row_length, std::mt19937_64& rng) {
  std::vector<index_t> lengths(static_cast<std::size_t>(rows), 2);
  lengths[rows / 2] = long_row_length;
  return matrix_with_row_lengths(std::max(rows, long_row_length), lengths, rng);
}

TEST(EllpackRefusal, FillPastTheLimitIsRefusedWithRatioAndAlternatives) {
  std::mt19937_64 rng(3);
  // 2000 rows padded to 500: 1e6 slots for 4498 nonzeros, fill 222
  const CsrMatrix<double> matrix = skewed_matrix(2000, 500, rng);
  EllPaddingLimits limits;
  limits.max_fill = 3.0;
  expect_error<BadInput>([&] { (void)to_ellpack(matrix, limits); }, "ellpack: ", "fill ratio 222");
  expect_error<BadInput>([&] { (void)to_ellpack(matrix, limits); },
                         "ellpack: ", "use spmv.format: hyb or ellpack-r");
  expect_error<BadInput>([&] { (void)to_ellpack(matrix, limits); },
                         "ellpack: ", "spmv.max_ell_fill = 3");
  limits.max_fill = 250.0;  // raised: accepted
  EXPECT_EQ(to_ellpack(matrix, limits).width, 500);
}

TEST(EllpackRefusal, SmallMatricesAreNeverRefusedForFill) {
  std::mt19937_64 rng(4);
  // 300 rows padded to 300: 9e4 slots (under the 1e5 floor) for ~900 nonzeros, fill ~100
  const CsrMatrix<double> matrix = skewed_matrix(300, 300, rng);
  EllPaddingLimits limits;
  limits.max_fill = 3.0;
  const EllpackLayout<double> layout = to_ellpack(matrix, limits);
  EXPECT_GT(layout.fill_ratio(), 3.0);
  EXPECT_LE(layout.padded_entries(), limits.fill_floor);
}

TEST(EllpackRefusal, PaddedArraysLargerThanTheDeviceAreRefusedBeforeAllocation) {
  std::mt19937_64 rng(5);
  const CsrMatrix<float> matrix = convert_values<float>(skewed_matrix(1000, 800, rng));
  EllPaddingLimits limits;
  limits.max_bytes = 1 << 20;  // 1 MiB "device"; the arrays need 1024 * 800 * 8 = 6.25 MiB
  expect_error<BadInput>([&] { (void)to_ellpack(matrix, limits); },
                         "ellpack: ", "6.25 MiB of values and column indices");
  limits.format = "ellpack-r";
  expect_error<BadInput>([&] { (void)to_ellpack_r(matrix, limits); },
                         "ellpack-r: ", "more than the device's 1.00 MiB");
  // a width of a billion slots would need terabytes: refused, nothing allocated
  limits.max_bytes = std::size_t{16} << 30;
  limits.format = "hyb";
  expect_error<BadInput>([&] { (void)to_ellpack_with_width(matrix, 1000000000, limits); },
                         "hyb: ", "padding 1000 rows to 1000000000 slots");
}

TEST(EllpackRefusal, PaddedByteCountUses64BitArithmetic) {
  // 2^31-row pitch times a 2^31 width: far past 2^64 bytes, saturates instead of wrapping
  EXPECT_EQ(ell_array_bytes<double>(max_index, max_index), std::numeric_limits<std::size_t>::max());
  // 100000 rows x 50000 slots: 5e9 slots, past 2^32, computed exactly
  EXPECT_EQ(ell_array_bytes<float>(100000, 50000), std::size_t{100000} * 50000 * 8);
}

TEST(EllpackRRefusal, NoFillRuleOnlyTheSizeRule) {
  std::mt19937_64 rng(6);
  const CsrMatrix<double> matrix = skewed_matrix(2000, 500, rng);
  EllPaddingLimits limits;
  limits.max_fill = 3.0;  // ignored by ELLPACK-R
  const EllpackRLayout<double> layout = to_ellpack_r(matrix, limits);
  EXPECT_EQ(layout.ell.width, 500);
  EXPECT_GT(layout.ell.fill_ratio(), 200.0);
}

// ---------------------------------------------------------------------------------------
// HYB width rule

// bytes(K) straight from the definition in hyb_layout.hpp, over the CSR.
double brute_force_bytes(const CsrMatrix<double>& matrix, index_t width, std::size_t value_bytes) {
  double coo = 0.0;
  for (index_t row = 0; row < matrix.rows; ++row)
    coo += std::max(0, matrix.row_length(row) - width);
  return static_cast<double>(matrix.rows) * width * static_cast<double>(value_bytes + 4) +
         coo * static_cast<double>(value_bytes + 8) * hyb_coo_relative_cost;
}

// The K the rule must pick: the smallest argmin over EVERY K from 0 to the longest row.
index_t brute_force_width(const CsrMatrix<double>& matrix, std::size_t value_bytes) {
  index_t best_width = 0;
  double best = brute_force_bytes(matrix, 0, value_bytes);
  for (index_t width = 1; width <= spk::max_row_length(matrix); ++width) {
    const double bytes = brute_force_bytes(matrix, width, value_bytes);
    if (bytes < best) {
      best = bytes;
      best_width = width;
    }
  }
  return best_width;
}

void expect_rule_is_the_brute_force_minimum(const CsrMatrix<double>& matrix,
                                            const std::string& name) {
  for (const std::size_t value_bytes : {std::size_t{4}, std::size_t{8}}) {
    const HybWidthChoice choice = choose_hyb_width(row_length_histogram(matrix), value_bytes, -1);
    EXPECT_EQ(choice.width, brute_force_width(matrix, value_bytes))
        << name << ", " << value_bytes << "-byte values";
    EXPECT_DOUBLE_EQ(hyb_estimated_bytes(row_length_histogram(matrix), choice.width, value_bytes),
                     brute_force_bytes(matrix, choice.width, value_bytes));
  }
}

TEST(HybWidthRule, HistogramIsCompact) {
  const RowLengthHistogram histogram = row_length_histogram(four_by_four<double>());
  ASSERT_EQ(histogram.size(), 4u);
  const index_t lengths[] = {0, 1, 2, 3};
  for (std::size_t bar = 0; bar < 4; ++bar) {
    EXPECT_EQ(histogram[bar].length, lengths[bar]);
    EXPECT_EQ(histogram[bar].rows, 1);
  }
}

TEST(HybWidthRule, SmallRegularMatricesStayInEll) {
  // CUSP's rule sends any matrix under 4096 rows to COO (K = 0); this one must not.
  const CsrMatrix<double> poisson = generate_poisson2d(8);  // 64 rows of 3..5 entries
  expect_rule_is_the_brute_force_minimum(poisson, "poisson2d 8");
  const HybWidthChoice choice = choose_hyb_width(row_length_histogram(poisson), 8, -1);
  EXPECT_GT(choice.width, 0);
  EXPECT_GT(choice.ell_entries, choice.coo_entries);
  // every row the same length: all in ELL, no padding
  std::mt19937_64 rng(8);
  const CsrMatrix<double> regular = matrix_with_row_lengths(50, std::vector<index_t>(40, 6), rng);
  const HybWidthChoice exact = choose_hyb_width(row_length_histogram(regular), 4, -1);
  EXPECT_EQ(exact.width, 6);
  EXPECT_EQ(exact.coo_entries, 0);
  EXPECT_EQ(exact.coo_rows, 0);
}

TEST(HybWidthRule, Rajat01SpillsItsLongRowButKeepsTheBulkInEll) {
  const CsrMatrix<double> matrix = read_matrix_market(test::data_path("rajat01.mtx"));
  expect_rule_is_the_brute_force_minimum(matrix, "rajat01");
  const index_t longest = spk::max_row_length(matrix);
  ASSERT_EQ(longest, 1442);
  for (const std::size_t value_bytes : {std::size_t{4}, std::size_t{8}}) {
    const HybWidthChoice choice = choose_hyb_width(row_length_histogram(matrix), value_bytes, -1);
    EXPECT_GT(choice.width, 0);
    EXPECT_LT(choice.width, 64);                            // nowhere near the long row
    EXPECT_GT(choice.ell_entries, choice.coo_entries);      // the bulk is in ELL
    EXPECT_GE(choice.coo_entries, longest - choice.width);  // the long row overflows
    // the ELL part's padding stays modest
    EXPECT_LT(static_cast<double>(matrix.rows) * choice.width,
              2.0 * static_cast<double>(choice.ell_entries));
  }
}

TEST(HybWidthRule, PowerlawMatrixGetsTheCostMinimum) {
  const CsrMatrix<double> matrix = generate_powerlaw(20000, 8.0, 1.8, 42);
  expect_rule_is_the_brute_force_minimum(matrix, "powerlaw");
  const HybWidthChoice choice = choose_hyb_width(row_length_histogram(matrix), 8, -1);
  EXPECT_GT(choice.width, 0);
  EXPECT_LT(choice.width, spk::max_row_length(matrix));
  EXPECT_GT(choice.coo_entries, 0);
  // at the minimum, widening by one would pad more than it saves: at most a share
  // 12 / (16 c) of the rows (double) is longer than K, and more than that is longer than K - 1
  const double share = 12.0 / (16.0 * hyb_coo_relative_cost);
  std::int64_t longer_than_width = 0, longer_than_narrower = 0;
  for (index_t row = 0; row < matrix.rows; ++row) {
    longer_than_width += matrix.row_length(row) > choice.width;
    longer_than_narrower += matrix.row_length(row) > choice.width - 1;
  }
  EXPECT_LE(static_cast<double>(longer_than_width), share * matrix.rows);
  EXPECT_GT(static_cast<double>(longer_than_narrower), share * matrix.rows);
}

TEST(HybWidthRule, RandomMatricesGetTheCostMinimum) {
  std::mt19937_64 rng(9);
  for (const NamedMatrix& named : awkward_matrices(rng))
    expect_rule_is_the_brute_force_minimum(named.matrix, named.name);
}

TEST(HybWidthRule, FixedWidthIsUsedAndClampedToTheLongestRow) {
  const RowLengthHistogram histogram = row_length_histogram(four_by_four<double>());
  const HybWidthChoice two = choose_hyb_width(histogram, 8, 2);
  EXPECT_EQ(two.width, 2);
  EXPECT_EQ(two.ell_entries, 5);
  EXPECT_EQ(two.coo_entries, 1);
  EXPECT_EQ(two.coo_rows, 1);
  EXPECT_EQ(two.rule, "spmv.hyb_width = 2");
  const HybWidthChoice zero = choose_hyb_width(histogram, 8, 0);
  EXPECT_EQ(zero.width, 0);
  EXPECT_EQ(zero.coo_entries, 6);
  EXPECT_EQ(zero.coo_rows, 3);
  const HybWidthChoice wide = choose_hyb_width(histogram, 8, 50);
  EXPECT_EQ(wide.width, 3);
  EXPECT_EQ(wide.coo_entries, 0);
  EXPECT_NE(wide.rule.find("clamped to the longest row, 3"), std::string::npos);
  expect_error<BadInput>([&] { (void)choose_hyb_width(histogram, 8, -2); }, "spmv.hyb_width: -2",
                         "-1 for the histogram rule");
}

TEST(HybWidthRule, EmptyMatricesGetWidthZero) {
  std::mt19937_64 rng(10);
  const CsrMatrix<double> empty = matrix_with_row_lengths(10, std::vector<index_t>(10, 0), rng);
  const HybWidthChoice choice = choose_hyb_width(row_length_histogram(empty), 8, -1);
  EXPECT_EQ(choice.width, 0);
  EXPECT_EQ(choice.ell_entries + choice.coo_entries, 0);
  EXPECT_EQ(choose_hyb_width(RowLengthHistogram{}, 8, -1).width, 0);
}

// ---------------------------------------------------------------------------------------
// HYB layout

TEST(HybLayout, FourByFourWidthOneSplitsIntoEllAndRowSortedCoo) {
  const HybLayout<double> layout = to_hyb(four_by_four<double>(), 1, EllPaddingLimits{});
  EXPECT_EQ(layout.ell.width, 1);
  EXPECT_EQ(layout.ell.columns[0], 0);
  EXPECT_EQ(layout.ell.columns[1], 1);
  EXPECT_EQ(layout.ell.columns[2], ell_padding_column);
  EXPECT_EQ(layout.ell.columns[3], 0);
  EXPECT_EQ(layout.coo.rows, (std::vector<index_t>{0, 3, 3}));
  EXPECT_EQ(layout.coo.columns, (std::vector<index_t>{2, 1, 3}));
  EXPECT_EQ(layout.coo.values, (std::vector<double>{2, 5, 6}));
  // The one value array of the hyb backend: ELL slots, then the COO values; the slot map
  // reaches both.
  const ValueSlots slots = ell_value_slots(four_by_four<double>().row_offsets, 1, layout.ell.pitch);
  std::vector<double> stored = layout.ell.values;
  stored.insert(stored.end(), layout.coo.values.begin(), layout.coo.values.end());
  const CsrMatrix<double> matrix = four_by_four<double>();
  for (std::size_t k = 0; k < slots.size(); ++k)
    EXPECT_EQ(stored[slots[k]], matrix.values[k]) << "nonzero " << k;
}

TEST(HybLayout, LongRowAndEveryRowOverflowing) {
  std::mt19937_64 rng(12);
  std::vector<index_t> lengths = random_lengths(500, 9, rng);
  for (auto& length : lengths) length += 2;  // every row longer than width 1
  lengths[250] = 5000;
  const CsrMatrix<double> matrix = matrix_with_row_lengths(6000, lengths, rng);
  const HybLayout<double> layout = to_hyb(matrix, 1, EllPaddingLimits{});
  EXPECT_EQ(layout.choice.coo_rows, 500);
  EXPECT_TRUE(std::is_sorted(layout.coo.rows.begin(), layout.coo.rows.end()));
  EXPECT_EQ(std::count(layout.coo.rows.begin(), layout.coo.rows.end(), 250), 4999);
  expect_layout_references_match_csr<double>(matrix, "long row", rng);
}

// ---------------------------------------------------------------------------------------
// options

TEST(BlockSize, WholeWarpsUpTo1024) {
  for (const int good : {32, 64, 96, 256, 512, 544, 1024})
    EXPECT_EQ(checked_block_size(good), good);
  for (const int bad : {0, -32, 16, 100, 1056, 2048})
    expect_error<BadInput>([&] { (void)checked_block_size(bad); },
                           "spmv.block_size: ", "multiple of 32 from 32 to 1024");
  int chosen = 0;
  with_block_class(256, [&](auto block_class) { chosen = decltype(block_class)::value; });
  EXPECT_EQ(chosen, 512);
  with_block_class(544, [&](auto block_class) { chosen = decltype(block_class)::value; });
  EXPECT_EQ(chosen, 1024);
}

}  // namespace
}  // namespace spk
