#include <algorithm>

#include "distributed/device_grid_rows.hpp"
#include "distributed/device_split_kernels.cuh"
#include "distributed/grid_rows_geometry.hpp"

namespace spk {

namespace {

// Pass 1, a thread per row: its own and halo entries (local_lengths, halo_lengths), whether it
// has halo entries (kept), and a flag on the window position of each halo column.
__global__ void __launch_bounds__(kSetupBlockSize)
    count_grid_rows_kernel(GridRowsGeometry g, index_t rows, index_t* __restrict__ local_lengths,
                           index_t* __restrict__ halo_lengths, index_t* __restrict__ kept,
                           index_t* __restrict__ flags) {
  for_each_index(rows, [&](index_t r) {
    index_t own = 0, halo = 0;
    for_each_grid_entry(g, g.first + r, [&](std::int64_t column, int) {
      if (g.own(column)) {
        ++own;
      } else {
        ++halo;
        flags[g.window_position(column)] = 1;  // racing writers all write 1
      }
    });
    local_lengths[r] = own;
    halo_lengths[r] = halo;
    kept[r] = halo > 0 ? 1 : 0;
  });
}

// The four totals the scans end with, in one array (one read-back).
__global__ void gather_totals_kernel(index_t rows, std::int64_t window,
                                     const index_t* __restrict__ local_offsets,
                                     const index_t* __restrict__ halo_starts,
                                     const index_t* __restrict__ kept_numbers,
                                     const index_t* __restrict__ slots,
                                     index_t* __restrict__ totals) {
  totals[0] = local_offsets[rows];  // local entries
  totals[1] = halo_starts[rows];    // halo entries
  totals[2] = kept_numbers[rows];   // rows with halo entries
  totals[3] = slots[window];        // halo columns
}

// The halo columns: the flagged window positions, in order.
__global__ void __launch_bounds__(kSetupBlockSize)
    halo_column_list_kernel(GridRowsGeometry g, const index_t* __restrict__ flags,
                            const index_t* __restrict__ slots,
                            std::int64_t* __restrict__ halo_columns) {
  for_each_index(g.window(), [&](std::int64_t w) {
    if (flags[w] != 0) halo_columns[slots[w]] = g.window_column(w);
  });
}

// Pass 2, a thread per row: its entries into the local and halo blocks (and the pattern), and
// its entry of b.
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    fill_grid_rows_kernel(GridRowsGeometry g, index_t rows, const double* __restrict__ blocks,
                          const index_t* __restrict__ local_offsets,
                          const index_t* __restrict__ halo_starts,
                          const index_t* __restrict__ slots, index_t* __restrict__ local_columns,
                          T* __restrict__ local_values, index_t* __restrict__ halo_columns,
                          T* __restrict__ halo_values, index_t* __restrict__ pattern_offsets,
                          index_t* __restrict__ pattern_columns, T* __restrict__ pattern_values,
                          index_t* __restrict__ local_positions, DeviceRhs rhs_kind,
                          T* __restrict__ rhs) {
  for_each_index(rows, [&](index_t r) {
    index_t l = local_offsets[r], h = halo_starts[r];
    index_t p = l + h;  // the pattern keeps both, in storage order
    if (pattern_offsets != nullptr) {
      pattern_offsets[r] = p;
      if (r == rows - 1) pattern_offsets[rows] = local_offsets[rows] + halo_starts[rows];
    }
    double sum = 0.0;
    for_each_grid_entry(g, g.first + r, [&](std::int64_t column, int slot) {
      const double value = blocks[slot];
      sum += value;
      index_t stored_column;
      if (g.own(column)) {
        stored_column = static_cast<index_t>(column - g.first);
        if (local_positions != nullptr) local_positions[l] = p;
        local_columns[l] = stored_column;
        local_values[l++] = static_cast<T>(value);
      } else {
        const index_t halo_slot = slots[g.window_position(column)];
        stored_column = rows + halo_slot;
        halo_columns[h] = halo_slot;
        halo_values[h++] = static_cast<T>(value);
      }
      if (pattern_columns != nullptr) {
        pattern_columns[p] = stored_column;
        pattern_values[p++] = static_cast<T>(value);
      }
    });
    if (rhs_kind == DeviceRhs::ones) rhs[r] = T(1);
    if (rhs_kind == DeviceRhs::row_sums) rhs[r] = static_cast<T>(sum);  // (A 1)_r
  });
}

}  // namespace

template <class T>
DeviceGridRows<T> generate_device_grid_rows(const GridStencil& stencil, int n,
                                            global_index_t first_row, global_index_t end_row,
                                            const DeviceGridRowsRequest& request,
                                            const std::string& name, cudaStream_t stream) {
  // Everything checked before anything is allocated.
  const GridRowsGeometry g = grid_rows_geometry(stencil, n, first_row, end_row);
  check_grid_block(stencil, n, first_row, end_row, name);
  check_index_range(g.window(), name + ": halo window of one block");
  const std::vector<double> host_blocks = grid_point_blocks(stencil);

  DeviceGridRows<T> result;
  result.global_rows = g.global_rows;
  result.first_row = first_row;
  const auto rows = static_cast<index_t>(end_row - first_row);
  result.rows = rows;
  const std::int64_t window = g.window();

  // Pass 1 and the scans. The length arrays hold a 0 past the last row (their scans' totals).
  const DeviceBuffer<double> blocks(host_blocks, name + ": stencil blocks");
  DeviceBuffer<index_t> local_lengths = zeros(std::int64_t{rows} + 1, "grid local lengths", stream);
  DeviceBuffer<index_t> halo_lengths = zeros(std::int64_t{rows} + 1, "grid halo lengths", stream);
  DeviceBuffer<index_t> kept = zeros(std::int64_t{rows} + 1, "grid halo row flags", stream);
  DeviceBuffer<index_t> flags = zeros(window + 1, "grid halo window flags", stream);
  if (rows > 0) {
    count_grid_rows_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
        g, rows, local_lengths.data(), halo_lengths.data(), kept.data(), flags.data());
    SPK_CHECK_LAUNCH("count_grid_rows_kernel");
  }
  result.local.rows = result.local.cols = rows;
  result.local.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, name + ": local row offsets");
  exclusive_scan(local_lengths.data(), result.local.row_offsets.data(), rows,
                 "grid local offsets scan", stream);
  local_lengths = DeviceBuffer<index_t>();
  result.halo_starts =
      DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, name + ": halo row starts");
  DeviceBuffer<index_t>& halo_starts = result.halo_starts;
  exclusive_scan(halo_lengths.data(), halo_starts.data(), rows, "grid halo starts scan", stream);
  DeviceBuffer<index_t> kept_numbers(static_cast<std::size_t>(rows) + 1, "grid halo row numbers");
  exclusive_scan(kept.data(), kept_numbers.data(), rows, "grid halo rows scan", stream);
  kept = DeviceBuffer<index_t>();
  DeviceBuffer<index_t> slots(static_cast<std::size_t>(window) + 1, "grid halo slots");
  exclusive_scan(flags.data(), slots.data(), window, "grid halo slots scan", stream);

  DeviceBuffer<index_t> totals(4, "grid block totals");
  gather_totals_kernel<<<1, 1, 0, stream>>>(rows, window, result.local.row_offsets.data(),
                                            halo_starts.data(), kept_numbers.data(), slots.data(),
                                            totals.data());
  SPK_CHECK_LAUNCH("gather_totals_kernel");
  const std::vector<index_t> sizes = download_array(totals.data(), 4, stream);
  const index_t local_nnz = sizes[0], halo_nnz = sizes[1], kept_count = sizes[2],
                halo_size = sizes[3];
  check_index_range(std::int64_t{rows} + halo_size, name + ": own columns + halo columns");

  // The halo block's rows and offsets, and its columns' global ids (to the host).
  result.halo.rows = kept_count;
  result.halo.cols = halo_size;
  result.halo_rows =
      DeviceBuffer<index_t>(static_cast<std::size_t>(kept_count), name + ": halo block rows");
  result.halo.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(kept_count) + 1, name + ": halo row offsets");
  compact_halo_rows_kernel<<<setup_grid(std::max<index_t>(rows, 1)), kSetupBlockSize, 0, stream>>>(
      rows, halo_lengths.data(), halo_starts.data(), kept_numbers.data(), kept_count, halo_nnz,
      result.halo_rows.data(), result.halo.row_offsets.data());
  SPK_CHECK_LAUNCH("compact_halo_rows_kernel");
  if (halo_size > 0) {
    DeviceBuffer<std::int64_t> columns(static_cast<std::size_t>(halo_size), "grid halo columns");
    halo_column_list_kernel<<<setup_grid(window), kSetupBlockSize, 0, stream>>>(
        g, flags.data(), slots.data(), columns.data());
    SPK_CHECK_LAUNCH("halo_column_list_kernel");
    const std::vector<std::int64_t> listed =
        download_array(columns.data(), static_cast<std::size_t>(halo_size), stream);
    result.halo_columns.assign(listed.begin(), listed.end());
  }
  // The scratch no later kernel reads, freed once the stream is past its readers (before the
  // entries are allocated: the build's peak is then the result and 3 scratch arrays).
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  halo_lengths = DeviceBuffer<index_t>();
  kept_numbers = DeviceBuffer<index_t>();
  flags = DeviceBuffer<index_t>();

  // Pass 2: the entries.
  result.local.columns =
      DeviceBuffer<index_t>(static_cast<std::size_t>(local_nnz), name + ": local columns");
  result.local.values =
      DeviceBuffer<T>(static_cast<std::size_t>(local_nnz), name + ": local values");
  result.halo.columns =
      DeviceBuffer<index_t>(static_cast<std::size_t>(halo_nnz), name + ": halo columns");
  result.halo.values = DeviceBuffer<T>(static_cast<std::size_t>(halo_nnz), name + ": halo values");
  if (request.pattern) {
    const auto entries = static_cast<std::size_t>(local_nnz) + static_cast<std::size_t>(halo_nnz);
    result.pattern.rows = rows;
    result.pattern.cols = rows + halo_size;
    result.pattern.row_offsets =
        DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, name + ": pattern row offsets");
    result.pattern.columns = DeviceBuffer<index_t>(entries, name + ": pattern columns");
    result.pattern.values = DeviceBuffer<T>(entries, name + ": pattern values");
    if (rows == 0)
      SPK_CUDA_CHECK(
          cudaMemsetAsync(result.pattern.row_offsets.data(), 0, sizeof(index_t), stream));
    if (request.local_positions)
      result.local_positions = DeviceBuffer<index_t>(static_cast<std::size_t>(local_nnz),
                                                     name + ": local entries' pattern positions");
  }
  if (request.rhs != DeviceRhs::none)
    result.rhs = DeviceBuffer<T>(static_cast<std::size_t>(rows), name + ": right-hand side");
  if (rows > 0) {
    fill_grid_rows_kernel<T><<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
        g, rows, blocks.data(), result.local.row_offsets.data(), halo_starts.data(), slots.data(),
        result.local.columns.data(), result.local.values.data(), result.halo.columns.data(),
        result.halo.values.data(), request.pattern ? result.pattern.row_offsets.data() : nullptr,
        request.pattern ? result.pattern.columns.data() : nullptr,
        request.pattern ? result.pattern.values.data() : nullptr,
        request.pattern && request.local_positions ? result.local_positions.data() : nullptr,
        request.rhs, result.rhs.data());
    SPK_CHECK_LAUNCH("fill_grid_rows_kernel");
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the scratch arrays are freed
  return result;
}

template <class T>
DeviceSplitRows<T> split_rows_of(DeviceGridRows<T>& rows) {
  DeviceSplitRows<T> split;
  split.first_row = split.first_column = rows.first_row;
  split.rows = split.own_columns = rows.rows;
  split.local = std::move(rows.local);
  split.halo = std::move(rows.halo);
  split.halo_rows = std::move(rows.halo_rows);
  split.halo_starts = std::move(rows.halo_starts);
  split.pattern = std::move(rows.pattern);
  split.local_positions = std::move(rows.local_positions);
  split.halo_columns = std::move(rows.halo_columns);
  return split;
}

template DeviceSplitRows<float> split_rows_of(DeviceGridRows<float>&);
template DeviceSplitRows<double> split_rows_of(DeviceGridRows<double>&);
template DeviceGridRows<float> generate_device_grid_rows(const GridStencil&, int, global_index_t,
                                                         global_index_t,
                                                         const DeviceGridRowsRequest&,
                                                         const std::string&, cudaStream_t);
template DeviceGridRows<double> generate_device_grid_rows(const GridStencil&, int, global_index_t,
                                                          global_index_t,
                                                          const DeviceGridRowsRequest&,
                                                          const std::string&, cudaStream_t);

}  // namespace spk
