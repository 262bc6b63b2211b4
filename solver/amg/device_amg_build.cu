#include <type_traits>
#include <utility>
#include <vector>

#include "core/device_kernels.cuh"
#include "solver/amg/device_amg_build.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize) ones_kernel(index_t n, double* x) {
  for_each_index(n, [&](index_t i) { x[i] = 1.0; });
}

}  // namespace

DeviceAmgBuild::DeviceAmgBuild() : DeviceAmgBuild(nullptr) {}

DeviceAmgBuild::DeviceAmgBuild(cudaStream_t stream)
    : context_(stream), space_(context_), setup_(context_.stream()) {}

DeviceBuffer<double> DeviceAmgBuild::ones(index_t n) {
  DeviceBuffer<double> x(static_cast<std::size_t>(n), "AMG candidates B_0 = ones");
  ones_kernel<<<setup_grid(n), kSetupBlockSize, 0, stream()>>>(n, x.data());
  SPK_CHECK_LAUNCH("ones_kernel");
  return x;
}

std::unique_ptr<LinearOperator<double>> DeviceAmgBuild::spmv_operator(const Matrix& a) {
  SpmvOptions options;
  options.format = Format::csr;
  return make_spmv_backend(describe_device_csr(a.rows, a.cols, a.row_offsets.data(),
                                               a.columns.data(), a.values.data(), stream()),
                           options, stream());
}

DeviceCsrMatrix<double> DeviceAmgBuild::from_host(const CsrMatrix<double>& matrix) {
  synchronize();  // to_device copies on its own stream
  return to_device(matrix, "AMG coarsest inverse");
}

void DeviceAmgBuild::set_values(Matrix& matrix, const CsrMatrix<double>& source) {
  synchronize();  // the arrays may still be read by work queued on the stream
  matrix.values.copy_from_host(source.values);
}

template <class T>
DeviceCsrMatrix<double> DeviceAmgBuild::fine_matrix(const SpacePattern& pattern, const T* values) {
  if constexpr (std::is_same_v<T, double>) {
    if (offered_ != nullptr && offered_->rows == pattern.rows && offered_->cols == pattern.cols &&
        offered_->row_offsets.data() == pattern.row_offsets &&
        offered_->columns.data() == pattern.columns && offered_->values.data() == values) {
      Matrix fine = std::move(*offered_);  // the solver's copy, taken rather than copied
      offered_ = nullptr;
      name_device_arrays(fine, "AMG A_0");
      return fine;
    }
  }
  Matrix fine;
  fine.rows = pattern.rows;
  fine.cols = pattern.cols;
  const std::size_t offsets = static_cast<std::size_t>(pattern.rows) + 1;
  fine.row_offsets = copy_device_array(pattern.row_offsets, offsets, "AMG A_0 offsets", stream());
  const index_t nnz = download_array(pattern.row_offsets + pattern.rows, 1, stream())[0];
  fine.columns = copy_device_array(pattern.columns, static_cast<std::size_t>(nnz),
                                   "AMG A_0 columns", stream());
  fine.values = DeviceBuffer<double>(static_cast<std::size_t>(nnz), "AMG A_0 values");
  set_fine_values(fine, values);
  return fine;
}

template <class T>
void DeviceAmgBuild::set_fine_values(Matrix& fine, const T* values) {
  scale_on_device(fine.values.size(), 1.0, values, fine.values.data(), stream());  // a_ij in double
}

template DeviceCsrMatrix<double> DeviceAmgBuild::fine_matrix(const SpacePattern&, const float*);
template DeviceCsrMatrix<double> DeviceAmgBuild::fine_matrix(const SpacePattern&, const double*);
template void DeviceAmgBuild::set_fine_values(Matrix&, const float*);
template void DeviceAmgBuild::set_fine_values(Matrix&, const double*);

}  // namespace spk
