#include <algorithm>
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <string>
#include <utility>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "core/step_trace.hpp"
#include "distributed/amg/column_set.hpp"
#include "distributed/amg/device_row_merge.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// used[s] = 1 for every source slot s an own entry names
__global__ void __launch_bounds__(kSetupBlockSize)
    used_slots_kernel(index_t nnz, index_t own_columns, const index_t* __restrict__ columns,
                      index_t* __restrict__ used) {
  for_each_index(nnz, [&](index_t k) {
    if (columns[k] >= own_columns) used[columns[k] - own_columns] = 1;
  });
}

// Each row's two sorted parts walked together (the own part through the slot map): with
// Write false its merged length into sizes[row + 1]; with Write true its merged columns from
// out_offsets[row] on, and where each part's entry went.
template <bool Write>
__global__ void __launch_bounds__(kSetupBlockSize)
    merge_rows_kernel(index_t rows, index_t own_columns, const index_t* __restrict__ slot_map,
                      const index_t* __restrict__ a_offsets, const index_t* __restrict__ a_columns,
                      const index_t* __restrict__ b_offsets, const index_t* __restrict__ b_columns,
                      index_t* __restrict__ sizes, const index_t* __restrict__ out_offsets,
                      index_t* __restrict__ out_columns, index_t* __restrict__ a_position,
                      index_t* __restrict__ b_position) {
  for_each_index(rows, [&](index_t row) {
    index_t i = a_offsets[row], j = b_offsets[row];
    const index_t a_end = a_offsets[row + 1], b_end = b_offsets[row + 1];
    index_t to = Write ? out_offsets[row] : 0;
    while (i < a_end || j < b_end) {
      index_t ca = INT_MAX, cb = INT_MAX;
      if (i < a_end) {
        const index_t c = a_columns[i];
        ca = c < own_columns ? c : slot_map[c - own_columns];
      }
      if (j < b_end) cb = b_columns[j];
      const index_t c = ca < cb ? ca : cb;
      if (Write) {
        out_columns[to] = c;
        if (ca == c) a_position[i] = to;
        if (cb == c) b_position[j] = to;
      }
      if (ca == c) ++i;
      if (cb == c) ++j;
      ++to;
    }
    if (!Write) sizes[row + 1] = to;
  });
}

// values[position[k]] = part[k] (Add: +=); each position is named once
template <bool Add>
__global__ void __launch_bounds__(kSetupBlockSize)
    place_kernel(index_t count, const index_t* __restrict__ position,
                 const double* __restrict__ part, double* __restrict__ values) {
  for_each_index(count, [&](index_t k) {
    if (Add)
      values[position[k]] += part[k];
    else
      values[position[k]] = part[k];
  });
}

// key[k] = (row of entry k) << 32 | its column, the entries of piece p being row rows[p]'s
__global__ void __launch_bounds__(kSetupBlockSize)
    piece_keys_kernel(index_t pieces, const index_t* __restrict__ rows,
                      const index_t* __restrict__ offsets, const index_t* __restrict__ columns,
                      std::uint64_t* __restrict__ keys) {
  for_each_index(pieces, [&](index_t p) {
    const auto high = static_cast<std::uint64_t>(static_cast<std::uint32_t>(rows[p])) << 32;
    for (index_t k = offsets[p]; k < offsets[p + 1]; ++k)
      keys[k] = high | static_cast<std::uint32_t>(columns[k]);
  });
}

// counts[row] += 1 and columns[k] for each summed entry (its key)
__global__ void __launch_bounds__(kSetupBlockSize)
    split_keys_kernel(index_t count, const std::uint64_t* __restrict__ keys,
                      index_t* __restrict__ counts, index_t* __restrict__ columns) {
  for_each_index(count, [&](index_t k) {
    atomicAdd(&counts[static_cast<index_t>(keys[k] >> 32)], 1);
    columns[k] = static_cast<index_t>(keys[k] & 0xffffffffu);
  });
}

}  // namespace

