#pragma once
// make_format_backend<format, T>: the factory of one storage format, declared here once for
// the registry (spmv/registry.cpp). Its one definition is in
// format_factory_definition.hpp, which only the file implementing a format includes: that
// file names its backend class with SPK_FORMAT_BACKEND(format, Backend) (a FormatBackend
// specialisation plus the explicit instantiations for float and double).
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/options.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// FormatBackend<format>::type<T> is the backend class of `format` (specialised in its file).
template <Format format>
struct FormatBackend;

template <Format format, class T>
std::unique_ptr<SpmvBackend<T>> make_format_backend(const DeviceCsr<T>& matrix,
                                                    const SpmvOptions& options,
                                                    cudaStream_t stream);

}  // namespace spk
