#pragma once
// The AMG level operators of the GPU path (solver/amg/level_operator.hpp): an SpMV backend of
// spmv/registry.hpp per matrix, in the level's format (`auto` tunes each one), on the solver's
// stream, built from the hierarchy's device matrix (DeviceCsr: the formats build their layouts
// on the device; for float the values are converted there first). update_values scatters the
// matrix's new values into the format (SpmvBackend::update_values; for float through a
// converted copy kept for it): on the device, no host copy, no re-tuning.
#include <cuda_runtime.h>

#include "solver/amg/device_csr_matrix.hpp"
#include "solver/amg/level_operator.hpp"

namespace spk {

// spmv: the solver's SpMV options (their format is the default one; each level's format
// replaces it).
template <class T>
LevelOperatorFactory<T, DeviceCsrMatrix<double>> device_level_operators(const SpmvOptions& spmv,
                                                                        cudaStream_t stream);

// Both precisions' device factories (the GPU path's AMG levels, single-process and
// distributed).
inline LevelOperatorFactories<DeviceCsrMatrix<double>> device_level_operator_factories(
    const SpmvOptions& spmv, cudaStream_t stream) {
  return {device_level_operators<double>(spmv, stream),
          device_level_operators<float>(spmv, stream)};
}

}  // namespace spk
