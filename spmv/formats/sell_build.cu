#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "spmv/formats/sell_build.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    sell_keys_kernel(index_t rows, index_t sigma, index_t long_row_length,
                     const index_t* __restrict__ row_offsets, std::uint64_t* __restrict__ keys,
                     index_t* __restrict__ row_ids) {
  for_each_index(rows, [&](index_t row) {
    keys[row] = sell_sort_key(
        row, sell_chunk_length(row_offsets[row + 1] - row_offsets[row], long_row_length), sigma);
    row_ids[row] = row;
  });
}

// permutation and row_lengths of every position (-1 and 0 for a long row); chunk_slots[c] =
// 32 w_c (the last entry 0, for the scan's total).
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_positions_kernel(index_t rows, std::int64_t positions, index_t long_row_length,
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
    const index_t csr_length = row >= 0 ? row_offsets[row + 1] - row_offsets[row] : 0;
    const index_t length = sell_chunk_length(csr_length, long_row_length);
    permutation[p] = csr_length > long_row_length ? -1 : row;
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

// packed_lengths[r] = the length of row r when it is long, else 0; 0 at r = rows (for the scan).
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_packed_lengths_kernel(index_t rows, index_t long_row_length,
                               const index_t* __restrict__ row_offsets,
                               index_t* __restrict__ packed_lengths) {
  for_each_index(rows + 1, [&](index_t row) {
    const index_t length = row < rows ? row_offsets[row + 1] - row_offsets[row] : 0;
    packed_lengths[row] = length > long_row_length ? length : 0;
  });
}

// starts[i] = where long row i's entries begin (tail_start + its packed offset); starts[count]
// = the end of the tail.
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_long_row_starts_kernel(index_t rows, index_t long_row_count, std::uint64_t tail_start,
                                const index_t* __restrict__ long_rows,
                                const index_t* __restrict__ packed_offsets,
                                std::uint64_t* __restrict__ starts) {
  for_each_index(long_row_count + 1, [&](index_t slot) {
    const index_t row = slot < long_row_count ? long_rows[slot] : rows;
    starts[slot] = tail_start + static_cast<std::uint64_t>(packed_offsets[row]);
  });
}

// A block per long row (grid-stride): copies its entries to [starts[i], starts[i + 1]) and maps
// them, its threads on consecutive entries (coalesced).
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    sell_fill_long_rows_kernel(index_t long_row_count, const index_t* __restrict__ long_rows,
                               const std::uint64_t* __restrict__ starts,
                               const index_t* __restrict__ row_offsets,
                               const index_t* __restrict__ csr_columns,
                               const T* __restrict__ csr_values, index_t* __restrict__ columns,
                               T* __restrict__ values, std::uint32_t* __restrict__ slot_of_entry) {
  for (index_t slot = static_cast<index_t>(blockIdx.x); slot < long_row_count;
       slot += static_cast<index_t>(gridDim.x)) {
    const index_t first = row_offsets[long_rows[slot]];
    const index_t length = row_offsets[long_rows[slot] + 1] - first;
    const std::uint64_t start = starts[slot];
    for (index_t j = static_cast<index_t>(threadIdx.x); j < length;
         j += static_cast<index_t>(blockDim.x)) {
      columns[start + j] = csr_columns[first + j];
      values[start + j] = csr_values[first + j];
      slot_of_entry[first + j] = static_cast<std::uint32_t>(start + j);
    }
  }
}

}  // namespace

