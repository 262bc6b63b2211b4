#include <algorithm>
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "core/staged_upload.hpp"
#include "core/step_trace.hpp"
#include "distributed/device_split_kernels.cuh"
#include "distributed/device_split_rows.hpp"
#include "distributed/local_halo_split.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// *first = the least row whose offsets decrease or pass nnz (unchanged when none does).
__global__ void __launch_bounds__(kSetupBlockSize)
    first_decreasing_row_kernel(index_t rows, index_t nnz, const index_t* __restrict__ offsets,
                                index_t* __restrict__ first) {
  for_each_index(rows, [&](index_t r) {
    if (offsets[r + 1] < offsets[r] || offsets[r + 1] > nnz) atomicMin(first, r);
  });
}

// Pass 1, a thread per row of the first `rows`: its own and halo entries, whether it has halo
// entries, and the least entry whose column is outside [0, global_columns) (*first_bad).
__global__ void __launch_bounds__(kSetupBlockSize)
    count_split_rows_kernel(index_t rows, const index_t* __restrict__ offsets,
                            const global_index_t* __restrict__ columns, global_index_t first_column,
                            global_index_t end_column, global_index_t global_columns,
                            index_t* __restrict__ local_lengths, index_t* __restrict__ halo_lengths,
                            index_t* __restrict__ kept,
                            unsigned long long* __restrict__ first_bad) {
  for_each_index(rows, [&](index_t r) {
    index_t own = 0, halo = 0;
    for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      const global_index_t column = columns[k];
      if (column < 0 || column >= global_columns)
        atomicMin(first_bad, static_cast<unsigned long long>(k));
      if (column >= first_column && column < end_column)
        ++own;
      else
        ++halo;
    }
    local_lengths[r] = own;
    halo_lengths[r] = halo;
    kept[r] = halo > 0 ? 1 : 0;
  });
}

// Pass 2, a thread per row: the local entries (and their pattern columns and positions), and
// each halo entry's value, global column and place in the pattern.
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    fill_split_rows_kernel(index_t rows, const index_t* __restrict__ offsets,
                           const global_index_t* __restrict__ columns, const T* __restrict__ values,
                           global_index_t first_column, global_index_t end_column,
                           const index_t* __restrict__ local_offsets,
                           const index_t* __restrict__ halo_starts,
                           index_t* __restrict__ local_columns, T* __restrict__ local_values,
                           index_t* __restrict__ local_positions, T* __restrict__ halo_values,
                           global_index_t* __restrict__ halo_global,
                           index_t* __restrict__ halo_place,
                           index_t* __restrict__ pattern_columns) {
  for_each_index(rows, [&](index_t r) {
    index_t l = local_offsets[r], h = halo_starts[r];
    for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      const global_index_t column = columns[k];
      if (column >= first_column && column < end_column) {
        const auto own = static_cast<index_t>(column - first_column);
        local_columns[l] = own;
        local_values[l] = values[k];
        if (local_positions != nullptr) local_positions[l] = k;
        pattern_columns[k] = own;
        ++l;
      } else {
        halo_global[h] = column;
        halo_place[h] = k;
        halo_values[h] = values[k];
        ++h;
      }
    }
  });
}

// Each halo entry's slot (its column's place in the ascending distinct list) into the halo
// block and, as own_columns + slot, into the pattern.
__global__ void __launch_bounds__(kSetupBlockSize)
    halo_slots_kernel(index_t entries, const global_index_t* __restrict__ halo_global,
                      const index_t* __restrict__ halo_place,
                      const global_index_t* __restrict__ distinct, index_t distinct_count,
                      index_t own_columns, index_t* __restrict__ halo_columns,
                      index_t* __restrict__ pattern_columns) {
  for_each_index(entries, [&](index_t h) {
    const global_index_t column = halo_global[h];
    const index_t low = lower_bound_in(distinct, index_t{0}, distinct_count, column);
    halo_columns[h] = low;
    pattern_columns[halo_place[h]] = own_columns + low;
  });
}

template <class U>
DeviceBuffer<U> uploaded(const U* host, std::size_t count, const std::string& what,
                         cudaStream_t stream) {
  DeviceBuffer<U> buffer(count, what);
  upload_staged(buffer.data(), host, count * sizeof(U), stream);  // core/staged_upload.hpp
  return buffer;
}

}  // namespace