std::vector<global_index_t> DeviceRowMerge::used_source_ids(
    const DeviceCsr<double>& own, const std::vector<global_index_t>& source_ids) {
  const auto slots = source_ids.size();
  std::vector<global_index_t> used_ids;
  if (slots == 0) return used_ids;
  DeviceBuffer<index_t> used(slots, "merged rows' used slots");
  SPK_CUDA_CHECK(cudaMemsetAsync(used.data(), 0, used.bytes(), stream_));
  if (own.nnz > 0) {
    used_slots_kernel<<<setup_grid(own.nnz), kSetupBlockSize, 0, stream_>>>(
        own.nnz, own_columns_, own.columns, used.data());
    SPK_CHECK_LAUNCH("used_slots_kernel");
  }
  const std::vector<index_t> flags = download_array(used.data(), slots, stream_);
  for (std::size_t s = 0; s < slots; ++s)
    if (flags[s] != 0) used_ids.push_back(source_ids[s]);
  return used_ids;
}

void DeviceRowMerge::map_slots(const std::vector<global_index_t>& source_ids,
                               const std::vector<global_index_t>& halo) {
  // Slot s -> merged column own_columns + (its place in the halo): increasing in s.
  const ColumnSlots halo_slots(halo);
  std::vector<index_t> map(source_ids.size());
  for (std::size_t s = 0; s < source_ids.size(); ++s) {
    const index_t slot = halo_slots.slot_of(source_ids[s]);
    // an unused source id is not in the halo: its slot is never read, keep the map increasing
    map[s] = own_columns_ +
             (slot >= 0
                  ? slot
                  : static_cast<index_t>(std::lower_bound(halo.begin(), halo.end(), source_ids[s]) -
                                         halo.begin()));
  }
  slot_map_ = DeviceBuffer<index_t>(map, "merged rows' slot map");
}

void DeviceRowMerge::merge_pattern(const DeviceCsr<double>& own, index_t rows, index_t cols,
                                   DeviceCsrMatrix<double>& merged) {
  // Each row's merged length, their scan, then the columns and each entry's place.
  merged.rows = rows;
  merged.cols = cols;
  DeviceBuffer<index_t> sizes(static_cast<std::size_t>(rows) + 1, "merged row sizes");
  merged.row_offsets = DeviceBuffer<index_t>(sizes.size(), "merged row offsets");
  SPK_CUDA_CHECK(cudaMemsetAsync(sizes.data(), 0, sizeof(index_t), stream_));
  if (rows > 0) {
    merge_rows_kernel<false><<<setup_grid(rows), kSetupBlockSize, 0, stream_>>>(
        rows, own_columns_, slot_map_.data(), own.row_offsets, own.columns,
        received_offsets_.data(), received_columns_.data(), sizes.data(), nullptr, nullptr, nullptr,
        nullptr);
    SPK_CHECK_LAUNCH("merge_rows_kernel (sizes)");
  }
  run_cub("merged row offsets", stream_, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, sizes.data(), merged.row_offsets.data(),
                                         rows + 1, stream_);
  });
  const index_t nnz = download_array(merged.row_offsets.data() + rows, 1, stream_)[0];
  merged.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(nnz), "merged columns");
  merged.values = DeviceBuffer<double>(static_cast<std::size_t>(nnz), "merged values");
  own_position_ = DeviceBuffer<index_t>(static_cast<std::size_t>(own.nnz), "own entries' places");
  received_position_ = DeviceBuffer<index_t>(received_columns_.size(), "received entries' places");
  if (rows > 0) {
    merge_rows_kernel<true><<<setup_grid(rows), kSetupBlockSize, 0, stream_>>>(
        rows, own_columns_, slot_map_.data(), own.row_offsets, own.columns,
        received_offsets_.data(), received_columns_.data(), nullptr, merged.row_offsets.data(),
        merged.columns.data(), own_position_.data(), received_position_.data());
    SPK_CHECK_LAUNCH("merge_rows_kernel (columns)");
  }
}

