#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <iterator>
#include <string>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/device_row_exchange.hpp"
#include "distributed/amg/device_row_kernels.cuh"
#include "distributed/device_alltoallv.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

namespace {

// Row rows[r] of a whole form copied to row r of the answer, its columns global.
__global__ void __launch_bounds__(kSetupBlockSize) gather_global_rows_kernel(
    index_t count, const index_t* __restrict__ rows, const index_t* __restrict__ row_offsets,
    const index_t* __restrict__ columns, const double* __restrict__ values,
    const index_t* __restrict__ out_offsets, global_index_t first_column, index_t own_columns,
    const global_index_t* __restrict__ halo, global_index_t* __restrict__ out_columns,
    double* __restrict__ out_values) {
  for_each_index(count, [&](index_t r) {
    const index_t begin = row_offsets[rows[r]], end = row_offsets[rows[r] + 1];
    index_t to = out_offsets[r];
    for (index_t k = begin; k < end; ++k, ++to) {
      const index_t c = columns[k];
      out_columns[to] = c < own_columns ? first_column + c : halo[c - own_columns];
      out_values[to] = values[k];
    }
  });
}

// Rows in the order they were asked of their owners to the order wanted: request k is row
// order[k] of the result.
__global__ void __launch_bounds__(kSetupBlockSize)
    lengths_to_order_kernel(index_t count, const index_t* __restrict__ order,
                            const index_t* __restrict__ offsets, index_t* __restrict__ lengths) {
  for_each_index(count, [&](index_t k) { lengths[order[k]] = offsets[k + 1] - offsets[k]; });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    rows_to_order_kernel(index_t count, const index_t* __restrict__ order,
                         const index_t* __restrict__ from_offsets,
                         const global_index_t* __restrict__ from_columns,
                         const double* __restrict__ from_values,
                         const index_t* __restrict__ to_offsets,
                         global_index_t* __restrict__ to_columns, double* __restrict__ to_values) {
  for_each_index(count, [&](index_t k) {
    index_t to = to_offsets[order[k]];
    for (index_t e = from_offsets[k]; e < from_offsets[k + 1]; ++e, ++to) {
      to_columns[to] = from_columns[e];
      to_values[to] = from_values[e];
    }
  });
}

// length[r] = the entries of row first + r
__global__ void __launch_bounds__(kSetupBlockSize)
    range_lengths_kernel(index_t count, index_t first, const index_t* __restrict__ row_offsets,
                         index_t* __restrict__ length) {
  for_each_index(
      count, [&](index_t r) { length[r] = row_offsets[first + r + 1] - row_offsets[first + r]; });
}

// Entries [begin, begin + count) with global columns: own c -> first_column + c, else
// column_ids[c - own_columns].
__global__ void __launch_bounds__(kSetupBlockSize)
    global_columns_kernel(index_t count, const index_t* __restrict__ columns,
                          global_index_t first_column, index_t own_columns,
                          const global_index_t* __restrict__ column_ids,
                          global_index_t* __restrict__ out) {
  for_each_index(count, [&](index_t k) {
    const index_t c = columns[k];
    out[k] = c < own_columns ? first_column + c : column_ids[c - own_columns];
  });
}

struct OutsideRange {
  global_index_t begin, end;
  __device__ bool operator()(global_index_t c) const { return c < begin || c >= end; }
};

// Each entry's local column in the whole form; `missing` set where a column is in neither
// the own range nor the halo.
__global__ void __launch_bounds__(kSetupBlockSize)
    local_columns_kernel(index_t nnz, const global_index_t* __restrict__ columns,
                         global_index_t first_column, index_t own_columns,
                         const global_index_t* __restrict__ halo, index_t halo_size,
                         index_t* __restrict__ local, int* __restrict__ missing) {
  for_each_index(nnz, [&](index_t k) {
    const global_index_t c = columns[k];
    if (c >= first_column && c < first_column + own_columns) {
      local[k] = static_cast<index_t>(c - first_column);
      return;
    }
    const index_t slot = lower_bound_in(halo, index_t{0}, halo_size, c);
    if (slot < halo_size && halo[slot] == c) {
      local[k] = own_columns + slot;
    } else {
      local[k] = 0;
      *missing = 1;
    }
  });
}

// repeated = 1 when a sorted row holds a column twice
__global__ void __launch_bounds__(kSetupBlockSize)
    repeated_column_kernel(index_t rows, const index_t* __restrict__ offsets,
                           const index_t* __restrict__ columns, int* __restrict__ repeated) {
  for_each_index(rows, [&](index_t r) {
    for (index_t k = offsets[r] + 1; k < offsets[r + 1]; ++k)
      if (columns[k] == columns[k - 1]) *repeated = 1;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    gather_values_kernel(index_t nnz, const index_t* __restrict__ order,
                         const double* __restrict__ from, double* __restrict__ to) {
  for_each_index(nnz, [&](index_t k) { to[k] = from[order[k]]; });
}

// An exclusive scan of count + 1 entries into `offsets` (the last input is 0: its output is
// the total), returned.
std::int64_t scanned(const index_t* lengths, index_t* offsets, index_t count, const char* what,
                     cudaStream_t stream) {
  DeviceBuffer<std::int64_t> wide(static_cast<std::size_t>(count) + 1, what);
  run_cub(what, stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, lengths, wide.data(), count + 1, stream);
  });
  const std::int64_t total = download_array(wide.data() + count, 1, stream)[0];
  check_index_range(total, what);
  run_cub(what, stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, lengths, offsets, count + 1, stream);
  });
  return total;
}

// offsets[first[q + 1]] - offsets[first[q]] for each group q of consecutive rows (host copies
// of the few boundary offsets).
std::vector<std::int64_t> group_entries(const index_t* offsets,
                                        const std::vector<std::int64_t>& row_counts,
                                        cudaStream_t stream) {
  std::vector<index_t> at(row_counts.size() + 1, 0);
  std::int64_t row = 0;
  for (std::size_t q = 0; q <= row_counts.size(); ++q) {
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(&at[q], offsets + row, sizeof(index_t), cudaMemcpyDeviceToHost, stream));
    if (q < row_counts.size()) row += row_counts[q];
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::int64_t> entries(row_counts.size());
  for (std::size_t q = 0; q < row_counts.size(); ++q) entries[q] = at[q + 1] - at[q];
  return entries;
}

DeviceBuffer<index_t> zeroed_lengths(std::size_t count, const char* what, cudaStream_t stream) {
  DeviceBuffer<index_t> lengths(count + 1, what);
  SPK_CUDA_CHECK(cudaMemsetAsync(lengths.data(), 0, lengths.bytes(), stream));
  return lengths;
}

// Entries (global columns and values) moved by device_alltoallv into new arrays of
// `received` entries.
void move_entries(MPI_Comm comm, const NcclCommunicator* nccl, const global_index_t* columns,
                  const double* values, const std::vector<std::int64_t>& send_entries,
                  std::int64_t received, const std::vector<std::int64_t>& receive_entries,
                  DeviceBuffer<global_index_t>& received_columns,
                  DeviceBuffer<double>& received_values, cudaStream_t stream) {
  received_columns =
      DeviceBuffer<global_index_t>(static_cast<std::size_t>(received), "received rows' columns");
  received_values =
      DeviceBuffer<double>(static_cast<std::size_t>(received), "received rows' values");
  device_alltoallv(comm, nccl, columns, send_entries, received_columns.data(), receive_entries,
                   stream);
  device_alltoallv(comm, nccl, values, send_entries, received_values.data(), receive_entries,
                   stream);
}

}  // namespace

