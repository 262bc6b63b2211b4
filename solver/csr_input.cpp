#include "solver/csr_input.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/device_buffer.hpp"
#include "solver/pointer_location.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/device/csr_checks.hpp"

namespace spk {

namespace {

template <class T>
void check_sizes(const CsrArrays<T>& arrays) {
  if (arrays.rows < 0 || arrays.cols < 0)
    throw BadInput("CsrArrays: negative size " + std::to_string(arrays.rows) + " x " +
                   std::to_string(arrays.cols));
}

// The messages, one place for host and device arrays alike.
void check_row_offsets(const RowOffsetsFacts& facts) {
  if (facts.first != 0 || facts.last < 0)
    throw BadInput("CsrArrays: row_offsets must start at 0 and end at nnz >= 0 (got " +
                   std::to_string(facts.first) + " .. " + std::to_string(facts.last) + ")");
  if (facts.first_decreasing_row >= 0)
    throw BadInput("CsrArrays: row_offsets decrease at row " +
                   std::to_string(facts.first_decreasing_row) + " (0-based)");
}

void check_columns(const EntryFacts& facts, index_t cols) {
  const EntryFact& bad = facts.column_out_of_range;
  if (bad.found())
    throw BadInput("CsrArrays: column index " + std::to_string(bad.column) + " in row " +
                   std::to_string(bad.row) + " (0-based) out of range 0.." +
                   std::to_string(cols - 1));
}

void check_system(index_t rows, index_t cols, const EntryFacts& facts,
                  const SolverOptions& options) {
  if (rows != cols)
    throw BadInput("the matrix is not square (" + std::to_string(rows) + " x " +
                   std::to_string(cols) + "); Krylov solvers need a square matrix");
  if (rows == 0) throw BadInput("the matrix is empty (0 rows)");
  const EntryFact& bad = facts.non_finite_value;
  if (bad.found())
    throw BadInput("the matrix has a non-finite value at row " + std::to_string(bad.row) +
                   ", column " + std::to_string(bad.column) + " (0-based)");
  validate_solver_options(options);
}

// With on_device: a pointer the GPU can read (a host pointer would fault the kernels).
void check_device_pointer(const void* pointer, std::size_t count, const char* what) {
  if (count == 0) return;
  if (pointer == nullptr) throw BadInput(std::string("CsrArrays: ") + what + " is a null pointer");
  if (!device_can_read(pointer))
    throw BadInput(std::string("CsrArrays: ") + what +
                   " is host memory the GPU cannot read, but on_device is set");
}

}  // namespace

template <class U>
std::vector<U> copy_to_host(const U* source, std::size_t count, bool on_device, const char* what) {
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
CsrMatrix<T> host_matrix_from_arrays(const CsrArrays<T>& arrays, const SolverOptions& options) {
  check_sizes(arrays);
  CsrMatrix<T> matrix;
  matrix.rows = arrays.rows;
  matrix.cols = arrays.cols;
  matrix.row_offsets = copy_to_host(arrays.row_offsets, static_cast<std::size_t>(arrays.rows) + 1,
                                    arrays.on_device, "row_offsets");
  check_row_offsets(row_offsets_facts(matrix.rows, matrix.row_offsets.data()));
  const auto nnz = static_cast<std::size_t>(matrix.row_offsets.back());
  matrix.columns = copy_to_host(arrays.columns, nnz, arrays.on_device, "columns");
  matrix.values = copy_to_host(arrays.values, nnz, arrays.on_device, "values");
  const EntryFacts facts = entry_facts(matrix.rows, matrix.cols, matrix.row_offsets.data(),
                                       matrix.columns.data(), matrix.values.data());
  check_columns(facts, matrix.cols);
  check_system(matrix.rows, matrix.cols, facts, options);
  return matrix;
}

template <class T>
DeviceCsr<T> checked_device_csr(const CsrArrays<T>& arrays, const SolverOptions& options,
                                cudaStream_t stream) {
  check_sizes(arrays);
  const index_t rows = arrays.rows, cols = arrays.cols;
  check_device_pointer(arrays.row_offsets, static_cast<std::size_t>(rows) + 1, "row_offsets");
  const RowOffsetsFacts offsets = device_row_offsets_facts(rows, arrays.row_offsets, stream);
  check_row_offsets(offsets);
  const auto nnz = static_cast<std::size_t>(offsets.last);
  check_device_pointer(arrays.columns, nnz, "columns");
  check_device_pointer(arrays.values, nnz, "values");
  const EntryFacts facts =
      device_entry_facts(rows, cols, arrays.row_offsets, arrays.columns, arrays.values, stream);
  check_columns(facts, cols);
  check_system(rows, cols, facts, options);
  return describe_device_csr(rows, cols, arrays.row_offsets, arrays.columns, arrays.values, stream);
}

#define SPK_INSTANTIATE_CSR_INPUT(T)                                                        \
  template CsrMatrix<T> host_matrix_from_arrays(const CsrArrays<T>&, const SolverOptions&); \
  template DeviceCsr<T> checked_device_csr(const CsrArrays<T>&, const SolverOptions&,       \
                                           cudaStream_t);                                   \
  template std::vector<T> copy_to_host(const T*, std::size_t, bool, const char*);
SPK_INSTANTIATE_CSR_INPUT(float)
SPK_INSTANTIATE_CSR_INPUT(double)
#undef SPK_INSTANTIATE_CSR_INPUT

}  // namespace spk
