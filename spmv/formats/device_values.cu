#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "spmv/formats/device_values.hpp"
#include "spmv/formats/ellpack_layout.hpp"

namespace spk {

namespace {

constexpr int kScatterBlockSize = 256;

// The slot of nonzero k: k itself (values stored in CSR order), or the map's entry.
struct IdentitySlots {
  __device__ __forceinline__ std::uint64_t operator()(std::int64_t k) const {
    return static_cast<std::uint64_t>(k);
  }
};
struct MappedSlots {
  const std::uint32_t* __restrict__ slots;
  __device__ __forceinline__ std::uint64_t operator()(std::int64_t k) const { return slots[k]; }
};

// The one scatter kernel of update_values, for every format (see device_values.hpp). Source
// values are converted to Value (fp64 to fp32 for spmv.matrix_values single: an overflow
// becomes infinite and is reported).
template <class Source, class Value, class Slots>
__global__ void scatter_values_kernel(std::int64_t nnz, const Source* __restrict__ values,
                                      Slots slots, Value* __restrict__ stored,
                                      index_t* first_non_finite) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < nnz;
       k += stride) {
    const Value value = static_cast<Value>(values[k]);
    stored[slots(k)] = value;
    if (first_non_finite != nullptr && !isfinite(value))
      atomicMin(first_non_finite, static_cast<index_t>(k));
  }
}

template <class Source, class Value, class Slots>
void launch_scatter(index_t nnz, const Source* values, Slots slots, Value* stored,
                    index_t* first_non_finite, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned int>(
      (static_cast<std::int64_t>(nnz) + kScatterBlockSize - 1) / kScatterBlockSize);
  scatter_values_kernel<<<blocks, kScatterBlockSize, 0, stream>>>(nnz, values, slots, stored,
                                                                  first_non_finite);
  SPK_CHECK_LAUNCH("scatter_values_kernel");
}

// The ELL scatter, a thread per row in blocks of kEllScatterRows rows. The block first stages
// its rows' CSR values in shared memory with contiguous (coalesced) reads, then each thread
// writes its row's entry j < width to slot j * pitch + row, so a warp's writes of one step
// are one contiguous run of the column-major array; entries past the width go to the row's
// contiguous tail (HYB's COO). A block whose rows hold more than `capacity` values reads
// them straight from `values` instead (row after row: slower, but any row length works).
constexpr int kEllScatterRows = 128;

template <class Source, class Value>
__global__ void __launch_bounds__(kEllScatterRows)
    scatter_ell_rows_kernel(index_t rows, const index_t* __restrict__ row_offsets, index_t width,
                            std::uint64_t pitch, const std::uint64_t* __restrict__ tail_starts,
                            const Source* __restrict__ values, Value* __restrict__ stored,
                            index_t* first_non_finite, index_t capacity) {
  extern __shared__ unsigned char staged_bytes[];
  Value* const staged = reinterpret_cast<Value*>(staged_bytes);
  const index_t block_first_row = static_cast<index_t>(blockIdx.x) * kEllScatterRows;
  const index_t block_end_row =
      rows - block_first_row < kEllScatterRows ? rows : block_first_row + kEllScatterRows;
  const index_t block_begin = row_offsets[block_first_row];
  const index_t block_count = row_offsets[block_end_row] - block_begin;
  const bool staged_rows = block_count <= capacity;
  if (staged_rows)
    for (index_t k = static_cast<index_t>(threadIdx.x); k < block_count; k += kEllScatterRows) {
      const Value value = static_cast<Value>(values[block_begin + k]);
      staged[k] = value;
      if (first_non_finite != nullptr && !isfinite(value))
        atomicMin(first_non_finite, block_begin + k);
    }
  __syncthreads();
  const index_t row = block_first_row + static_cast<index_t>(threadIdx.x);
  if (row >= block_end_row) return;
  const index_t first = row_offsets[row];
  const index_t length = row_offsets[row + 1] - first;
  const std::uint64_t tail_start = length > width ? tail_starts[row] : 0;
  for (index_t j = 0; j < length; ++j) {
    Value value;
    if (staged_rows) {
      value = staged[first - block_begin + j];
    } else {
      value = static_cast<Value>(values[first + j]);
      if (first_non_finite != nullptr && !isfinite(value)) atomicMin(first_non_finite, first + j);
    }
    stored[ell_entry_slot(row, j, width, pitch, tail_start)] = value;
  }
}

