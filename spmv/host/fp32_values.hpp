#pragma once
// The rule of fp32 matrix values under fp64 vectors (spmv.matrix_values single, a config's
// `precision: mixed`), written once for the CPU path (fp32_values below) and the GPU path
// (spmv/device/device_fp32_values.hpp):
//
//   fits_fp32(v)   zero, NaN and Inf pass (NaN and Inf are the finiteness checks' business); a
//                  finite value must lie in fp32's normal range [FLT_MIN, FLT_MAX] in
//                  magnitude: past it, it would overflow to Inf; below it, become 0 or a
//                  subnormal with fewer significant bits.
//   throw_unfit_fp32_value   the refusal: BadInput naming the value, its row and column.
#include <cfloat>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

SPK_HOST_DEVICE inline bool fits_fp32(double value) {
  if (value == 0.0 || !(value - value == 0.0)) return true;  // zero, NaN or Inf
  const double magnitude = value < 0.0 ? -value : value;
  return magnitude <= static_cast<double>(FLT_MAX) && magnitude >= static_cast<double>(FLT_MIN);
}

// row and column 0-based (the message counts from 1).
[[noreturn]] void throw_unfit_fp32_value(double value, index_t row, index_t column);

// The matrix's values rounded to fp32; throws throw_unfit_fp32_value's BadInput for the first
// value (in CSR order) that fits_fp32 refuses.
std::vector<float> fp32_values(const CsrMatrix<double>& matrix);

}  // namespace spk