DeviceGlobalRows fetch_rows_on_device(FaultWatch& watch, const NcclCommunicator* nccl,
                                      const DeviceDistributedLevel& level,
                                      const std::vector<global_index_t>& wanted,
                                      cudaStream_t stream) {
  const MPI_Comm comm = watch.comm();
  const int processes = watch.processes();
  const RowPartition& partition = level.row_partition;
  const auto count = static_cast<std::size_t>(wanted.size());
  // 1. The rows asked of each owner (local row numbers), grouped by owner in rank order, each
  // group in the order wanted: request k is wanted row order[k].
  std::vector<std::int64_t> ask_counts(static_cast<std::size_t>(processes), 0);
  std::vector<index_t> request(count), order(count);
  bool grouped = true;
  on_every_process(watch, [&] {
    check_index_range(static_cast<std::int64_t>(count), "rows fetched by one process");
    std::vector<int> owner(count);
    for (std::size_t r = 0; r < count; ++r) {
      if (wanted[r] < 0 || wanted[r] >= partition.global_rows())
        throw BadInput("amg setup: row " + std::to_string(wanted[r]) + " fetched from a level of " +
                       std::to_string(partition.global_rows()) + " rows");
      owner[r] = partition.owner(wanted[r]);
      ++ask_counts[static_cast<std::size_t>(owner[r])];
    }
    std::vector<std::int64_t> next(static_cast<std::size_t>(processes) + 1, 0);
    for (int q = 0; q < processes; ++q)
      next[static_cast<std::size_t>(q) + 1] = next[static_cast<std::size_t>(q)] + ask_counts[q];
    for (std::size_t r = 0; r < count; ++r) {
      const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(owner[r])]++);
      request[k] = static_cast<index_t>(wanted[r] - partition.first_row(owner[r]));
      order[k] = static_cast<index_t>(r);
      grouped = grouped && k == r;
    }
  });
  // 2. The counts, then the row numbers, to the owners.
  std::vector<std::int64_t> asked_counts(static_cast<std::size_t>(processes), 0);
  SPK_MPI_CHECK(
      MPI_Alltoall(ask_counts.data(), 1, MPI_INT64_T, asked_counts.data(), 1, MPI_INT64_T, comm));
  std::int64_t asked_total = 0;
  for (const std::int64_t c : asked_counts) asked_total += c;
  on_every_process(watch, [&] { check_index_range(asked_total, "rows asked of one process"); });
  const auto asked_rows = static_cast<index_t>(asked_total);
  const DeviceBuffer<index_t> request_on_device(request, "rows asked of their owners");
  DeviceBuffer<index_t> asked(static_cast<std::size_t>(asked_rows), "rows asked of this process");
  device_alltoallv(comm, nccl, request_on_device.data(), ask_counts, asked.data(), asked_counts,
                   stream);

  // 3. The owners' answer: the asked rows' lengths back first, then their entries.
  DeviceBuffer<index_t> asked_lengths = zeroed_lengths(asked.size(), "asked row lengths", stream);
  if (asked_rows > 0) {
    row_lengths_kernel<<<setup_grid(asked_rows), kSetupBlockSize, 0, stream>>>(
        asked_rows, asked.data(), level.whole().row_offsets.data(), asked_lengths.data());
    SPK_CHECK_LAUNCH("row_lengths_kernel");
  }
  DeviceBuffer<index_t> lengths = zeroed_lengths(count, "fetched row lengths", stream);
  device_alltoallv(comm, nccl, asked_lengths.data(), asked_counts, lengths.data(), ask_counts,
                   stream);
  DeviceBuffer<index_t> asked_offsets(asked.size() + 1, "asked row offsets");
  DeviceGlobalRows fetched;
  fetched.rows = static_cast<index_t>(count);
  fetched.row_offsets = DeviceBuffer<index_t>(count + 1, "fetched row offsets");
  std::int64_t answer_entries = 0, fetched_entries = 0;
  on_every_process(watch, [&] {
    answer_entries = scanned(asked_lengths.data(), asked_offsets.data(), asked_rows,
                             "entries of the rows asked of one process", stream);
    fetched_entries = scanned(lengths.data(), fetched.row_offsets.data(), fetched.rows,
                              "entries of the rows fetched by one process", stream);
  });
  asked_lengths = DeviceBuffer<index_t>();
  const std::vector<std::int64_t> send_entries =
      group_entries(asked_offsets.data(), asked_counts, stream);
  const std::vector<std::int64_t> receive_entries =
      group_entries(fetched.row_offsets.data(), ask_counts, stream);
  {
    DeviceBuffer<global_index_t> answer_columns(static_cast<std::size_t>(answer_entries),
                                                "asked rows' global columns");
    DeviceBuffer<double> answer_values(static_cast<std::size_t>(answer_entries),
                                       "asked rows' values");
    if (asked_rows > 0) {
      const DeviceBuffer<global_index_t> halo(level.halo_columns, "level's halo columns");
      const DeviceCsrMatrix<double>& m = level.whole();
      gather_global_rows_kernel<<<setup_grid(asked_rows), kSetupBlockSize, 0, stream>>>(
          asked_rows, asked.data(), m.row_offsets.data(), m.columns.data(), m.values.data(),
          asked_offsets.data(), level.first_column, level.cols, halo.data(), answer_columns.data(),
          answer_values.data());
      SPK_CHECK_LAUNCH("gather_global_rows_kernel");
      SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // `halo` is freed on leaving
    }
    move_entries(comm, nccl, answer_columns.data(), answer_values.data(), send_entries,
                 fetched_entries, receive_entries, fetched.columns, fetched.values, stream);
  }
  if (grouped || count == 0) return fetched;  // (local: whether this process reorders)

  // 4. The rows in the order wanted (they came grouped by owner).
  const DeviceBuffer<index_t> order_on_device(order, "fetched rows' order");
  DeviceBuffer<index_t> wanted_lengths = zeroed_lengths(count, "fetched row lengths", stream);
  lengths_to_order_kernel<<<setup_grid(fetched.rows), kSetupBlockSize, 0, stream>>>(
      fetched.rows, order_on_device.data(), fetched.row_offsets.data(), wanted_lengths.data());
  SPK_CHECK_LAUNCH("lengths_to_order_kernel");
  DeviceGlobalRows ordered;
  ordered.rows = fetched.rows;
  ordered.row_offsets = DeviceBuffer<index_t>(count + 1, "fetched row offsets");
  scanned(wanted_lengths.data(), ordered.row_offsets.data(), ordered.rows,
          "entries of the rows fetched by one process", stream);
  ordered.columns = DeviceBuffer<global_index_t>(fetched.columns.size(), "fetched columns");
  ordered.values = DeviceBuffer<double>(fetched.values.size(), "fetched values");
  rows_to_order_kernel<<<setup_grid(fetched.rows), kSetupBlockSize, 0, stream>>>(
      fetched.rows, order_on_device.data(), fetched.row_offsets.data(), fetched.columns.data(),
      fetched.values.data(), ordered.row_offsets.data(), ordered.columns.data(),
      ordered.values.data());
  SPK_CHECK_LAUNCH("rows_to_order_kernel");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the request-order arrays are freed on return
  return ordered;
}

