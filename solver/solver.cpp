#include "spkrylov/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "solver/pointer_location.hpp"
#include "solver/solver_impl.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/base/device.hpp"
#include "spmv/base/device_buffer.hpp"

namespace spk {

Device resolve_device(Device device) {
  switch (device) {
    case Device::cpu: return Device::cpu;
    case Device::gpu:
      (void)current_device_info();  // throws NoDevice with the reason
      return Device::gpu;
    case Device::automatic: return device_available() ? Device::gpu : Device::cpu;
  }
  return Device::cpu;
}

namespace {

template <class T>
void validate_system(const CsrMatrix<T>& matrix, const SolverOptions& options) {
  if (!matrix.square())
    throw BadInput("the matrix is not square (" + std::to_string(matrix.rows) + " x " +
                   std::to_string(matrix.cols) + "); Krylov solvers need a square matrix");
  if (matrix.rows == 0) throw BadInput("the matrix is empty (0 rows)");
  for (std::size_t k = 0; k < matrix.values.size(); ++k)
    if (!std::isfinite(matrix.values[k])) {
      index_t row = 0;
      while (matrix.row_offsets[row + 1] <= static_cast<index_t>(k)) ++row;
      throw BadInput("the matrix has a non-finite value at row " + std::to_string(row) +
                     ", column " + std::to_string(matrix.columns[k]) + " (0-based)");
    }
  if (!(options.tolerance > 0.0) || !std::isfinite(options.tolerance))
    throw BadInput("solver.tolerance must be a positive number");
  if (options.max_iterations < 0) throw BadInput("solver.max_iterations must be >= 0");
}

template <class U>
std::vector<U> copy_array(const U* source, std::size_t count, bool on_device, const char* what) {
  if (count > 0 && source == nullptr)
    throw BadInput(std::string("CsrArrays: ") + what + " is a null pointer");
  std::vector<U> copy(count);
  if (count == 0) return copy;
  if (on_device)
    copy_synchronously(copy.data(), source, count * sizeof(U), cudaMemcpyDeviceToHost);
  else
    std::copy(source, source + count, copy.begin());
  return copy;
}

template <class T>
CsrMatrix<T> matrix_from_arrays(const CsrArrays<T>& arrays) {
  if (arrays.rows < 0 || arrays.cols < 0)
    throw BadInput("CsrArrays: negative size " + std::to_string(arrays.rows) + " x " +
                   std::to_string(arrays.cols));
  CsrMatrix<T> matrix;
  matrix.rows = arrays.rows;
  matrix.cols = arrays.cols;
  matrix.row_offsets = copy_array(arrays.row_offsets, static_cast<std::size_t>(arrays.rows) + 1,
                                  arrays.on_device, "row_offsets");
  const index_t nnz = matrix.row_offsets.back();
  if (matrix.row_offsets.front() != 0 || nnz < 0)
    throw BadInput("CsrArrays: row_offsets must start at 0 and end at nnz >= 0 (got " +
                   std::to_string(matrix.row_offsets.front()) + " .. " + std::to_string(nnz) + ")");
  for (index_t row = 0; row < arrays.rows; ++row)
    if (matrix.row_offsets[row + 1] < matrix.row_offsets[row])
      throw BadInput("CsrArrays: row_offsets decrease at row " + std::to_string(row) +
                     " (0-based)");
  matrix.columns =
      copy_array(arrays.columns, static_cast<std::size_t>(nnz), arrays.on_device, "columns");
  matrix.values =
      copy_array(arrays.values, static_cast<std::size_t>(nnz), arrays.on_device, "values");
  for (std::size_t k = 0; k < matrix.columns.size(); ++k)
    if (matrix.columns[k] < 0 || matrix.columns[k] >= arrays.cols) {
      index_t row = 0;
      while (matrix.row_offsets[row + 1] <= static_cast<index_t>(k)) ++row;
      throw BadInput("CsrArrays: column index " + std::to_string(matrix.columns[k]) + " in row " +
                     std::to_string(row) + " (0-based) out of range 0.." +
                     std::to_string(arrays.cols - 1));
    }
  return matrix;
}

}  // namespace

template <class T>
Solver<T>::Solver(const CsrArrays<T>& arrays, const Options& options, cudaStream_t stream) {
  validate_spmv_options(options.spmv);  // the same on every path (issue 18, bug 3)
  const Device device = resolve_device(options.device);
  const CsrMatrix<T> matrix = matrix_from_arrays(arrays);
  validate_system(matrix, options.solver);
  const auto start = std::chrono::steady_clock::now();
  impl_ = device == Device::gpu
              ? make_device_solver<T>(matrix, options.solver, options.spmv, stream)
              : make_host_solver<T>(matrix, options.solver);
  impl_->options = options.solver;
  impl_->rows = matrix.rows;
  impl_->nnz = matrix.values.size();
  impl_->setup.device = device;
  impl_->setup.setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
Solver<T>::~Solver() = default;
template <class T>
Solver<T>::Solver(Solver&&) noexcept = default;
template <class T>
Solver<T>& Solver<T>::operator=(Solver&&) noexcept = default;

template <class T>
SolveResult Solver<T>::solve(const std::vector<T>& b, std::vector<T>& x,
                             const ProgressCallback& progress) {
  const std::size_t n = static_cast<std::size_t>(impl_->rows);
  if (b.size() != n)
    throw BadInput("right-hand side has " + std::to_string(b.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  if (x.size() != n)
    throw BadInput("initial guess has " + std::to_string(x.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(b[i]))
      throw BadInput("right-hand side has a non-finite value at row " + std::to_string(i) +
                     " (0-based)");
    if (!std::isfinite(x[i]))
      throw BadInput("initial guess has a non-finite value at row " + std::to_string(i) +
                     " (0-based)");
  }
  return impl_->solve(b, x, progress);
}

template <class T>
SolveResult Solver<T>::solve(const T* b, T* x, const ProgressCallback& progress) {
  const bool b_on_device = is_device_pointer(b), x_on_device = is_device_pointer(x);
  if (b == nullptr || x == nullptr) throw BadInput("solve: b or x is a null pointer");
  if (b_on_device != x_on_device)
    throw BadInput("solve: b and x must both be host or both be device pointers");
  if (b_on_device) {
    if (impl_->setup.device != Device::gpu)
      throw BadInput("solve: device pointers given to a CPU solver");
    return impl_->solve_in_place(b, x, progress);
  }
  const std::size_t n = static_cast<std::size_t>(impl_->rows);
  const std::vector<T> b_host(b, b + n);
  std::vector<T> x_host(x, x + n);
  SolveResult result = solve(b_host, x_host, progress);
  std::copy(x_host.begin(), x_host.end(), x);
  return result;
}

template <class T>
SolveResult Solver<T>::solve_in_place(const T* b, T* x, const ProgressCallback& progress) {
  return impl_->solve_in_place(b, x, progress);
}

template <class T>
void Solver<T>::update_values(const std::vector<T>& values) {
  if (values.size() != impl_->nnz)
    throw BadInput("update_values: " + std::to_string(values.size()) +
                   " values given, the pattern has " + std::to_string(impl_->nnz) + " entries");
  impl_->update_values(values.data(), false);
}

template <class T>
void Solver<T>::update_values(const T* values) {
  if (values == nullptr && impl_->nnz > 0) throw BadInput("update_values: null pointer");
  const bool on_device = is_device_pointer(values);
  if (on_device && impl_->setup.device != Device::gpu) {
    impl_->update_values(copy_array(values, impl_->nnz, true, "values").data(), false);
    return;
  }
  impl_->update_values(values, on_device);
}

template <class T>
double Solver<T>::time_spmv_ms(int repetitions) {
  return impl_->time_spmv_ms(repetitions);
}
template <class T>
const SetupInfo& Solver<T>::setup_info() const {
  return impl_->setup;
}
template <class T>
const SolverOptions& Solver<T>::options() const {
  return impl_->options;
}
template <class T>
index_t Solver<T>::rows() const {
  return impl_->rows;
}
template <class T>
std::size_t Solver<T>::nnz() const {
  return impl_->nnz;
}
template <class T>
Device Solver<T>::device() const {
  return impl_->setup.device;
}

template class Solver<float>;
template class Solver<double>;

}  // namespace spk
