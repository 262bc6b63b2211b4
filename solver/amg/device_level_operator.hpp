#pragma once
// The AMG level operators of the GPU path (solver/amg/level_operator.hpp): an SpMV backend of
// spmv/registry.hpp per matrix, in the level's format (`auto` tunes each one), on the solver's
// stream. update_values uploads the host values into a staging buffer and scatters them into
// the format (SpmvBackend::update_values): no conversion and no re-tuning.
#include <cuda_runtime.h>

#include "solver/amg/level_operator.hpp"

namespace spk {

// spmv: the solver's SpMV options (their format is the default one; each level's format
// replaces it).
template <class T>
LevelOperatorFactory<T> device_level_operators(const SpmvOptions& spmv, cudaStream_t stream);

}  // namespace spk
