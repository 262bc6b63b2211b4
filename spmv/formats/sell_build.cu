#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "spmv/formats/sell_build.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    sell_keys_kernel(index_t rows, index_t sigma, const index_t* __restrict__ row_offsets,
                     std::uint64_t* __restrict__ keys, index_t* __restrict__ row_ids) {
  for_each_index(rows, [&](index_t row) {
    keys[row] = sell_sort_key(row, row_offsets[row + 1] - row_offsets[row], sigma);
    row_ids[row] = row;
  });
}

// permutation and row_lengths of every position; chunk_slots[c] = 32 w_c (the last entry 0,
// for the scan's total).
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_positions_kernel(index_t rows, std::int64_t positions,
                          const index_t* __restrict__ row_offsets,
                          const index_t* __restrict__ sorted_rows,
                          index_t* __restrict__ permutation, index_t* __restrict__ row_lengths,
                          std::uint64_t* __restrict__ chunk_slots) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       p <= positions; p += stride) {
    if (p == positions) {
      chunk_slots[p / sell_chunk_height] = 0;
      continue;
    }
    const index_t row = p < rows ? sorted_rows[p] : -1;
    const index_t length = row >= 0 ? row_offsets[row + 1] - row_offsets[row] : 0;
    permutation[p] = row;
    row_lengths[p] = length;
    if (p % sell_chunk_height == 0)
      chunk_slots[p / sell_chunk_height] =
          static_cast<std::uint64_t>(length) * sell_chunk_height;  // the chunk's longest row
  }
}

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_fill_kernel(std::int64_t positions, const index_t* __restrict__ row_offsets,
                     const index_t* __restrict__ csr_columns, const T* __restrict__ csr_values,
                     const index_t* __restrict__ permutation,
                     const index_t* __restrict__ row_lengths,
                     const std::uint64_t* __restrict__ chunk_offsets, index_t* __restrict__ columns,
                     T* __restrict__ values, std::uint32_t* __restrict__ slot_of_entry) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       p < positions; p += stride) {
    const std::int64_t chunk = p / sell_chunk_height;
    const std::uint64_t offset = chunk_offsets[chunk];
    const auto width =
        static_cast<index_t>((chunk_offsets[chunk + 1] - offset) / sell_chunk_height);
    const index_t row = permutation[p];
    const index_t length = row_lengths[p];
    const index_t first = row >= 0 ? row_offsets[row] : 0;
    for (index_t j = 0; j < width; ++j) {
      const std::uint64_t slot = sell_slot(offset, j, static_cast<index_t>(p % sell_chunk_height));
      if (j < length) {
        columns[slot] = csr_columns[first + j];
        values[slot] = csr_values[first + j];
        slot_of_entry[first + j] = static_cast<std::uint32_t>(slot);
      } else {
        columns[slot] = -1;
        values[slot] = T(0);
      }
    }
  }
}

}  // namespace

template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& matrix, index_t sigma, std::size_t max_bytes,
                         cudaStream_t stream) {
  checked_sell_sigma(sigma);
  DeviceSell<T> sell;
  sell.rows = matrix.rows;
  sell.sigma = sigma;
  const std::size_t chunks =
      (static_cast<std::size_t>(matrix.rows) + sell_chunk_height - 1) / sell_chunk_height;
  sell.positions = chunks * sell_chunk_height;
  const auto rows = static_cast<std::size_t>(matrix.rows);
  DeviceBuffer<std::uint64_t> keys(rows, "sell sort keys"), sorted_keys(rows, "sell sorted keys");
  DeviceBuffer<index_t> row_ids(rows, "sell row ids"), sorted_rows(rows, "sell sorted rows");
  if (rows > 0) {
    sell_keys_kernel<<<setup_grid(matrix.rows), kSetupBlockSize, 0, stream>>>(
        matrix.rows, sigma, matrix.row_offsets, keys.data(), row_ids.data());
    SPK_CHECK_LAUNCH("sell_keys_kernel");
    run_cub("sell row sort", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(scratch, bytes, keys.data(), sorted_keys.data(),
                                             row_ids.data(), sorted_rows.data(), matrix.rows, 0, 64,
                                             stream);
    });
  }
  sell.permutation = DeviceBuffer<index_t>(sell.positions, "sell permutation");
  sell.row_lengths = DeviceBuffer<index_t>(sell.positions, "sell row lengths");
  DeviceBuffer<std::uint64_t> chunk_slots(chunks + 1, "sell chunk slots");
  sell.chunk_offsets = DeviceBuffer<std::uint64_t>(chunks + 1, "sell chunk offsets");
  const auto positions = static_cast<std::int64_t>(sell.positions);
  sell_positions_kernel<<<setup_grid(positions + 1), kSetupBlockSize, 0, stream>>>(
      matrix.rows, positions, matrix.row_offsets, sorted_rows.data(), sell.permutation.data(),
      sell.row_lengths.data(), chunk_slots.data());
  SPK_CHECK_LAUNCH("sell_positions_kernel");
  run_cub("sell chunk offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, chunk_slots.data(),
                                         sell.chunk_offsets.data(), static_cast<int>(chunks + 1),
                                         stream);
  });
  sell.slots = download_array(sell.chunk_offsets.data() + chunks, 1, stream)[0];
  check_sell_size(sell.slots, sizeof(T), max_bytes);
  sell.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(sell.slots), "sell columns");
  sell.values = DeviceBuffer<T>(static_cast<std::size_t>(sell.slots), "sell values");
  sell.slot_of_entry =
      DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(matrix.nnz), "sell slot map");
  if (positions > 0) {
    sell_fill_kernel<<<setup_grid(positions), kSetupBlockSize, 0, stream>>>(
        positions, matrix.row_offsets, matrix.columns, matrix.values, sell.permutation.data(),
        sell.row_lengths.data(), sell.chunk_offsets.data(), sell.columns.data(), sell.values.data(),
        sell.slot_of_entry.data());
    SPK_CHECK_LAUNCH("sell_fill_kernel");
  }
  return sell;
}

template DeviceSell<float> build_sell(const DeviceCsr<float>&, index_t, std::size_t, cudaStream_t);
template DeviceSell<double> build_sell(const DeviceCsr<double>&, index_t, std::size_t,
                                       cudaStream_t);

}  // namespace spk
