#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/device_row_kernels.cuh"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Row rows[r] of m copied to rows r of the compact arrays (offsets from the host's sums).
__global__ void __launch_bounds__(kSetupBlockSize)
    gather_rows_kernel(index_t count, const index_t* __restrict__ rows,
                       const index_t* __restrict__ row_offsets, const index_t* __restrict__ columns,
                       const double* __restrict__ values, const index_t* __restrict__ out_offsets,
                       index_t* __restrict__ out_columns, double* __restrict__ out_values) {
  for_each_index(count, [&](index_t r) {
    const index_t begin = row_offsets[rows[r]], end = row_offsets[rows[r] + 1];
    index_t to = out_offsets[r];
    for (index_t k = begin; k < end; ++k, ++to) {
      out_columns[to] = columns[k];
      out_values[to] = values[k];
    }
  });
}

// offsets[top_rows + 1 + r] += shift for the bottom rows' offsets
__global__ void __launch_bounds__(kSetupBlockSize)
    shift_kernel(index_t count, index_t shift, index_t* __restrict__ offsets) {
  for_each_index(count, [&](index_t r) { offsets[r] += shift; });
}

// c >= own: c = slot_map[c - own]
__global__ void __launch_bounds__(kSetupBlockSize)
    remap_kernel(index_t nnz, index_t own, const index_t* __restrict__ slot_map,
                 index_t* __restrict__ columns) {
  for_each_index(nnz, [&](index_t k) {
    const index_t c = columns[k];
    if (c >= own) columns[k] = slot_map[c - own];
  });
}

template <class U>
void copy_async(U* to, const U* from, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  if (count > 0) SPK_CUDA_CHECK(cudaMemcpyAsync(to, from, count * sizeof(U), kind, stream));
}

}  // namespace

CsrMatrix<double> download_rows(const DeviceCsrMatrix<double>& m, const std::vector<index_t>& rows,
                                cudaStream_t stream) {
  CsrMatrix<double> out;
  out.rows = static_cast<index_t>(rows.size());
  out.cols = m.cols;
  out.row_offsets.assign(rows.size() + 1, 0);
  if (rows.empty()) return out;
  const auto count = static_cast<index_t>(rows.size());
  const DeviceBuffer<index_t> ids(rows, "rows to download");
  DeviceBuffer<index_t> lengths(rows.size(), "downloaded row lengths");
  row_lengths_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
      count, ids.data(), m.row_offsets.data(), lengths.data());
  SPK_CHECK_LAUNCH("row_lengths_kernel");
  const std::vector<index_t> length = download_array(lengths.data(), rows.size(), stream);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    total += length[r];
    check_index_range(total, "entries of the rows downloaded");
    out.row_offsets[r + 1] = static_cast<index_t>(total);
  }
  const DeviceBuffer<index_t> offsets(out.row_offsets, "downloaded row offsets");
  DeviceBuffer<index_t> columns(static_cast<std::size_t>(total), "downloaded columns");
  DeviceBuffer<double> values(static_cast<std::size_t>(total), "downloaded values");
  gather_rows_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
      count, ids.data(), m.row_offsets.data(), m.columns.data(), m.values.data(), offsets.data(),
      columns.data(), values.data());
  SPK_CHECK_LAUNCH("gather_rows_kernel");
  out.columns = download_array(columns.data(), columns.size(), stream);
  out.values = download_array(values.data(), values.size(), stream);
  return out;
}

CsrMatrix<double> download_row_range(const DeviceCsrMatrix<double>& m, index_t first, index_t end,
                                     cudaStream_t stream) {
  CsrMatrix<double> out;
  out.rows = end - first;
  out.cols = m.cols;
  out.row_offsets = download_array(m.row_offsets.data() + first,
                                   static_cast<std::size_t>(end - first) + 1, stream);
  const index_t base = out.row_offsets.front();
  for (index_t& offset : out.row_offsets) offset -= base;
  const auto count = static_cast<std::size_t>(out.row_offsets.back());
  out.columns = download_array(m.columns.data() + base, count, stream);
  out.values = download_array(m.values.data() + base, count, stream);
  return out;
}

