#pragma once
// Fp32Values: the values of an fp64 CSR matrix on the device rounded to fp32, for
// spmv.matrix_values single (a config's `precision: mixed`): the SpMV then reads 4 value bytes
// a nonzero instead of 8, and multiplies each value by the fp64 x in fp64. The row offsets and
// columns stay the source's (view() shares them).
//
// Refused before any format is built, by the rule of spmv/host/fp32_values.hpp (fits_fp32,
// BadInput naming the value, its row and column): a value past fp32's range or below its
// normal range. NaN and Inf are left for the caller's finiteness checks.
#include <cuda_runtime.h>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

class Fp32Values {
 public:
  // Converts on `stream` and synchronizes it (one index comes back).
  Fp32Values(const DeviceCsr<double>& matrix, cudaStream_t stream);

  // The source's pattern with the fp32 values (valid while this and the source live).
  const DeviceCsr<float>& view() const { return view_; }

 private:
  DeviceBuffer<float> values_;
  DeviceCsr<float> view_;
};

}  // namespace spk
