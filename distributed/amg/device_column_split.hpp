#pragma once
// The local and halo blocks of a process's rows of a distributed matrix kept in the whole form
// on the device (whole_rows.hpp: each row's own columns [0, own) first, then its halo slots),
// split on the device: PETSc's MPIAIJ diagonal and off-diagonal blocks, Ginkgo's local and
// non-local matrices (local_halo_split.hpp is the host's split of rows with global columns).
// Since each row is sorted, its local entries are a prefix: a thread per row finds where its
// halo entries start (a binary search), a scan of the local counts gives the local block's
// offsets, the halo block's are the whole's minus them, and a second pass copies the entries
// (the halo's columns less own), converting the values to T. split_values copies new values of
// the same pattern the same way (update_values). Asynchronous on `stream` except for the one
// read-back of the local block's entry count.
#include <cuda_runtime.h>

#include "spmv/device/device_csr.hpp"

namespace spk {

template <class T>
struct DeviceColumnSplit {
  DeviceCsrMatrix<T> local;  // rows x own
  DeviceCsrMatrix<T> halo;   // rows x (whole.cols - own), column k: halo slot k
};

template <class T>
DeviceColumnSplit<T> split_columns(const DeviceCsrMatrix<double>& whole, index_t own,
                                   cudaStream_t stream);

// New values of `whole` (same pattern as at the split) into both blocks.
template <class T>
void split_values(const DeviceCsrMatrix<double>& whole, index_t own, DeviceColumnSplit<T>& split,
                  cudaStream_t stream);

}  // namespace spk