void DeviceRowMerge::place_values(const DeviceCsr<double>& own, DeviceCsrMatrix<double>& merged) {
  if (merged.nnz() > 0)
    SPK_CUDA_CHECK(cudaMemsetAsync(merged.values.data(), 0, merged.values.bytes(), stream_));
  if (own.nnz > 0) {
    place_kernel<false><<<setup_grid(own.nnz), kSetupBlockSize, 0, stream_>>>(
        own.nnz, own_position_.data(), own.values, merged.values.data());
    SPK_CHECK_LAUNCH("place_kernel (own)");
  }
  const auto count = static_cast<index_t>(received_values_.size());
  if (count > 0) {
    place_kernel<true><<<setup_grid(count), kSetupBlockSize, 0, stream_>>>(
        count, received_position_.data(), received_values_.data(), merged.values.data());
    SPK_CHECK_LAUNCH("place_kernel (received)");
  }
}

DeviceRowMerge::DeviceRowMerge(const DeviceCsr<double>& own,
                               const std::vector<global_index_t>& source_ids,
                               const RowBlock<double>& received, global_index_t first_column,
                               index_t own_columns, DeviceCsrMatrix<double>& merged,
                               std::vector<global_index_t>& halo_columns, cudaStream_t stream)
    : stream_(stream), own_columns_(own_columns) {
  const index_t rows = received.rows;
  StepTrace trace =
      StepTrace::when_enabled([&] { return "row merge (" + std::to_string(rows) + " rows)"; },
                              [stream] { SPK_CUDA_CHECK(cudaStreamSynchronize(stream)); });
  if (own.rows != rows)
    throw Error("amg setup: merging " + std::to_string(own.rows) + " own rows with " +
                std::to_string(rows) + " received rows (internal error)");

  // The halo: the source slots the own part uses, and the received columns outside the own
  // range, ascending.
  std::vector<global_index_t> halo = distinct_outside(
      received.columns, first_column, first_column + own_columns, used_source_ids(own, source_ids));
  map_slots(source_ids, halo);
  trace.lap("halo and slot map");

  // The received rows in the merged numbering, each row sorted.
  WholeRows part = whole_rows(received, first_column, own_columns, halo);
  received_order_ = std::move(part.order);
  received_offsets_ = DeviceBuffer<index_t>(part.matrix.row_offsets, "received rows' offsets");
  received_columns_ = DeviceBuffer<index_t>(part.matrix.columns, "received rows' columns");
  received_values_ = DeviceBuffer<double>(part.matrix.values.size(), "received rows' values");
  trace.lap("received rows renumbered and uploaded");

  merge_pattern(own, rows, own_columns + static_cast<index_t>(halo.size()), merged);
  trace.lap("merged pattern");
  halo_columns = std::move(halo);
  compute(own, received, merged);
  trace.lap("values");
}