DeviceRowPieces send_rows_to_owners_on_device(FaultWatch& watch, const NcclCommunicator* nccl,
                                              const DeviceCsrMatrix<double>& product, index_t first,
                                              const std::vector<global_index_t>& ids,
                                              const RowPartition& owners,
                                              global_index_t first_column, index_t own_columns,
                                              const std::vector<global_index_t>& column_ids,
                                              cudaStream_t stream) {
  const MPI_Comm comm = watch.comm();
  const int processes = watch.processes();
  const index_t sent = product.rows - first;
  // 1. The rows each owner receives (ascending ids: grouped by owner), as its row numbers.
  std::vector<std::int64_t> send_rows(static_cast<std::size_t>(processes), 0);
  std::vector<index_t> local(ids.size());
  on_every_process(watch, [&] {
    if (first < 0 || static_cast<std::size_t>(sent) != ids.size())
      throw Error("amg setup: sending rows [" + std::to_string(first) + ", " +
                  std::to_string(product.rows) + ") named by " + std::to_string(ids.size()) +
                  " ids (internal error)");
    for (std::size_t r = 0; r < ids.size(); ++r) {
      if (ids[r] < 0 || ids[r] >= owners.global_rows() || (r > 0 && ids[r] <= ids[r - 1]))
        throw Error("amg setup: rows sent to their owners must have ascending ids in [0, " +
                    std::to_string(owners.global_rows()) + ") (internal error)");
      const int owner = owners.owner(ids[r]);
      ++send_rows[static_cast<std::size_t>(owner)];
      local[r] = static_cast<index_t>(ids[r] - owners.first_row(owner));
    }
  });
  std::vector<std::int64_t> receive_rows(static_cast<std::size_t>(processes), 0);
  SPK_MPI_CHECK(
      MPI_Alltoall(send_rows.data(), 1, MPI_INT64_T, receive_rows.data(), 1, MPI_INT64_T, comm));
  std::int64_t received_total = 0;
  for (const std::int64_t c : receive_rows) received_total += c;
  on_every_process(
      watch, [&] { check_index_range(received_total, "row pieces received by one process"); });
  DeviceRowPieces pieces;
  pieces.pieces = static_cast<index_t>(received_total);
  pieces.rows =
      DeviceBuffer<index_t>(static_cast<std::size_t>(pieces.pieces), "received pieces' rows");
  {
    const DeviceBuffer<index_t> local_on_device(local, "sent rows' numbers at their owners");
    device_alltoallv(comm, nccl, local_on_device.data(), send_rows, pieces.rows.data(),
                     receive_rows, stream);
  }
  // 2. Their lengths, then their entries with global columns.
  DeviceBuffer<index_t> lengths =
      zeroed_lengths(static_cast<std::size_t>(sent), "sent row lengths", stream);
  if (sent > 0) {
    range_lengths_kernel<<<setup_grid(sent), kSetupBlockSize, 0, stream>>>(
        sent, first, product.row_offsets.data(), lengths.data());
    SPK_CHECK_LAUNCH("range_lengths_kernel");
  }
  DeviceBuffer<index_t> received_lengths =
      zeroed_lengths(static_cast<std::size_t>(pieces.pieces), "received piece lengths", stream);
  device_alltoallv(comm, nccl, lengths.data(), send_rows, received_lengths.data(), receive_rows,
                   stream);
  pieces.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(pieces.pieces) + 1, "received piece offsets");
  std::int64_t received_entries = 0;
  on_every_process(watch, [&] {
    received_entries = scanned(received_lengths.data(), pieces.row_offsets.data(), pieces.pieces,
                               "entries of the row pieces received by one process", stream);
  });
  const std::vector<std::int64_t> send_entries =
      group_entries(product.row_offsets.data() + first, send_rows, stream);
  const std::vector<std::int64_t> receive_entries =
      group_entries(pieces.row_offsets.data(), receive_rows, stream);
  const index_t begin = download_array(product.row_offsets.data() + first, 1, stream)[0];
  const index_t count = product.nnz() - begin;
  DeviceBuffer<global_index_t> global(static_cast<std::size_t>(count), "sent rows' global columns");
  if (count > 0) {
    const DeviceBuffer<global_index_t> ids_on_device(column_ids, "sent rows' column ids");
    global_columns_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
        count, product.columns.data() + begin, first_column, own_columns, ids_on_device.data(),
        global.data());
    SPK_CHECK_LAUNCH("global_columns_kernel");
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // `ids_on_device` is freed on leaving
  }
  move_entries(comm, nccl, global.data(), product.values.data() + begin, send_entries,
               received_entries, receive_entries, pieces.columns, pieces.values, stream);
  return pieces;
}

