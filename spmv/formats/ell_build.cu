#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <string>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spkrylov/errors.hpp"
#include "spmv/formats/ell_build.hpp"

namespace spk {

namespace {

// Slot s = j * pitch + row holds entry j of the row (or padding; also every slot of the pitch
// rows past `rows`).
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    ell_slots_kernel(index_t rows, std::int64_t slots, std::int64_t pitch,
                     const index_t* __restrict__ row_offsets,
                     const index_t* __restrict__ csr_columns, const T* __restrict__ csr_values,
                     index_t* __restrict__ columns, T* __restrict__ values) {
  for_each_index(slots, [&](std::int64_t slot) {
    const auto row = static_cast<index_t>(slot % pitch);
    const auto j = static_cast<index_t>(slot / pitch);
    const index_t entry =
        row < rows ? ell_slot_entry(row_offsets[row], row_offsets[row + 1], j) : index_t{-1};
    columns[slot] = entry >= 0 ? csr_columns[entry] : ell_padding_column;
    values[slot] = entry >= 0 ? csr_values[entry] : T(0);
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    row_lengths_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                       index_t* __restrict__ row_lengths) {
  for_each_index(rows,
                 [&](index_t row) { row_lengths[row] = row_offsets[row + 1] - row_offsets[row]; });
}

// tail_lengths[r] = ell_tail_length of row r; tail_lengths[rows] = 0 (for the exclusive scan).
__global__ void __launch_bounds__(kSetupBlockSize)
    tail_lengths_kernel(index_t rows, index_t width, const index_t* __restrict__ row_offsets,
                        index_t* __restrict__ tail_lengths) {
  for_each_index(rows + 1, [&](index_t row) {
    tail_lengths[row] =
        row < rows ? ell_tail_length(row_offsets[row + 1] - row_offsets[row], width) : 0;
  });
}

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    hyb_tail_kernel(index_t rows, index_t width, std::uint64_t ell_slots,
                    const index_t* __restrict__ row_offsets,
                    const index_t* __restrict__ csr_columns, const T* __restrict__ csr_values,
                    const index_t* __restrict__ tail_offsets, index_t* __restrict__ coo_rows,
                    index_t* __restrict__ coo_columns, T* __restrict__ coo_values,
                    std::uint64_t* __restrict__ tail_starts) {
  for_each_row_by_warp(rows, [&](index_t row, index_t lane) {
    const index_t begin = row_offsets[row];
    const index_t tail = ell_tail_length(row_offsets[row + 1] - begin, width);
    const index_t first = tail_offsets[row];  // COO index of the row's first tail entry
    if (lane == 0) tail_starts[row] = tail > 0 ? ell_slots + static_cast<std::uint64_t>(first) : 0;
    for (index_t i = lane; i < tail; i += 32) {
      coo_rows[first + i] = row;
      coo_columns[first + i] = csr_columns[begin + width + i];
      coo_values[first + i] = csr_values[begin + width + i];
    }
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    unsigned_row_lengths_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                                unsigned int* __restrict__ lengths) {
  for_each_index(rows, [&](index_t row) {
    lengths[row] = static_cast<unsigned int>(row_offsets[row + 1] - row_offsets[row]);
  });
}

// Bits a radix sort must look at to order values up to `largest`.
int significant_bits(unsigned int largest) {
  int bits = 1;
  while (bits < 32 && (largest >> bits) != 0) ++bits;
  return bits;
}

}  // namespace

template <class T>
void fill_ell_slots(const DeviceCsr<T>& matrix, index_t width, std::size_t pitch, index_t* columns,
                    T* values, cudaStream_t stream) {
  const auto slots = static_cast<std::int64_t>(pitch * static_cast<std::size_t>(width));
  if (slots == 0) return;
  ell_slots_kernel<<<setup_grid(slots), kSetupBlockSize, 0, stream>>>(
      matrix.rows, slots, static_cast<std::int64_t>(pitch), matrix.row_offsets, matrix.columns,
      matrix.values, columns, values);
  SPK_CHECK_LAUNCH("ell_slots_kernel");
}

template <class T>
void fill_row_lengths(const DeviceCsr<T>& matrix, index_t* row_lengths, cudaStream_t stream) {
  if (matrix.rows == 0) return;
  row_lengths_kernel<<<setup_grid(matrix.rows), kSetupBlockSize, 0, stream>>>(
      matrix.rows, matrix.row_offsets, row_lengths);
  SPK_CHECK_LAUNCH("row_lengths_kernel");
}

template <class T>
void fill_hyb_tail(const DeviceCsr<T>& matrix, index_t width, std::uint64_t ell_slots,
                   index_t* coo_rows, index_t* coo_columns, T* coo_values,
                   std::uint64_t* tail_starts, cudaStream_t stream) {
  const index_t rows = matrix.rows;
  if (rows == 0) return;
  // Tail lengths sum to the COO entries (< nnz): 32-bit offsets hold them.
  DeviceBuffer<index_t> tail_lengths(static_cast<std::size_t>(rows) + 1, "hyb tail lengths");
  DeviceBuffer<index_t> tail_offsets(static_cast<std::size_t>(rows) + 1, "hyb tail offsets");
  tail_lengths_kernel<<<setup_grid(std::int64_t{rows} + 1), kSetupBlockSize, 0, stream>>>(
      rows, width, matrix.row_offsets, tail_lengths.data());
  SPK_CHECK_LAUNCH("tail_lengths_kernel");
  run_cub("hyb tail offsets scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, tail_lengths.data(), tail_offsets.data(),
                                         rows + 1, stream);
  });
  hyb_tail_kernel<<<setup_grid(std::int64_t{rows} * 32), kSetupBlockSize, 0, stream>>>(
      rows, width, ell_slots, matrix.row_offsets, matrix.columns, matrix.values,
      tail_offsets.data(), coo_rows, coo_columns, coo_values, tail_starts);
  SPK_CHECK_LAUNCH("hyb_tail_kernel");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the offsets are freed
}

template <class T>
RowLengthHistogram device_row_length_histogram(const DeviceCsr<T>& matrix, cudaStream_t stream) {
  const index_t rows = matrix.rows;
  if (rows == 0) return {};
  const auto count = static_cast<std::size_t>(rows);
  DeviceBuffer<unsigned int> lengths(count, "row lengths");
  DeviceBuffer<unsigned int> sorted(count, "sorted row lengths");
  DeviceBuffer<unsigned int> bar_lengths(count, "row-length histogram lengths");
  DeviceBuffer<index_t> bar_rows(count, "row-length histogram counts");
  DeviceBuffer<index_t> bars(1, "row-length histogram size");
  unsigned_row_lengths_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, matrix.row_offsets, lengths.data());
  SPK_CHECK_LAUNCH("unsigned_row_lengths_kernel");
  const int bits = significant_bits(static_cast<unsigned int>(matrix.stats.max_row_length));
  run_cub("row lengths sort", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(scratch, bytes, lengths.data(), sorted.data(), rows, 0,
                                          bits, stream);
  });
  run_cub("row lengths run-length encoding", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceRunLengthEncode::Encode(scratch, bytes, sorted.data(), bar_lengths.data(),
                                              bar_rows.data(), bars.data(), rows, stream);
  });
  const auto bar_count = static_cast<std::size_t>(download_array(bars.data(), 1, stream)[0]);
  const std::vector<unsigned int> lengths_of_bars =
      download_array(bar_lengths.data(), bar_count, stream);
  const std::vector<index_t> rows_of_bars = download_array(bar_rows.data(), bar_count, stream);
  RowLengthHistogram histogram(bar_count);
  for (std::size_t bar = 0; bar < bar_count; ++bar)
    histogram[bar] = RowLengthCount{static_cast<index_t>(lengths_of_bars[bar]), rows_of_bars[bar]};
  return histogram;
}

