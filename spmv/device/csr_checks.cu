// The device side of csr_checks.hpp: one grid-stride pass lowers a fault index with atomicMin
// (INT_MAX: none), a one-thread kernel finds the row and column of the faulty entries, and the
// facts come back in one small copy.
#include <climits>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spmv/device/csr_checks.hpp"

namespace spk {

namespace {

constexpr index_t kNone = INT_MAX;

__global__ void __launch_bounds__(kSetupBlockSize)
    row_offsets_facts_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                             RowOffsetsFacts* facts) {
  for_each_index(rows, [&](index_t row) {
    if (row_offsets[row + 1] < row_offsets[row]) atomicMin(&facts->first_decreasing_row, row);
  });
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    facts->first = row_offsets[0];
    facts->last = row_offsets[rows];
  }
}

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    entry_faults_kernel(index_t nnz, index_t cols, const index_t* __restrict__ columns,
                        const T* __restrict__ values, EntryFacts* facts) {
  for_each_index(nnz, [&](index_t k) {
    const index_t column = columns[k];
    if (column < 0 || column >= cols) atomicMin(&facts->column_out_of_range.entry, k);
    if (!isfinite(values[k])) atomicMin(&facts->non_finite_value.entry, k);
  });
}

// The row of a found entry (the least r with row_offsets[r + 1] > entry, by bisection over the
// non-decreasing offsets) and its column; an entry left at kNone becomes -1 (none).
__device__ void locate_entry(EntryFact& fact, index_t rows, const index_t* row_offsets,
                             const index_t* columns) {
  if (fact.entry == kNone) {
    fact.entry = -1;
    return;
  }
  index_t low = 0, high = rows - 1;  // the row is in [low, high]
  while (low < high) {
    const index_t middle = low + (high - low) / 2;
    if (row_offsets[middle + 1] > fact.entry)
      high = middle;
    else
      low = middle + 1;
  }
  fact.row = low;
  fact.column = columns[fact.entry];
}

__global__ void __launch_bounds__(1)
    locate_entries_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                          const index_t* __restrict__ columns, EntryFacts* facts) {
  locate_entry(facts->column_out_of_range, rows, row_offsets, columns);
  locate_entry(facts->non_finite_value, rows, row_offsets, columns);
}

}  // namespace

RowOffsetsFacts device_row_offsets_facts(index_t rows, const index_t* row_offsets,
                                         cudaStream_t stream) {
  DeviceBuffer<RowOffsetsFacts> facts(std::vector<RowOffsetsFacts>{{0, 0, kNone}},
                                      "row offsets check");
  row_offsets_facts_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(rows, row_offsets,
                                                                             facts.data());
  SPK_CHECK_LAUNCH("row_offsets_facts_kernel");
  RowOffsetsFacts result = download_array(facts.data(), 1, stream)[0];
  if (result.first_decreasing_row == kNone) result.first_decreasing_row = -1;
  return result;
}

template <class T>
EntryFacts device_entry_facts(index_t rows, index_t cols, const index_t* row_offsets,
                              const index_t* columns, const T* values, cudaStream_t stream) {
  EntryFacts start;
  start.column_out_of_range.entry = kNone;
  start.non_finite_value.entry = kNone;
  DeviceBuffer<EntryFacts> facts(std::vector<EntryFacts>{start}, "matrix entries check");
  const index_t nnz = download_array(row_offsets + rows, 1, stream)[0];
  if (nnz > 0) {
    entry_faults_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(nnz, cols, columns, values,
                                                                         facts.data());
    SPK_CHECK_LAUNCH("entry_faults_kernel");
  }
  locate_entries_kernel<<<1, 1, 0, stream>>>(rows, row_offsets, columns, facts.data());
  SPK_CHECK_LAUNCH("locate_entries_kernel");
  return download_array(facts.data(), 1, stream)[0];
}

template EntryFacts device_entry_facts(index_t, index_t, const index_t*, const index_t*,
                                       const float*, cudaStream_t);
template EntryFacts device_entry_facts(index_t, index_t, const index_t*, const index_t*,
                                       const double*, cudaStream_t);

}  // namespace spk
