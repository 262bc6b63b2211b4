#pragma once
// SpmvBackend<T>: a sparse matrix stored on the GPU in one storage format, with the kernel
// that multiplies it. It is a LinearOperator (the solver sees only apply / apply_scaled), and
// it also reports what the benchmark and the solve report need: device memory footprint, the
// minimal bytes one SpMV must move, and format details (padding, widths, splits).
//
// Backends are built once at setup from a CSR matrix in device memory (make_spmv_backend in
// spmv/registry.hpp: the layout is built on the device; a host CsrMatrix is uploaded first) and
// are plain device containers afterwards. apply_scaled() is
// asynchronous on the stream given at construction.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class SpmvBackend : public LinearOperator<T> {
 public:
  // Bytes of device memory the stored matrix occupies (not counting x and y).
  virtual std::size_t device_bytes() const = 0;
  // Minimal bytes one SpMV moves through DRAM under this format's layout: each stored
  // value and index read once (padding included), x read once, y written once, plus any
  // row pointers or row lengths. Used for effective GB/s.
  virtual std::size_t bytes_per_spmv() const = 0;
  // Format-specific facts, e.g. {"threads_per_row", "16"}, {"padding_overhead", "12.5%"}.
  virtual std::vector<std::pair<std::string, std::string>> details() const = 0;
  // Replaces the matrix's values, same sparsity pattern, no re-analysis: `values` is a DEVICE
  // pointer to nnz values in the order of the CSR arrays the backend was built from. One
  // scatter kernel through the slot map kept since setup (formats/device_values.hpp),
  // stream-ordered on stream() after any apply already queued there: asynchronous, no host
  // copy, no allocation, no synchronization (it can be captured in a CUDA graph). `values`
  // must stay valid until that kernel has run. When first_non_finite is not null, the kernel
  // lowers *first_non_finite (atomicMin) to the least index k whose value is NaN or infinite;
  // the caller sets it to nnz beforehand and reads it after synchronizing. Non-finite values
  // are stored all the same: the caller decides what to do.
  virtual void update_values(const T* values, index_t* first_non_finite) = 0;
  // Changes how the kernels are launched, spmv.block_size, spmv.x_cache and spmv.grid,
  // without touching the stored matrix (the `auto` tuner sweeps these). Throws BadInput (and
  // changes nothing) for a value this backend cannot use. No kernel of this backend may be in
  // flight or being captured. cusparse ignores it: its launch is cuSPARSE's.
  virtual void set_launch(const SpmvOptions& options) = 0;
  // Forgets what the backend cached about the x vectors it was applied to (the texture
  // objects of x_cache: texture, keyed by address): call it when those vectors are freed, so
  // that a vector later allocated at the same address is not read through a stale object.
  // No kernel of this backend may be in flight.
  virtual void forget_x_vectors() {}

  cudaStream_t stream() const { return stream_; }

 protected:
  explicit SpmvBackend(cudaStream_t stream) : stream_(stream) {}

 private:
  cudaStream_t stream_;
};

}  // namespace spk