template <class T>
DeviceEll<T> build_ell(const DeviceCsr<T>& matrix, index_t width, std::size_t extra_value_slots,
                       const EllPaddingLimits& limits, cudaStream_t stream) {
  if (width < 0) throw BadInput(limits.format + ": negative ELL width " + std::to_string(width));
  check_ell_size<T>(matrix.rows, width, limits);
  DeviceEll<T> ell;
  ell.rows = matrix.rows;
  ell.width = width;
  ell.pitch = ell_pitch(matrix.rows);
  ell.columns = DeviceBuffer<index_t>(ell.slots(), limits.format + " ELL column indices");
  ell.values = DeviceBuffer<T>(ell.slots() + extra_value_slots, limits.format + " values");
  fill_ell_slots(matrix, width, ell.pitch, ell.columns.data(), ell.values.data(), stream);
  return ell;
}

template <class T>
DeviceHyb<T> build_hyb(const DeviceCsr<T>& matrix, int requested_width,
                       const EllPaddingLimits& limits, cudaStream_t stream) {
  DeviceHyb<T> hyb;
  hyb.choice =
      choose_hyb_width(device_row_length_histogram(matrix, stream), sizeof(T), requested_width);
  const auto coo_entries = static_cast<std::size_t>(hyb.choice.coo_entries);
  hyb.ell = build_ell(matrix, hyb.choice.width, coo_entries, limits, stream);
  if (coo_entries == 0) return hyb;
  hyb.coo_rows = DeviceBuffer<index_t>(coo_entries, "hyb COO row indices");
  hyb.coo_columns = DeviceBuffer<index_t>(coo_entries, "hyb COO column indices");
  hyb.tail_starts =
      DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(matrix.rows), "hyb values row tails");
  fill_hyb_tail(matrix, hyb.choice.width, hyb.ell.slots(), hyb.coo_rows.data(),
                hyb.coo_columns.data(), hyb.ell.values.data() + hyb.ell.slots(),
                hyb.tail_starts.data(), stream);
  return hyb;
}

#define SPK_INSTANTIATE_ELL_BUILD(T)                                                               \
  template void fill_ell_slots(const DeviceCsr<T>&, index_t, std::size_t, index_t*, T*,            \
                               cudaStream_t);                                                      \
  template void fill_row_lengths(const DeviceCsr<T>&, index_t*, cudaStream_t);                     \
  template void fill_hyb_tail(const DeviceCsr<T>&, index_t, std::uint64_t, index_t*, index_t*, T*, \
                              std::uint64_t*, cudaStream_t);                                       \
  template RowLengthHistogram device_row_length_histogram(const DeviceCsr<T>&, cudaStream_t);      \
  template DeviceEll<T> build_ell(const DeviceCsr<T>&, index_t, std::size_t,                       \
                                  const EllPaddingLimits&, cudaStream_t);                          \
  template DeviceHyb<T> build_hyb(const DeviceCsr<T>&, int, const EllPaddingLimits&, cudaStream_t);
SPK_INSTANTIATE_ELL_BUILD(float)
SPK_INSTANTIATE_ELL_BUILD(double)
#undef SPK_INSTANTIATE_ELL_BUILD

}  // namespace spk
