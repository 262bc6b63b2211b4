#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/formats/device_values.hpp"

namespace spk {

namespace {

constexpr int kScatterBlockSize = 256;

// The slot of nonzero k: k itself (values stored in CSR order), or the map's entry.
struct IdentitySlots {
  __device__ __forceinline__ std::uint64_t operator()(std::int64_t k) const {
    return static_cast<std::uint64_t>(k);
  }
};
template <class Slot>
struct MappedSlots {
  const Slot* __restrict__ slots;
  __device__ __forceinline__ std::uint64_t operator()(std::int64_t k) const { return slots[k]; }
};

// The one scatter kernel of update_values, for every format (see device_values.hpp).
template <class Value, class Slots>
__global__ void scatter_values_kernel(std::int64_t nnz, const Value* __restrict__ values,
                                      Slots slots, Value* __restrict__ stored,
                                      index_t* first_non_finite) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < nnz;
       k += stride) {
    const Value value = values[k];
    stored[slots(k)] = value;
    if (first_non_finite != nullptr && !isfinite(value))
      atomicMin(first_non_finite, static_cast<index_t>(k));
  }
}

template <class Value, class Slots>
void launch_scatter(index_t nnz, const Value* values, Slots slots, Value* stored,
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

template <class Value>
__global__ void __launch_bounds__(kEllScatterRows)
    scatter_ell_rows_kernel(index_t rows, const index_t* __restrict__ row_offsets, index_t width,
                            std::uint64_t pitch, const std::uint64_t* __restrict__ tail_starts,
                            const Value* __restrict__ values, Value* __restrict__ stored,
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
      const Value value = values[block_begin + k];
      staged[k] = value;
      if (first_non_finite != nullptr && !isfinite(value))
        atomicMin(first_non_finite, block_begin + k);
    }
  __syncthreads();
  const index_t row = block_first_row + static_cast<index_t>(threadIdx.x);
  if (row >= block_end_row) return;
  const index_t first = row_offsets[row];
  const index_t length = row_offsets[row + 1] - first;
  for (index_t j = 0; j < length; ++j) {
    Value value;
    if (staged_rows) {
      value = staged[first - block_begin + j];
    } else {
      value = values[first + j];
      if (first_non_finite != nullptr && !isfinite(value)) atomicMin(first_non_finite, first + j);
    }
    const std::uint64_t slot =
        j < width ? static_cast<std::uint64_t>(j) * pitch + static_cast<std::uint64_t>(row)
                  : tail_starts[row] + static_cast<std::uint64_t>(j - width);
    stored[slot] = value;
  }
}

// Values staged per ELL scatter block: the largest block's, within the 48 KB of shared memory
// a kernel gets without opting in.
template <class Value>
index_t ell_scatter_capacity(const std::vector<index_t>& row_offsets) {
  const index_t rows = static_cast<index_t>(row_offsets.size()) - 1;
  index_t largest = 0;
  for (index_t first = 0; first < rows; first += kEllScatterRows) {
    const index_t end = rows - first < kEllScatterRows ? rows : first + kEllScatterRows;
    largest = std::max(largest, row_offsets[end] - row_offsets[first]);
  }
  constexpr index_t limit = static_cast<index_t>((48 * 1024) / sizeof(Value));
  return std::min(largest, limit);
}

bool every_slot_fits_32_bits(const ValueSlots& slots) {
  for (const std::uint64_t slot : slots)
    if (slot > std::numeric_limits<std::uint32_t>::max()) return false;
  return true;
}

}  // namespace

template <class Value>
DeviceValues<Value>::DeviceValues(const std::vector<Value>& stored, const std::string& what)
    : stored_(stored, what), nnz_(static_cast<index_t>(stored.size())) {}

template <class Value>
DeviceValues<Value>::DeviceValues(const std::vector<Value>& stored, const ValueSlots& slots,
                                  const std::string& what)
    : stored_(stored, what), nnz_(static_cast<index_t>(slots.size())) {
  if (every_slot_fits_32_bits(slots)) {
    std::vector<std::uint32_t> narrow(slots.size());
    for (std::size_t k = 0; k < slots.size(); ++k) narrow[k] = static_cast<std::uint32_t>(slots[k]);
    slots32_ = DeviceBuffer<std::uint32_t>(narrow, what + " slot map");
  } else {
    slots64_ = DeviceBuffer<std::uint64_t>(slots, what + " slot map");
  }
}

template <class Value>
DeviceValues<Value>::DeviceValues(const std::vector<Value>& stored,
                                  const std::vector<index_t>& row_offsets, index_t ell_width,
                                  std::size_t pitch, const ValueSlots& slots,
                                  const std::string& what)
    : stored_(stored, what),
      nnz_(static_cast<index_t>(slots.size())),
      ell_rows_(static_cast<index_t>(row_offsets.size()) - 1),
      ell_width_(ell_width),
      ell_pitch_(pitch),
      row_offsets_(row_offsets, what + " row offsets"),
      ell_capacity_(ell_scatter_capacity<Value>(row_offsets)) {
  // Where each row's entries past the width start (HYB's COO part): slot of entry `width`.
  std::vector<std::uint64_t> tails(static_cast<std::size_t>(ell_rows_), 0);
  bool any_tail = false;
  for (index_t row = 0; row < ell_rows_; ++row)
    if (row_offsets[row + 1] - row_offsets[row] > ell_width) {
      tails[static_cast<std::size_t>(row)] =
          slots[static_cast<std::size_t>(row_offsets[row] + ell_width)];
      any_tail = true;
    }
  if (any_tail) tail_starts_ = DeviceBuffer<std::uint64_t>(tails, what + " row tails");
}

template <class Value>
void DeviceValues<Value>::scatter(const Value* values, index_t* first_non_finite,
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
  } else if (slots32_.size() > 0)
    launch_scatter(nnz_, values, MappedSlots<std::uint32_t>{slots32_.data()}, stored_.data(),
                   first_non_finite, stream);
  else if (slots64_.size() > 0)
    launch_scatter(nnz_, values, MappedSlots<std::uint64_t>{slots64_.data()}, stored_.data(),
                   first_non_finite, stream);
  else
    launch_scatter(nnz_, values, IdentitySlots{}, stored_.data(), first_non_finite, stream);
}

template class DeviceValues<float>;
template class DeviceValues<double>;

}  // namespace spk
