#pragma once
// split_values_on_device: new values of a process's whole rows, in SplitRows::pattern order
// (own columns, then halo slots, as the caller's update_values gives them) and already on the
// device, into the CSR value arrays of its local and halo blocks: row by row, an entry whose
// column is below own_columns goes to the local block, the others to the halo block, each in
// the row's order. That is the order scatter_values (local_halo_split.hpp) writes on the host,
// so the blocks' backends take the results as they took the host split's values. A thread per
// row; asynchronous on `stream`.
//
// The distributed GPU solver's update_values uploads the values once (or takes them from the
// caller's device array) and splits them here, instead of uploading the pattern's, the local
// block's and the halo block's values apart.
//
// find_first_non_finite: *first = the least k < count whose values[k] is NaN or infinite, or a
// number above any count (0x7f7f7f7f) when there is none; the check of device values before
// they replace the old ones. Asynchronous on `stream`.
#include <cuda_runtime.h>

#include "spkrylov/csr_arrays.hpp"

namespace spk {

template <class T>
void find_first_non_finite(index_t count, const T* values, index_t* first, cudaStream_t stream);

template <class T>
void split_values_on_device(index_t rows, index_t own_columns, const index_t* pattern_offsets,
                            const index_t* pattern_columns, const T* values,
                            const index_t* local_offsets, const index_t* halo_offsets,
                            T* local_values, T* halo_values, cudaStream_t stream);

}  // namespace spk