std::vector<global_index_t> distinct_outside_on_device(const DeviceBuffer<global_index_t>& columns,
                                                       global_index_t own_begin,
                                                       global_index_t own_end,
                                                       const std::vector<global_index_t>& more,
                                                       cudaStream_t stream) {
  const auto nnz = static_cast<index_t>(columns.size());
  std::vector<global_index_t> found;
  if (nnz > 0) {
    DeviceBuffer<global_index_t> outside(columns.size(), "columns outside the own range");
    DeviceBuffer<index_t> selected(1, "columns outside the own range (count)");
    run_cub("columns outside the own range", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceSelect::If(scratch, bytes, columns.data(), outside.data(), selected.data(),
                                   nnz, OutsideRange{own_begin, own_end}, stream);
    });
    const index_t n = download_array(selected.data(), 1, stream)[0];
    if (n > 0) {
      DeviceBuffer<global_index_t> sorted(static_cast<std::size_t>(n), "outside columns sorted");
      run_cub("outside columns sort", stream, [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(scratch, bytes, outside.data(), sorted.data(), n, 0,
                                              64, stream);
      });
      run_cub("outside columns unique", stream, [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceSelect::Unique(scratch, bytes, sorted.data(), outside.data(),
                                         selected.data(), n, stream);
      });
      const index_t distinct = download_array(selected.data(), 1, stream)[0];
      found = download_array(outside.data(), static_cast<std::size_t>(distinct), stream);
    }
  }
  std::vector<global_index_t> others;  // of `more`, those outside
  std::copy_if(more.begin(), more.end(), std::back_inserter(others),
               [&](global_index_t c) { return c < own_begin || c >= own_end; });
  if (others.empty()) return found;
  std::vector<global_index_t> both;
  both.reserve(found.size() + others.size());
  std::set_union(found.begin(), found.end(), others.begin(), others.end(),
                 std::back_inserter(both));
  return both;
}

