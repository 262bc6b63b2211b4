// The checks of a caller's CSR arrays on the host (solver/csr_input.hpp): every message word
// for word (the GPU tests compare the device arrays' messages against these), the facts they
// are built from (spmv/device/csr_checks.hpp, the host twin of the device reductions), and the
// Jacobi diagonal positions the host space finds (the device's warp-per-row search must agree).
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "solver/host_space.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/device/csr_checks.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// [[4 -1 0 0], [], [-1 4 -1 0], [0 0 -1 4]]: row 1 is empty (singular, fine for the checks).
struct SmallArrays {
  index_t rows = 4, cols = 4;
  std::vector<index_t> offsets{0, 2, 2, 5, 7};
  std::vector<index_t> columns{0, 1, 0, 1, 2, 2, 3};
  std::vector<double> values{4, -1, -1, 4, -1, -1, 4};

  CsrArrays<double> arrays() const {
    return {rows, cols, offsets.data(), columns.data(), values.data(), false};
  }
};

std::string error_of(const CsrArrays<double>& arrays, double tolerance = 1e-8) {
  Options options;
  options.device = Device::cpu;
  options.solver.tolerance = tolerance;
  try {
    Solver<double> solver(arrays, options);
  } catch (const BadInput& error) {
    return error.what();
  }
  return "";
}

TEST(CsrInput, EveryBadArrayHasItsOneLineMessage) {
  {
    SmallArrays a;
    a.rows = -1;
    EXPECT_EQ(error_of(a.arrays()), "CsrArrays: negative size -1 x 4");
  }
  {
    SmallArrays a;
    a.offsets[0] = 1;
    EXPECT_EQ(error_of(a.arrays()),
              "CsrArrays: row_offsets must start at 0 and end at nnz >= 0 (got 1 .. 7)");
  }
  {
    SmallArrays a;
    a.offsets[2] = 1;  // 2 -> 1: decreases at row 1
    a.offsets[3] = 0;  // and at row 2
    EXPECT_EQ(error_of(a.arrays()), "CsrArrays: row_offsets decrease at row 1 (0-based)");
  }
  {
    SmallArrays a;
    a.columns[6] = 4;
    a.columns[3] = -1;  // the first in CSR order, in row 2 (after the empty row)
    EXPECT_EQ(error_of(a.arrays()),
              "CsrArrays: column index -1 in row 2 (0-based) out of range 0..3");
  }
  {
    SmallArrays a;
    CsrArrays<double> arrays = a.arrays();
    arrays.columns = nullptr;
    EXPECT_EQ(error_of(arrays), "CsrArrays: columns is a null pointer");
    arrays = a.arrays();
    arrays.row_offsets = nullptr;
    EXPECT_EQ(error_of(arrays), "CsrArrays: row_offsets is a null pointer");
  }
  {
    SmallArrays a;
    a.values[6] = std::numeric_limits<double>::infinity();
    a.values[4] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(error_of(a.arrays()),
              "the matrix has a non-finite value at row 2, column 2 (0-based)");
  }
  {
    SmallArrays a;
    a.cols = 5;
    EXPECT_EQ(error_of(a.arrays()),
              "the matrix is not square (4 x 5); Krylov solvers need a square matrix");
  }
  {
    SmallArrays a;
    a.rows = a.cols = 0;
    a.offsets = {0};
    EXPECT_EQ(error_of(a.arrays()), "the matrix is empty (0 rows)");
  }
  EXPECT_EQ(error_of(SmallArrays{}.arrays(), 0.0), "solver.tolerance must be a positive number");
  EXPECT_EQ(error_of(SmallArrays{}.arrays()), "");
}

TEST(CsrInput, HostFactsNameTheFirstFaultAndItsRow) {
  SmallArrays a;
  RowOffsetsFacts offsets = row_offsets_facts(a.rows, a.offsets.data());
  EXPECT_EQ(offsets.first, 0);
  EXPECT_EQ(offsets.last, 7);
  EXPECT_EQ(offsets.first_decreasing_row, -1);
  EntryFacts facts =
      entry_facts(a.rows, a.cols, a.offsets.data(), a.columns.data(), a.values.data());
  EXPECT_FALSE(facts.column_out_of_range.found());
  EXPECT_FALSE(facts.non_finite_value.found());

  a.columns[5] = 9;
  a.columns[6] = -2;
  a.values[2] = -std::numeric_limits<double>::infinity();  // row 2, first entry
  facts = entry_facts(a.rows, a.cols, a.offsets.data(), a.columns.data(), a.values.data());
  EXPECT_EQ(facts.column_out_of_range.entry, 5);
  EXPECT_EQ(facts.column_out_of_range.row, 3);
  EXPECT_EQ(facts.column_out_of_range.column, 9);
  EXPECT_EQ(facts.non_finite_value.entry, 2);
  EXPECT_EQ(facts.non_finite_value.row, 2);
  EXPECT_EQ(facts.non_finite_value.column, 0);

  a.offsets[4] = 4;  // 5 -> 4 at the last row
  offsets = row_offsets_facts(a.rows, a.offsets.data());
  EXPECT_EQ(offsets.first_decreasing_row, 3);
  EXPECT_EQ(offsets.last, 4);
}

// The last entry whose column is the row; -1 for an empty row, a row without its diagonal
// and a row past the last column.
TEST(CsrInput, HostDiagonalPositionsTakeTheLastDiagonalEntry) {
  const index_t rows = 5;
  const std::vector<index_t> offsets{0, 3, 3, 5, 6, 7};
  const std::vector<index_t> columns{0, 1, 0, 0, 1, 3, 1};  // row 0 twice; row 2 none
  std::vector<index_t> positions(rows, 99);
  HostSpace<double> space;
  space.find_diagonal_positions(rows, offsets.data(), columns.data(), positions.data());
  EXPECT_EQ(positions, (std::vector<index_t>{2, -1, -1, 5, -1}));
}

}  // namespace
}  // namespace spk
