#pragma once
// DeviceColumnOrder: keeps a device CSR matrix's columns sorted within each row when the code
// that fills it (cuSPARSE's SpGEMM, device_sparse_product.hpp) may leave a row unsorted. The
// SpMV formats' builders and the smoothed prolongator's search need sorted rows.
//
// arrange(c) checks c once on the device (the first row whose columns are not strictly
// increasing, one read-back). Sorted: nothing is kept and active() is false. Unsorted: c's
// columns and values move to arrays of their own (raw_columns(), raw_values(): the producer
// writes there from then on), c gets each row's entries sorted by column (CUB's stable
// segmented sort of (column, entry number) pairs), and the permutation is kept, so that
// gather(c) after each new fill of the raw values puts them into c's sorted order:
// c.values[k] = raw_values[permutation[k]]. A caller whose new values come from elsewhere (the
// solver's, in its order: AMG's finest level) arranges without keeping the raw arrays
// (keep_raw false: the permutation alone stays) and gathers from its own array (gather_from).
// The sort holds the raw columns, the sorted ones, the entry numbers and the permutation, not
// the values; the values are gathered after it, and the raw ones freed then unless kept.
#include <cuda_runtime.h>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

class DeviceColumnOrder {
 public:
  void arrange(DeviceCsrMatrix<double>& c, cudaStream_t stream, bool keep_raw = true);
  bool active() const { return permutation_.size() != 0; }
  index_t* raw_columns() { return raw_columns_.data(); }
  double* raw_values() { return raw_values_.data(); }
  void gather(DeviceCsrMatrix<double>& c, cudaStream_t stream) const;
  // c.values[k] = double(source[permutation[k]]): new values in the raw order, from the
  // caller's array (float or double); asynchronous on `stream`. Active orders only.
  template <class T>
  void gather_from(const T* source, DeviceCsrMatrix<double>& c, cudaStream_t stream) const;

 private:
  DeviceBuffer<index_t> raw_columns_;
  DeviceBuffer<double> raw_values_;
  DeviceBuffer<index_t> permutation_;  // sorted entry k came from raw entry permutation_[k]
};

}  // namespace spk