// Values staged per ELL scatter block: the largest block's, within the 48 KB of shared memory
// a kernel gets without opting in. *largest = the most entries any block of kEllScatterRows
// rows holds (one thread per block of rows).
__global__ void ell_scatter_block_entries_kernel(index_t rows,
                                                 const index_t* __restrict__ row_offsets,
                                                 index_t* largest) {
  const index_t blocks = (rows + kEllScatterRows - 1) / kEllScatterRows;
  for_each_index(blocks, [&](index_t block) {
    const index_t first = block * kEllScatterRows;
    const index_t end = rows - first < kEllScatterRows ? rows : first + kEllScatterRows;
    atomicMax(largest, row_offsets[end] - row_offsets[first]);
  });
}

template <class Value>
index_t ell_scatter_capacity(index_t rows, const index_t* row_offsets, cudaStream_t stream) {
  DeviceBuffer<index_t> largest(std::vector<index_t>{0}, "update_values staging size");
  const std::int64_t blocks = (std::int64_t{rows} + kEllScatterRows - 1) / kEllScatterRows;
  ell_scatter_block_entries_kernel<<<setup_grid(blocks), kSetupBlockSize, 0, stream>>>(
      rows, row_offsets, largest.data());
  SPK_CHECK_LAUNCH("ell_scatter_block_entries_kernel");
  constexpr index_t limit = static_cast<index_t>((48 * 1024) / sizeof(Value));
  return std::min(download_array(largest.data(), 1, stream)[0], limit);
}

}  // namespace

template <class Value>
DeviceValues<Value>::DeviceValues(const Value* csr_values, index_t nnz, const std::string& what,
                                  cudaStream_t stream)
    : stored_(copy_device_array(csr_values, static_cast<std::size_t>(nnz), what, stream)),
      nnz_(nnz) {}

template <class Value>
DeviceValues<Value>::DeviceValues(DeviceBuffer<Value> stored, DeviceBuffer<std::uint32_t> slots)
    : stored_(std::move(stored)),
      nnz_(static_cast<index_t>(slots.size())),
      slots_(std::move(slots)) {}

template <class Value>
DeviceValues<Value>::DeviceValues(DeviceBuffer<Value> stored, index_t nnz, index_t rows,
                                  const index_t* row_offsets, index_t ell_width, std::size_t pitch,
                                  DeviceBuffer<std::uint64_t> tail_starts, const std::string& what,
                                  cudaStream_t stream)
    : stored_(std::move(stored)),
      nnz_(nnz),
      ell_rows_(rows),
      ell_width_(ell_width),
      ell_pitch_(pitch),
      row_offsets_(copy_device_array(row_offsets, static_cast<std::size_t>(rows) + 1,
                                     what + " row offsets", stream)),
      tail_starts_(std::move(tail_starts)),
      ell_capacity_(ell_scatter_capacity<Value>(rows, row_offsets, stream)) {}

template <class Value>
template <class Source>
void DeviceValues<Value>::scatter(const Source* values, index_t* first_non_finite,
                                  cudaStream_t stream) {
  if (nnz_ == 0) return;
  if (row_offsets_.size() > 0) {
    const auto blocks = static_cast<unsigned int>(
        (static_cast<std::int64_t>(ell_rows_) + kEllScatterRows - 1) / kEllScatterRows);
    const std::size_t staged_bytes = static_cast<std::size_t>(ell_capacity_) * sizeof(Value);
    scatter_ell_rows_kernel<<<blocks, kEllScatterRows, staged_bytes, stream>>>(
        ell_rows_, row_offsets_.data(), ell_width_, static_cast<std::uint64_t>(ell_pitch_),
        tail_starts_.data(), values, stored_.data(), first_non_finite, ell_capacity_);
    SPK_CHECK_LAUNCH("scatter_ell_rows_kernel");
  } else if (slots_.size() > 0) {
    launch_scatter(nnz_, values, MappedSlots{slots_.data()}, stored_.data(), first_non_finite,
                   stream);
  } else {
    launch_scatter(nnz_, values, IdentitySlots{}, stored_.data(), first_non_finite, stream);
  }
}

template class DeviceValues<float>;
template class DeviceValues<double>;
template void DeviceValues<float>::scatter(const float*, index_t*, cudaStream_t);
template void DeviceValues<double>::scatter(const double*, index_t*, cudaStream_t);
template void DeviceValues<float>::scatter(const double*, index_t*, cudaStream_t);

}  // namespace spk
