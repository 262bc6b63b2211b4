#include "spmv/host/fp32_values.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

void throw_unfit_fp32_value(double value, index_t row, index_t column) {
  char shown[32];
  std::snprintf(shown, sizeof shown, "%.6g", value);
  const bool too_large = std::fabs(value) > static_cast<double>(FLT_MAX);
  throw BadInput(std::string("precision mixed: the value ") + shown + " at row " +
                 std::to_string(static_cast<long long>(row) + 1) + ", column " +
                 std::to_string(static_cast<long long>(column) + 1) +
                 (too_large ? " overflows fp32 (largest 3.40282e+38)"
                            : " is below fp32's normal range (smallest 1.17549e-38) and would "
                              "lose its precision") +
                 "; use precision: double");
}

std::vector<float> fp32_values(const CsrMatrix<double>& matrix) {
  std::vector<float> rounded(matrix.values.size());
  for (index_t row = 0; row < matrix.rows; ++row)
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      const double value = matrix.values[k];
      if (!fits_fp32(value)) throw_unfit_fp32_value(value, row, matrix.columns[k]);
      rounded[k] = static_cast<float>(value);
    }
  return rounded;
}

}  // namespace spk