template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& matrix, index_t sigma, index_t long_row_length,
                         std::size_t max_bytes, cudaStream_t stream) {
  checked_sell_sigma(sigma);
  DeviceSell<T> sell;
  sell.rows = matrix.rows;
  sell.sigma = sigma;
  sell.long_row_length = long_row_length;
  const std::size_t chunks =
      (static_cast<std::size_t>(matrix.rows) + sell_chunk_height - 1) / sell_chunk_height;
  sell.positions = chunks * sell_chunk_height;
  const auto rows = static_cast<std::size_t>(matrix.rows);
  DeviceBuffer<std::uint64_t> keys(rows, "sell sort keys"), sorted_keys(rows, "sell sorted keys");
  DeviceBuffer<index_t> row_ids(rows, "sell row ids"), sorted_rows(rows, "sell sorted rows");
  if (rows > 0) {
    sell_keys_kernel<<<setup_grid(matrix.rows), kSetupBlockSize, 0, stream>>>(
        matrix.rows, sigma, long_row_length, matrix.row_offsets, keys.data(), row_ids.data());
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
      matrix.rows, positions, long_row_length, matrix.row_offsets, sorted_rows.data(),
      sell.permutation.data(), sell.row_lengths.data(), chunk_slots.data());
  SPK_CHECK_LAUNCH("sell_positions_kernel");
  run_cub("sell chunk offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, chunk_slots.data(),
                                         sell.chunk_offsets.data(), static_cast<int>(chunks + 1),
                                         stream);
  });
  sell.chunk_slots = download_array(sell.chunk_offsets.data() + chunks, 1, stream)[0];
  sell.slots = sell.chunk_slots;

  // The long rows: packed after the chunks in row order (packed_offsets: the entries of the
  // long rows before each row), their split, and where each one starts.
  const bool has_long_rows = matrix.stats.max_row_length > long_row_length;
  DeviceBuffer<index_t> packed_lengths, packed_offsets;
  if (has_long_rows) {
    packed_lengths = DeviceBuffer<index_t>(rows + 1, "sell long-row lengths");
    packed_offsets = DeviceBuffer<index_t>(rows + 1, "sell long-row offsets");
    sell_packed_lengths_kernel<<<setup_grid(std::int64_t{matrix.rows} + 1), kSetupBlockSize, 0,
                                 stream>>>(matrix.rows, long_row_length, matrix.row_offsets,
                                           packed_lengths.data());
    SPK_CHECK_LAUNCH("sell_packed_lengths_kernel");
    run_cub("sell long-row offsets", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(scratch, bytes, packed_lengths.data(),
                                           packed_offsets.data(), matrix.rows + 1, stream);
    });
    sell.slots += static_cast<std::uint64_t>(
        download_array(packed_offsets.data() + matrix.rows, 1, stream)[0]);
  }
  check_sell_size(sell.slots, sizeof(T), max_bytes);
  if (has_long_rows) {
    sell.long_rows = DeviceLongRows(
        matrix, long_row_length, stream,
        LongRowPlacement{packed_offsets.data(), static_cast<std::int64_t>(sell.chunk_slots)});
    const index_t count = sell.long_rows.long_row_count;
    sell.long_row_starts =
        DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(count) + 1, "sell long-row starts");
    sell_long_row_starts_kernel<<<setup_grid(std::int64_t{count} + 1), kSetupBlockSize, 0,
                                  stream>>>(matrix.rows, count, sell.chunk_slots,
                                            sell.long_rows.rows.data(), packed_offsets.data(),
                                            sell.long_row_starts.data());
    SPK_CHECK_LAUNCH("sell_long_row_starts_kernel");
  }

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
  if (has_long_rows) {
    const index_t count = sell.long_rows.long_row_count;
    const auto blocks = static_cast<unsigned int>(std::min<index_t>(count, 65535));
    sell_fill_long_rows_kernel<<<blocks, kSetupBlockSize, 0, stream>>>(
        count, sell.long_rows.rows.data(), sell.long_row_starts.data(), matrix.row_offsets,
        matrix.columns, matrix.values, sell.columns.data(), sell.values.data(),
        sell.slot_of_entry.data());
    SPK_CHECK_LAUNCH("sell_fill_long_rows_kernel");
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the scratch arrays are freed
  }
  return sell;
}

template DeviceSell<float> build_sell(const DeviceCsr<float>&, index_t, index_t, std::size_t,
                                      cudaStream_t);
template DeviceSell<double> build_sell(const DeviceCsr<double>&, index_t, index_t, std::size_t,
                                       cudaStream_t);

}  // namespace spk