DeviceBuffer<index_t> whole_form_columns_on_device(const DeviceBuffer<global_index_t>& columns,
                                                   global_index_t first_column, index_t own_columns,
                                                   const std::vector<global_index_t>& halo_columns,
                                                   cudaStream_t stream) {
  const auto nnz = static_cast<index_t>(columns.size());
  DeviceBuffer<index_t> local(columns.size(), "whole-form columns");
  if (nnz == 0) return local;
  DeviceBuffer<int> missing(std::vector<int>{0}, "whole-form check");
  const DeviceBuffer<global_index_t> halo(halo_columns, "whole-form halo");
  local_columns_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(
      nnz, columns.data(), first_column, own_columns, halo.data(),
      static_cast<index_t>(halo_columns.size()), local.data(), missing.data());
  SPK_CHECK_LAUNCH("local_columns_kernel");
  if (download_array(missing.data(), 1, stream)[0] != 0)  // (synchronizes: `halo` is freed next)
    throw Error(
        "amg setup: a row names a column outside the own range and the halo "
        "(internal error)");
  return local;
}

DeviceCsrMatrix<double> whole_rows_on_device(const DeviceGlobalRows& rows,
                                             global_index_t first_column, index_t own_columns,
                                             const std::vector<global_index_t>& halo_columns,
                                             cudaStream_t stream) {
  const auto nnz = static_cast<index_t>(rows.columns.size());
  check_index_range(
      static_cast<std::int64_t>(own_columns) + static_cast<std::int64_t>(halo_columns.size()),
      "own columns + halo columns of one process");
  DeviceCsrMatrix<double> whole;
  whole.rows = rows.rows;
  whole.cols = own_columns + static_cast<index_t>(halo_columns.size());
  whole.row_offsets = copy_device_array(rows.row_offsets.data(), rows.row_offsets.size(),
                                        "whole-form row offsets", stream);
  whole.columns = DeviceBuffer<index_t>(rows.columns.size(), "whole-form columns");
  whole.values = DeviceBuffer<double>(rows.values.size(), "whole-form values");
  if (nnz == 0) return whole;
  const DeviceBuffer<index_t> local =
      whole_form_columns_on_device(rows.columns, first_column, own_columns, halo_columns, stream);
  DeviceBuffer<index_t> identity(rows.columns.size(), "entry numbers");
  DeviceBuffer<index_t> order(rows.columns.size(), "whole-form entry order");
  iota_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(nnz, identity.data());
  SPK_CHECK_LAUNCH("iota_kernel");
  // Each row's (local column, entry) pairs sorted by column: order[k] = the entry of k.
  run_cub("whole-form row sort", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::StableSortPairs(
        scratch, bytes, local.data(), whole.columns.data(), identity.data(), order.data(), nnz,
        whole.rows, whole.row_offsets.data(), whole.row_offsets.data() + 1, stream);
  });
  gather_values_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(
      nnz, order.data(), rows.values.data(), whole.values.data());
  SPK_CHECK_LAUNCH("gather_values_kernel");
  DeviceBuffer<int> repeated(std::vector<int>{0}, "whole-form check");
  repeated_column_kernel<<<setup_grid(whole.rows), kSetupBlockSize, 0, stream>>>(
      whole.rows, whole.row_offsets.data(), whole.columns.data(), repeated.data());
  SPK_CHECK_LAUNCH("repeated_column_kernel");
  if (download_array(repeated.data(), 1, stream)[0] != 0)
    throw BadInput("amg setup: a fetched row holds a column twice");
  return whole;
}

}  // namespace spk