template <class T>
DeviceSplitRows<T> split_rows_on_device(const DistributedCsrArrays<T>& arrays,
                                        const RowPartition& partition, int rank,
                                        bool local_positions, cudaStream_t stream) {
  const index_t n = arrays.rows;
  if (arrays.rows < 0 || arrays.row_offsets == nullptr || arrays.row_offsets[0] != 0 ||
      arrays.row_offsets[n] < 0 ||
      (arrays.row_offsets[n] > 0 && (arrays.columns == nullptr || arrays.values == nullptr)))
    throw BadInput("DistributedCsrArrays: " + std::to_string(arrays.rows) +
                   " rows whose row_offsets, columns or values are not CSR arrays (offsets from "
                   "0 to nnz >= 0, non-null pointers)");
  const global_index_t first_row = partition.first_row(rank);
  if (partition.end_row(rank) - first_row != n)
    throw BadInput("rows [" + std::to_string(first_row) + ", " + std::to_string(first_row + n) +
                   ") are not this process's block [" + std::to_string(first_row) + ", " +
                   std::to_string(partition.end_row(rank)) + ")");
  const global_index_t global_columns = partition.global_rows();
  const global_index_t end_column = partition.end_row(rank);
  const index_t nnz = arrays.row_offsets[n];
  const auto entries = static_cast<std::size_t>(nnz);

  DeviceSplitRows<T> split;
  split.first_row = first_row;
  split.first_column = first_row;
  split.rows = n;
  split.own_columns = n;

  StepTrace trace =
      StepTrace::when_enabled([&] { return "device split (rank " + std::to_string(rank) + ")"; },
                              [stream] { SPK_CUDA_CHECK(cudaStreamSynchronize(stream)); });
  // The caller's rows on the device: the pattern's offsets and values are theirs.
  split.pattern.rows = n;
  split.pattern.row_offsets = uploaded(arrays.row_offsets, static_cast<std::size_t>(n) + 1,
                                       "this process's row offsets", stream);
  split.pattern.values = uploaded(arrays.values, entries, "this process's values", stream);
  DeviceBuffer<global_index_t> columns =
      uploaded(arrays.columns, entries, "this process's global columns", stream);
  trace.lap("offsets, columns and values uploaded");

  // The rows before the first whose offsets decrease are the ones counted (as on the host).
  DeviceBuffer<index_t> first_decreasing(1, "split: first decreasing row");
  SPK_CUDA_CHECK(cudaMemcpyAsync(first_decreasing.data(), &n, sizeof(index_t),
                                 cudaMemcpyHostToDevice, stream));
  if (n > 0) {
    first_decreasing_row_kernel<<<setup_grid(n), kSetupBlockSize, 0, stream>>>(
        n, nnz, split.pattern.row_offsets.data(), first_decreasing.data());
    SPK_CHECK_LAUNCH("first_decreasing_row_kernel");
  }
  const index_t counted = download_array(first_decreasing.data(), 1, stream)[0];

  DeviceBuffer<index_t> local_lengths = zeros(std::int64_t{n} + 1, "split local lengths", stream);
  DeviceBuffer<index_t> halo_lengths = zeros(std::int64_t{n} + 1, "split halo lengths", stream);
  DeviceBuffer<index_t> kept = zeros(std::int64_t{n} + 1, "split halo row flags", stream);
  DeviceBuffer<unsigned long long> first_bad(1, "split: first column out of range");
  const auto no_bad = static_cast<unsigned long long>(arrays.row_offsets[counted]);
  SPK_CUDA_CHECK(
      cudaMemcpyAsync(first_bad.data(), &no_bad, sizeof(no_bad), cudaMemcpyHostToDevice, stream));
  if (counted > 0) {
    count_split_rows_kernel<<<setup_grid(counted), kSetupBlockSize, 0, stream>>>(
        counted, split.pattern.row_offsets.data(), columns.data(), first_row, end_column,
        global_columns, local_lengths.data(), halo_lengths.data(), kept.data(), first_bad.data());
    SPK_CHECK_LAUNCH("count_split_rows_kernel");
  }
  const unsigned long long bad = download_array(first_bad.data(), 1, stream)[0];
  if (bad < no_bad) {
    const auto k = static_cast<index_t>(bad);
    throw_bad_column(first_row, arrays.row_offsets, counted, k, arrays.columns[k], global_columns);
  }
  if (counted < n) throw_decreasing_offsets(first_row, counted);

  // The scans: the blocks' offsets and the kept halo rows' numbers.
  split.local.rows = n;
  split.local.cols = n;
  split.local.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(n) + 1, "local block row offsets");
  exclusive_scan(local_lengths.data(), split.local.row_offsets.data(), n, "split local offsets",
                 stream);
  local_lengths = DeviceBuffer<index_t>();
  split.halo_starts =
      DeviceBuffer<index_t>(static_cast<std::size_t>(n) + 1, "halo block row offsets");
  exclusive_scan(halo_lengths.data(), split.halo_starts.data(), n, "split halo offsets", stream);
  DeviceBuffer<index_t> kept_numbers(static_cast<std::size_t>(n) + 1, "split halo row numbers");
  exclusive_scan(kept.data(), kept_numbers.data(), n, "split halo rows scan", stream);
  kept = DeviceBuffer<index_t>();
  const index_t local_nnz = download_array(split.local.row_offsets.data() + n, 1, stream)[0];
  const index_t halo_nnz = download_array(split.halo_starts.data() + n, 1, stream)[0];
  const index_t kept_count = download_array(kept_numbers.data() + n, 1, stream)[0];

  // Pass 2: the entries.
  split.local.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(local_nnz), "local columns");
  split.local.values = DeviceBuffer<T>(static_cast<std::size_t>(local_nnz), "local values");
  if (local_positions)
    split.local_positions =
        DeviceBuffer<index_t>(static_cast<std::size_t>(local_nnz), "diagonal block positions");
  split.halo.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(halo_nnz), "halo columns");
  split.halo.values = DeviceBuffer<T>(static_cast<std::size_t>(halo_nnz), "halo values");
  split.pattern.columns = DeviceBuffer<index_t>(entries, "pattern columns");
  DeviceBuffer<global_index_t> halo_global(static_cast<std::size_t>(halo_nnz),
                                           "halo global columns");
  DeviceBuffer<index_t> halo_place(static_cast<std::size_t>(halo_nnz), "halo entries' places");
  if (n > 0) {
    fill_split_rows_kernel<T><<<setup_grid(n), kSetupBlockSize, 0, stream>>>(
        n, split.pattern.row_offsets.data(), columns.data(), split.pattern.values.data(), first_row,
        end_column, split.local.row_offsets.data(), split.halo_starts.data(),
        split.local.columns.data(), split.local.values.data(),
        local_positions ? split.local_positions.data() : nullptr, split.halo.values.data(),
        halo_global.data(), halo_place.data(), split.pattern.columns.data());
    SPK_CHECK_LAUNCH("fill_split_rows_kernel");
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  columns = DeviceBuffer<global_index_t>();  // the 64-bit columns: read by pass 2 only

  // The distinct halo columns, ascending (to the host), and each halo entry's slot.
  index_t distinct_count = 0;
  if (halo_nnz > 0) {
    DeviceBuffer<global_index_t> sorted(static_cast<std::size_t>(halo_nnz), "halo columns sorted");
    run_cub("halo columns sort", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(scratch, bytes, halo_global.data(), sorted.data(),
                                            halo_nnz, 0, 64, stream);
    });
    DeviceBuffer<global_index_t> distinct(static_cast<std::size_t>(halo_nnz), "halo columns");
    DeviceBuffer<index_t> count(1, "halo column count");
    run_cub("halo columns unique", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceSelect::Unique(scratch, bytes, sorted.data(), distinct.data(), count.data(),
                                       halo_nnz, stream);
    });
    distinct_count = download_array(count.data(), 1, stream)[0];
    check_index_range(std::int64_t{n} + distinct_count,
                      "own columns + halo columns of one process");
    split.halo_columns =
        download_array(distinct.data(), static_cast<std::size_t>(distinct_count), stream);
    halo_slots_kernel<<<setup_grid(halo_nnz), kSetupBlockSize, 0, stream>>>(
        halo_nnz, halo_global.data(), halo_place.data(), distinct.data(), distinct_count, n,
        split.halo.columns.data(), split.pattern.columns.data());
    SPK_CHECK_LAUNCH("halo_slots_kernel");
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `distinct` is freed
  }
  split.pattern.cols = n + distinct_count;

  // The halo block over its non-empty rows.
  split.halo.rows = kept_count;
  split.halo.cols = distinct_count;
  split.halo_rows = DeviceBuffer<index_t>(static_cast<std::size_t>(kept_count), "halo block rows");
  split.halo.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(kept_count) + 1, "halo row offsets");
  compact_halo_rows_kernel<<<setup_grid(std::max<index_t>(n, 1)), kSetupBlockSize, 0, stream>>>(
      n, halo_lengths.data(), split.halo_starts.data(), kept_numbers.data(), kept_count, halo_nnz,
      split.halo_rows.data(), split.halo.row_offsets.data());
  SPK_CHECK_LAUNCH("compact_halo_rows_kernel");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the scratch arrays are freed
  trace.lap("split");
  return split;
}

