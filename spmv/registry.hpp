#pragma once
// Builds the SpMV backend of SpmvOptions::format from a CSR matrix in device memory (DeviceCsr,
// spmv/device/device_csr.hpp): every format builds its layout there, from the device arrays.
// A host CsrMatrix is uploaded once and takes the same path. registry.cpp holds each format's
// factory, by enum (names and docs: format_names.cpp, read by the Format helpers of
// <spkrylov/options.hpp>).
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/setup_info.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// Throws BadInput for a format that refuses this matrix or these options (e.g. ellpack past
// max_ell_fill), CudaError/OutOfDeviceMemory on device failures.
//
// tuning: when not null, *tuning is reset to an empty TuningReport and, for
// spmv.format auto, filled with what the tuner measured and chose (TuningReport::used is then
// true). The backends themselves know nothing of the tuner.
//
// The device arrays are read on `stream`; the stream is synchronized before this returns, so
// the caller may free them then (the backend keeps copies of what it needs).
template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const DeviceCsr<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning = nullptr);

// The same for a host matrix: uploaded once (to_device), then built as above.
template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning = nullptr);

}  // namespace spk
