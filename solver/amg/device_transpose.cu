#include <cub/device/device_radix_sort.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "solver/amg/device_transpose.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// row_offsets[c] = the first position of sorted_columns holding a column >= c, for c <= cols
// (binary search; sorted_columns ascending).
__global__ void __launch_bounds__(kSetupBlockSize)
    column_starts_kernel(index_t cols, index_t nnz, const index_t* __restrict__ sorted_columns,
                         index_t* __restrict__ row_offsets) {
  for_each_index(cols + 1, [&](index_t c) {
    row_offsets[c] = lower_bound_in(sorted_columns, index_t{0}, nnz, c);
  });
}

// columns[j] = the row of A's entry source[j] (binary search in A's row offsets: a long row
// costs no thread more than a short one).
__global__ void __launch_bounds__(kSetupBlockSize)
    source_rows_kernel(index_t nnz, index_t rows, const index_t* __restrict__ a_offsets,
                       const index_t* __restrict__ source, index_t* __restrict__ columns) {
  for_each_index(nnz, [&](index_t j) {
    const index_t entry = source[j];
    index_t low = 0, high = rows;  // a_offsets[low] <= entry < a_offsets[high]
    while (high - low > 1) {
      const index_t middle = low + (high - low) / 2;
      if (a_offsets[middle] <= entry)
        low = middle;
      else
        high = middle;
    }
    columns[j] = low;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    gather_kernel(index_t nnz, const index_t* __restrict__ source, const double* __restrict__ from,
                  double* __restrict__ to) {
  for_each_index(nnz, [&](index_t j) { to[j] = from[source[j]]; });
}

// Bits that hold every column index below `cols` (the radix sort reads no more).
int column_bits(index_t cols) {
  int bits = 1;
  while (bits < 31 && (index_t{1} << bits) < cols) ++bits;
  return bits;
}

// source[j] = the entry of A that is entry j of A^T: the entries' positions stably sorted by
// column (the entries of one column keep A's row-major order, so A^T's rows come out sorted);
// with `row_offsets`, also A^T's row offsets. Synchronizes the stream (the temporaries are
// freed on return).
DeviceBuffer<index_t> entries_by_column(const DeviceCsrMatrix<double>& a, index_t* row_offsets,
                                        cudaStream_t stream) {
  const index_t nnz = a.nnz();
  DeviceBuffer<index_t> source(static_cast<std::size_t>(nnz), "transpose permutation");
  DeviceBuffer<index_t> positions(static_cast<std::size_t>(nnz), "transpose positions");
  DeviceBuffer<index_t> sorted_columns(static_cast<std::size_t>(nnz), "transpose sorted keys");
  iota_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(nnz, positions.data());
  SPK_CHECK_LAUNCH("iota_kernel");
  run_cub("transpose sort", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(scratch, bytes, a.columns.data(), sorted_columns.data(),
                                           positions.data(), source.data(), nnz, 0,
                                           column_bits(a.cols), stream);
  });
  if (row_offsets != nullptr) {
    column_starts_kernel<<<setup_grid(static_cast<std::int64_t>(a.cols) + 1), kSetupBlockSize, 0,
                           stream>>>(a.cols, nnz, sorted_columns.data(), row_offsets);
    SPK_CHECK_LAUNCH("column_starts_kernel");
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return source;
}

}  // namespace

DeviceTranspose::DeviceTranspose(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t,
                                 const DeviceSetupContext& context)
    : context_(context) {
  const cudaStream_t stream = context_.stream();
  const index_t nnz = a.nnz();
  const bool with_values = a.values.size() > 0;
  if (with_values && a.values.size() != a.columns.size())
    throw Error("amg setup: transposing a matrix with " + std::to_string(a.values.size()) +
                " values for " + std::to_string(nnz) + " entries (internal error)");
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(a.cols) + 1, "transpose offsets");
  t.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(nnz), "transpose columns");
  t.values =
      DeviceBuffer<double>(with_values ? static_cast<std::size_t>(nnz) : 0, "transpose values");
  if (nnz == 0) {
    SPK_CUDA_CHECK(cudaMemsetAsync(t.row_offsets.data(), 0, t.row_offsets.bytes(), stream));
    return;
  }
  const DeviceBuffer<index_t> source = entries_by_column(a, t.row_offsets.data(), stream);
  source_rows_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(
      nnz, a.rows, a.row_offsets.data(), source.data(), t.columns.data());
  SPK_CHECK_LAUNCH("source_rows_kernel");
  if (with_values) gather(source, a, t);
  context_.synchronize();  // `source` is freed on return
}

void DeviceTranspose::compute(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t) {
  if (a.nnz() == 0 || t.values.size() == 0) return;
  if (a.values.size() != t.values.size() || t.columns.size() != a.columns.size())
    throw Error("amg setup: new values of a transposed matrix: " + std::to_string(a.values.size()) +
                " for " + std::to_string(t.values.size()) + " entries (internal error)");
  // the permutation again (not kept: 4 bytes an entry for the life of the hierarchy)
  const DeviceBuffer<index_t> source = entries_by_column(a, nullptr, context_.stream());
  gather(source, a, t);
  context_.synchronize();  // `source` is freed on return
}

void DeviceTranspose::gather(const DeviceBuffer<index_t>& source, const DeviceCsrMatrix<double>& a,
                             DeviceCsrMatrix<double>& t) const {
  const auto nnz = static_cast<index_t>(source.size());
  gather_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, context_.stream()>>>(
      nnz, source.data(), a.values.data(), t.values.data());  // t_ji = a_ij
  SPK_CHECK_LAUNCH("gather_kernel");
}

}  // namespace spk
