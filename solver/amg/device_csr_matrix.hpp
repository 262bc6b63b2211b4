#pragma once
// The AMG hierarchy's matrices on the GPU path (solver/amg/device_amg_build.hpp): an owning CSR
// matrix in device memory with double values (the hierarchy is built in double on both paths),
// 32-bit indices, columns sorted and unique within each row as in CsrMatrix; the stream and
// cuSPARSE handle the device setup runs on; and the conversion of values between the solver's
// precision and the setup's, on the device.
//
// to_device/to_host copy a whole matrix between the host and the device; the setup itself
// never does (tests do, and the coarsest level goes to the host for its dense factorization).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "core/cusparse_objects.hpp"
#include "core/device_buffer.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct DeviceCsrMatrix {
  index_t rows = 0;
  index_t cols = 0;
  DeviceBuffer<index_t> row_offsets;  // rows + 1 entries
  DeviceBuffer<index_t> columns;      // nnz entries
  DeviceBuffer<double> values;        // nnz entries

  index_t nnz() const { return static_cast<index_t>(columns.size()); }
};

// The stream of the device setup and a cuSPARSE handle bound to it (host pointer mode).
class DeviceSetupContext {
 public:
  explicit DeviceSetupContext(cudaStream_t stream)
      : stream_(stream), cusparse_(make_cusparse_handle(stream)) {}

  cudaStream_t stream() const { return stream_; }
  cusparseHandle_t cusparse() const { return cusparse_.get(); }
  void synchronize() const { SPK_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_;
  CusparseHandlePtr cusparse_;
};

// A device copy of `matrix`; `what` names it in allocation errors. Synchronous.
DeviceCsrMatrix to_device(const CsrMatrix<double>& matrix, const std::string& what);
// A host copy of `matrix`, read on `stream` (download_csr).
CsrMatrix<double> to_host(const DeviceCsrMatrix& matrix, cudaStream_t stream);

// A cuSPARSE CSR descriptor of `matrix`'s arrays (not copied), for an input of a product.
CusparseSpMatPtr csr_descriptor(const DeviceCsrMatrix& matrix);

// to[i] = To(factor * from[i]) for i < n, asynchronous on `stream`: the solver's values (T)
// into the setup's double and back (float <-> double, double -> double).
template <class From, class To>
void scale_on_device(std::size_t n, double factor, const From* from, To* to, cudaStream_t stream);

}  // namespace spk