DeviceRowMerge::DeviceRowMerge(const DeviceCsr<double>& own,
                               const std::vector<global_index_t>& source_ids,
                               const DeviceRowPieces& received, global_index_t first_column,
                               index_t own_columns, DeviceCsrMatrix<double>& merged,
                               std::vector<global_index_t>& halo_columns, cudaStream_t stream)
    : stream_(stream), own_columns_(own_columns), from_device_(true) {
  const index_t rows = own.rows;
  StepTrace trace = StepTrace::when_enabled(
      [&] { return "row merge on the device (" + std::to_string(rows) + " rows)"; },
      [stream] { SPK_CUDA_CHECK(cudaStreamSynchronize(stream)); });
  std::vector<global_index_t> halo =
      distinct_outside_on_device(received.columns, first_column, first_column + own_columns,
                                 used_source_ids(own, source_ids), stream_);
  map_slots(source_ids, halo);
  trace.lap("halo and slot map");

  // The pieces' entries keyed by (row, merged column), sorted (stably: each entry's pieces stay
  // in the order received) and summed by key: the received rows in the merged numbering.
  const auto entries = static_cast<index_t>(received.columns.size());
  received_offsets_ =
      DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, "received rows' offsets");
  SPK_CUDA_CHECK(cudaMemsetAsync(received_offsets_.data(), 0, received_offsets_.bytes(), stream_));
  if (entries > 0) {
    DeviceBuffer<std::uint64_t> keys(received.columns.size(), "received entries' keys");
    {
      const DeviceBuffer<index_t> local =
          whole_form_columns_on_device(received.columns, first_column, own_columns, halo, stream_);
      piece_keys_kernel<<<setup_grid(received.pieces), kSetupBlockSize, 0, stream_>>>(
          received.pieces, received.rows.data(), received.row_offsets.data(), local.data(),
          keys.data());
      SPK_CHECK_LAUNCH("piece_keys_kernel");
      SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));  // `local` is freed on leaving
    }
    DeviceBuffer<std::uint64_t> sorted_keys(keys.size(), "received entries' keys sorted");
    DeviceBuffer<double> sorted_values(keys.size(), "received entries' values sorted");
    run_cub("received entries' sort", stream_, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(scratch, bytes, keys.data(), sorted_keys.data(),
                                             received.values.data(), sorted_values.data(), entries,
                                             0, 64, stream_);
    });
    DeviceBuffer<index_t> summed(1, "received entries summed (count)");
    received_values_ = DeviceBuffer<double>(keys.size(), "received rows' values");
    run_cub("received entries' sums", stream_, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceReduce::ReduceByKey(
          scratch, bytes, sorted_keys.data(), keys.data(), sorted_values.data(),
          received_values_.data(), summed.data(), cuda::std::plus<double>{}, entries, stream_);
    });
    const index_t count = download_array(summed.data(), 1, stream_)[0];
    received_columns_ =
        DeviceBuffer<index_t>(static_cast<std::size_t>(count), "received rows' columns");
    DeviceBuffer<index_t> counts(static_cast<std::size_t>(rows) + 1, "received row counts");
    SPK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream_));
    if (count > 0) {
      split_keys_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream_>>>(
          count, keys.data(), counts.data(), received_columns_.data());
      SPK_CHECK_LAUNCH("split_keys_kernel");
    }
    run_cub("received row offsets", stream_, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(scratch, bytes, counts.data(), received_offsets_.data(),
                                           rows + 1, stream_);
    });
    // received_values_ keeps its first `count` values (the sums), the rest is never read
    DeviceBuffer<double> sums = copy_device_array(
        received_values_.data(), static_cast<std::size_t>(count), "received rows' values", stream_);
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));
    received_values_ = std::move(sums);
  }
  trace.lap("received pieces renumbered, sorted and summed");

  merge_pattern(own, rows, own_columns + static_cast<index_t>(halo.size()), merged);
  trace.lap("merged pattern");
  halo_columns = std::move(halo);
  place_values(own, merged);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));
  trace.lap("values");
}

void DeviceRowMerge::compute(const DeviceCsr<double>& own, const RowBlock<double>& received,
                             DeviceCsrMatrix<double>& merged) {
  if (from_device_)
    throw Error("amg: a row merge made on the device has no re-setup (internal error)");
  if (received.values.size() != received_order_.size() ||
      static_cast<std::size_t>(own.nnz) != own_position_.size())
    throw Error("amg setup: merging rows of " + std::to_string(own.nnz) + " + " +
                std::to_string(received.values.size()) + " entries into a pattern of " +
                std::to_string(own_position_.size()) + " + " +
                std::to_string(received_order_.size()) + " (internal error)");
  // The received values in the merged rows' order, then c = own + received.
  std::vector<double> sorted(received_order_.size());
  for (std::size_t k = 0; k < sorted.size(); ++k)
    sorted[k] = received.values[static_cast<std::size_t>(received_order_[k])];
  if (!sorted.empty())
    SPK_CUDA_CHECK(cudaMemcpyAsync(received_values_.data(), sorted.data(),
                                   sorted.size() * sizeof(double), cudaMemcpyHostToDevice,
                                   stream_));
  place_values(own, merged);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));  // `sorted` is freed on return
}

}  // namespace spk
