#include <algorithm>
#include <climits>
#include <cub/device/device_scan.cuh>
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

}  // namespace

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
  const auto slots = source_ids.size();
  std::vector<global_index_t> used_ids;
  if (slots > 0) {
    DeviceBuffer<index_t> used(slots, "merged rows' used slots");
    SPK_CUDA_CHECK(cudaMemsetAsync(used.data(), 0, used.bytes(), stream_));
    if (own.nnz > 0) {
      used_slots_kernel<<<setup_grid(own.nnz), kSetupBlockSize, 0, stream_>>>(
          own.nnz, own_columns, own.columns, used.data());
      SPK_CHECK_LAUNCH("used_slots_kernel");
    }
    const std::vector<index_t> flags = download_array(used.data(), slots, stream_);
    for (std::size_t s = 0; s < slots; ++s)
      if (flags[s] != 0) used_ids.push_back(source_ids[s]);
  }
  std::vector<global_index_t> halo =
      distinct_outside(received.columns, first_column, first_column + own_columns, used_ids);

  // Slot s -> merged column own_columns + (its place in the halo): increasing in s.
  const ColumnSlots halo_slots(halo);
  std::vector<index_t> map(slots);
  for (std::size_t s = 0; s < slots; ++s) {
    const index_t slot = halo_slots.slot_of(source_ids[s]);
    // an unused source id is not in the halo: its slot is never read, keep the map increasing
    map[s] = own_columns +
             (slot >= 0
                  ? slot
                  : static_cast<index_t>(std::lower_bound(halo.begin(), halo.end(), source_ids[s]) -
                                         halo.begin()));
  }
  slot_map_ = DeviceBuffer<index_t>(map, "merged rows' slot map");
  trace.lap("halo and slot map");

  // The received rows in the merged numbering, each row sorted.
  WholeRows part = whole_rows(received, first_column, own_columns, halo);
  received_order_ = std::move(part.order);
  received_offsets_ = DeviceBuffer<index_t>(part.matrix.row_offsets, "received rows' offsets");
  received_columns_ = DeviceBuffer<index_t>(part.matrix.columns, "received rows' columns");
  received_values_ = DeviceBuffer<double>(part.matrix.values.size(), "received rows' values");
  trace.lap("received rows renumbered and uploaded");

  // Each row's merged length, their scan, then the columns and each entry's place.
  merged.rows = rows;
  merged.cols = own_columns + static_cast<index_t>(halo.size());
  DeviceBuffer<index_t> sizes(static_cast<std::size_t>(rows) + 1, "merged row sizes");
  merged.row_offsets = DeviceBuffer<index_t>(sizes.size(), "merged row offsets");
  SPK_CUDA_CHECK(cudaMemsetAsync(sizes.data(), 0, sizeof(index_t), stream_));
  if (rows > 0) {
    merge_rows_kernel<false><<<setup_grid(rows), kSetupBlockSize, 0, stream_>>>(
        rows, own_columns, slot_map_.data(), own.row_offsets, own.columns, received_offsets_.data(),
        received_columns_.data(), sizes.data(), nullptr, nullptr, nullptr, nullptr);
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
        rows, own_columns, slot_map_.data(), own.row_offsets, own.columns, received_offsets_.data(),
        received_columns_.data(), nullptr, merged.row_offsets.data(), merged.columns.data(),
        own_position_.data(), received_position_.data());
    SPK_CHECK_LAUNCH("merge_rows_kernel (columns)");
  }
  trace.lap("merged pattern");
  halo_columns = std::move(halo);
  compute(own, received, merged);
  trace.lap("values");
}

void DeviceRowMerge::compute(const DeviceCsr<double>& own, const RowBlock<double>& received,
                             DeviceCsrMatrix<double>& merged) {
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
  if (merged.nnz() > 0)
    SPK_CUDA_CHECK(cudaMemsetAsync(merged.values.data(), 0, merged.values.bytes(), stream_));
  if (own.nnz > 0) {
    place_kernel<false><<<setup_grid(own.nnz), kSetupBlockSize, 0, stream_>>>(
        own.nnz, own_position_.data(), own.values, merged.values.data());
    SPK_CHECK_LAUNCH("place_kernel (own)");
  }
  const auto count = static_cast<index_t>(sorted.size());
  if (count > 0) {
    place_kernel<true><<<setup_grid(count), kSetupBlockSize, 0, stream_>>>(
        count, received_position_.data(), received_values_.data(), merged.values.data());
    SPK_CHECK_LAUNCH("place_kernel (received)");
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));  // `sorted` is freed on return
}

}  // namespace spk
