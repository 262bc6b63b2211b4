#pragma once
// EllpackRLayout<T>: ELLPACK-R (Vázquez, Fernández, Garzón et al., "A new approach for
// sparse matrix vector product on NVIDIA GPUs", Concurrency Computat.: Pract. Exper. 2010;
// seed /work/shared/seeds/ellpack-r.txt): the column-major, pitch-aligned ELLPACK arrays of
// ellpack_layout.hpp plus rl[], the true length of every row. A thread walks row i only to
// rl[i], so padding costs memory but no traffic and no flops.
//
// Storage guard: ELLPACK-R still pads its arrays to the longest row, but since the kernel
// never reads the padding there is no fill-ratio refusal (spmv.max_ell_fill is an `ellpack`
// option). Only the size rule applies: the padded arrays must fit the device memory
// (BadInput naming the size, before any host allocation); a failing cudaMalloc then throws
// OutOfDeviceMemory from DeviceBuffer. The fill ratio is reported in details().
#include <vector>

#include "spmv/formats/ellpack_layout.hpp"

namespace spk {

template <class T>
struct EllpackRLayout {
  EllpackLayout<T> ell;              // width = longest row
  std::vector<index_t> row_lengths;  // rl[i] = entries of row i (its first rl[i] slots)
};

// Throws BadInput when the padded arrays exceed limits.max_bytes; limits.max_fill is ignored.
template <class T>
EllpackRLayout<T> to_ellpack_r(const CsrMatrix<T>& matrix, const EllPaddingLimits& limits);

// y = A x on the layout: row i sums its first row_lengths[i] slots and never looks at the
// rest (the padding's -1 columns are not consulted).
template <class T>
void ellpack_r_reference_spmv(const EllpackRLayout<T>& layout, const T* x, T* y);

}  // namespace spk