template <class T>
SplitRows<T> split_shape(const DeviceSplitRows<T>& rows, const RowPartition& partition) {
  SplitRows<T> shape;
  shape.first_row = rows.first_row;
  shape.first_column = rows.first_column;
  const auto slots = static_cast<index_t>(rows.halo_columns.size());
  shape.local.rows = rows.rows;
  shape.local.cols = rows.own_columns;
  shape.halo.rows = rows.rows;
  shape.halo.cols = slots;
  shape.pattern.rows = rows.rows;
  shape.pattern.cols = rows.own_columns + slots;
  shape.halo_columns = rows.halo_columns;
  shape.sources = halo_sources(rows.halo_columns, partition);
  shape.local_entries = rows.local_entries();
  shape.halo_entries = rows.halo_entries();
  return shape;
}

template SplitRows<float> split_shape(const DeviceSplitRows<float>&, const RowPartition&);
template SplitRows<double> split_shape(const DeviceSplitRows<double>&, const RowPartition&);
template DeviceSplitRows<float> split_rows_on_device(const DistributedCsrArrays<float>&,
                                                     const RowPartition&, int, bool, cudaStream_t);
template DeviceSplitRows<double> split_rows_on_device(const DistributedCsrArrays<double>&,
                                                      const RowPartition&, int, bool, cudaStream_t);

}  // namespace spk