DeviceCsrMatrix<double> stack_rows(const DeviceCsrMatrix<double>& top,
                                   const DeviceCsrMatrix<double>& bottom, index_t cols,
                                   cudaStream_t stream) {
  check_index_range(static_cast<std::int64_t>(top.nnz()) + bottom.nnz(),
                    "entries of a stacked matrix");
  check_index_range(static_cast<std::int64_t>(top.rows) + bottom.rows, "rows of a stacked matrix");
  DeviceCsrMatrix<double> stacked;
  stacked.rows = top.rows + bottom.rows;
  stacked.cols = cols;
  stacked.row_offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(stacked.rows) + 1, "stacked row offsets");
  stacked.columns =
      DeviceBuffer<index_t>(static_cast<std::size_t>(top.nnz() + bottom.nnz()), "stacked columns");
  stacked.values = DeviceBuffer<double>(stacked.columns.size(), "stacked values");
  // offsets: top's, then bottom's (past its leading 0) shifted by nnz(top); columns and values
  // side by side
  copy_async(stacked.row_offsets.data(), top.row_offsets.data(),
             static_cast<std::size_t>(top.rows) + 1, cudaMemcpyDeviceToDevice, stream);
  copy_async(stacked.columns.data(), top.columns.data(), top.columns.size(),
             cudaMemcpyDeviceToDevice, stream);
  copy_async(stacked.values.data(), top.values.data(), top.values.size(), cudaMemcpyDeviceToDevice,
             stream);
  if (bottom.rows > 0) {
    copy_async(stacked.row_offsets.data() + top.rows + 1, bottom.row_offsets.data() + 1,
               static_cast<std::size_t>(bottom.rows), cudaMemcpyDeviceToDevice, stream);
    shift_kernel<<<setup_grid(bottom.rows), kSetupBlockSize, 0, stream>>>(
        bottom.rows, top.nnz(), stacked.row_offsets.data() + top.rows + 1);
    SPK_CHECK_LAUNCH("shift_kernel");
    copy_async(stacked.columns.data() + top.nnz(), bottom.columns.data(), bottom.columns.size(),
               cudaMemcpyDeviceToDevice, stream);
    copy_async(stacked.values.data() + top.nnz(), bottom.values.data(), bottom.values.size(),
               cudaMemcpyDeviceToDevice, stream);
  }
  return stacked;
}

DeviceCsrMatrix<double> stack_rows(const DeviceCsrMatrix<double>& top,
                                   const CsrMatrix<double>& bottom, index_t cols,
                                   cudaStream_t stream) {
  const DeviceCsrMatrix<double> uploaded = to_device(bottom, "stacked bottom rows");
  DeviceCsrMatrix<double> stacked = stack_rows(top, uploaded, cols, stream);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // `uploaded` is freed on return
  return stacked;
}

void stack_values(const double* top_values, index_t top_nnz,
                  const std::vector<double>& bottom_values, DeviceCsrMatrix<double>& stacked,
                  cudaStream_t stream) {
  if (static_cast<std::size_t>(top_nnz) + bottom_values.size() != stacked.values.size())
    throw Error("amg setup: " + std::to_string(top_nnz) + " + " +
                std::to_string(bottom_values.size()) + " values for a stacked matrix of " +
                std::to_string(stacked.values.size()) + " entries (internal error)");
  copy_async(stacked.values.data(), top_values, static_cast<std::size_t>(top_nnz),
             cudaMemcpyDeviceToDevice, stream);
  copy_async(stacked.values.data() + top_nnz, bottom_values.data(), bottom_values.size(),
             cudaMemcpyHostToDevice, stream);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // bottom_values may be a temporary
}

DeviceCsrMatrix<double> remapped_copy(const DeviceCsrMatrix<double>& m, index_t own,
                                      const std::vector<index_t>& slot_map, index_t cols,
                                      cudaStream_t stream) {
  DeviceCsrMatrix<double> copy;
  copy.rows = m.rows;
  copy.cols = cols;
  copy.row_offsets =
      copy_device_array(m.row_offsets.data(), m.row_offsets.size(), "remapped row offsets", stream);
  copy.columns = copy_device_array(m.columns.data(), m.columns.size(), "remapped columns", stream);
  copy.values = copy_device_array(m.values.data(), m.values.size(), "remapped values", stream);
  if (!slot_map.empty() && m.nnz() > 0) {
    const DeviceBuffer<index_t> map(slot_map, "halo slot map");
    remap_kernel<<<setup_grid(m.nnz()), kSetupBlockSize, 0, stream>>>(m.nnz(), own, map.data(),
                                                                      copy.columns.data());
    SPK_CHECK_LAUNCH("remap_kernel");
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // `map` is freed on return
  }
  return copy;
}

void fill_on_device(std::size_t n, double value, double* x, cudaStream_t stream) {
  fill_on_stream(static_cast<std::int64_t>(n), value, x, stream);
}

}  // namespace spk
