#pragma once
// What the AMG setup on the GPU (solver/amg/device_amg_build.hpp) needs around its matrices,
// which are DeviceCsrMatrix<double> (spmv/device/device_csr.hpp: the hierarchy is built in
// double on both paths; columns sorted and unique within each row as in CsrMatrix): the stream
// and cuSPARSE handle the device setup runs on, a cuSPARSE descriptor of a level, and the
// conversion of values between the solver's precision and the setup's, on the device.
//
// to_device and to_host (spmv/device/device_csr.hpp) copy a whole matrix between the host and
// the device; the setup itself never does (tests do, and the coarsest level goes to the host
// for its dense factorization).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "core/cusparse_objects.hpp"
#include "core/device_buffer.hpp"
#include "core/device_memory_meter.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

// The stream of the device setup and a cuSPARSE handle bound to it (host pointer mode).
class DeviceSetupContext {
 public:
  explicit DeviceSetupContext(cudaStream_t stream)
      : stream_(stream), cusparse_(make_cusparse_handle(stream)) {}

  cudaStream_t stream() const { return stream_; }
  cusparseHandle_t cusparse() const { return cusparse_.get(); }
  void synchronize() const { SPK_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  // One value of device memory, after the stream's work (synchronizes).
  template <class U>
  U read_back(const U* value) const {
    U host{};
    SPK_CUDA_CHECK(cudaMemcpyAsync(&host, value, sizeof(U), cudaMemcpyDeviceToHost, stream_));
    synchronize();
    return host;
  }

 private:
  cudaStream_t stream_;
  CusparseHandlePtr cusparse_;
};

// A cuSPARSE CSR descriptor of `matrix`'s arrays (not copied), for an input of a product.
CusparseSpMatPtr csr_descriptor(const DeviceCsrMatrix<double>& matrix);

// `matrix`'s arrays counted as "<owner> offsets / columns / values" in the memory report
// (DeviceMemoryMeter::renamed): arrays another owner made and this one took.
inline void name_device_arrays(const DeviceCsrMatrix<double>& matrix, const std::string& owner) {
  DeviceMemoryMeter& meter = device_memory_meter();
  meter.renamed(matrix.row_offsets.data(), owner + " offsets");
  meter.renamed(matrix.columns.data(), owner + " columns");
  meter.renamed(matrix.values.data(), owner + " values");
}

// to[i] = To(factor * from[i]) for i < n, asynchronous on `stream`: the solver's values (T)
// into the setup's double and back (float <-> double, double -> double).
template <class From, class To>
void scale_on_device(std::size_t n, double factor, const From* from, To* to, cudaStream_t stream);

}  // namespace spk
