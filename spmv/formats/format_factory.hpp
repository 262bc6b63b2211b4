#pragma once
// make_format_backend<format, T, Value>: the factory of one storage format for vectors of T
// and stored matrix values of Value (Value == T, or float under double for
// spmv.matrix_values single), declared here once for the registry (spmv/registry.cpp). Its one
// definition is in format_factory_definition.hpp, which only the file implementing a format
// includes: that file names its backend class with SPK_FORMAT_BACKEND(format, Backend) (a
// FormatBackend specialisation plus the explicit instantiations for float and double).
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/options.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// FormatBackend<format>::type<T, Value> is the backend class of `format` (specialised in its
// file).
template <Format format>
struct FormatBackend;

// `matrix` holds the values as stored (Value); the backend's vectors are T.
template <Format format, class T, class Value>
std::unique_ptr<SpmvBackend<T>> make_format_backend(const DeviceCsr<Value>& matrix,
                                                    const SpmvOptions& options,
                                                    cudaStream_t stream);

}  // namespace spk
