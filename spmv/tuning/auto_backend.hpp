#pragma once
// `spmv.format: auto`: the SpMV backend chosen by measurement on the matrix at hand (seed
// 002's auto-tuning, with a cache that survives the process).
//
// Setup: look the matrix up in the tuning cache (tuning_cache.hpp: pattern fingerprint, GPU,
// precision, version). On a hit, build the cached choice directly: nothing is timed. On a
// miss, run_tuning (tuner.hpp) over the pre-filtered candidates (tuning_candidates.hpp),
// each timed on this matrix with CUDA events (2 warm-up SpMVs, median of 10) on an x of
// ones, within spmv.tune_budget_ms; the winner is kept (not rebuilt) and stored in the cache.
//
// What goes through the host: the cache key's pattern fingerprint (matrix_fingerprint.hpp) is
// a host hash, so the row offsets and column indices are downloaded once for it (the values
// are not). Everything else stays on the device: the pre-filter reads the row statistics the
// device computed (DeviceCsr::stats), and every candidate is built from the same device CSR
// arrays, as make_spmv_backend builds any format.
//
// The result is the chosen backend itself, wrapped only to name the choice in name() and
// details(): apply_scaled, update_values and set_launch go straight to it, so a later
// update_values keeps the choice and scatters only the values. What was measured and chosen
// goes to *tuning (when not null), as make_spmv_backend's caller asked.
#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "spkrylov/setup_info.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// The spkrylov version in tuning-cache keys.
const char* spkrylov_version();

template <class T>
std::unique_ptr<SpmvBackend<T>> make_auto_backend(const DeviceCsr<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning);

}  // namespace spk
