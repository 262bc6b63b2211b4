#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <utility>
#include <vector>

#include "core/cub_call.cuh"
#include "core/device_kernels.cuh"
#include "solver/amg/device_strength.hpp"
#include "solver/amg/device_transpose.hpp"
#include "solver/amg/strength_rules.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    absolute_diagonal_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                             const index_t* __restrict__ columns, const double* __restrict__ values,
                             double* __restrict__ diagonal) {
  for_each_index(rows, [&](index_t row) {
    diagonal[row] = absolute_diagonal(row, row_offsets, columns, values);  // |a_ii|
  });
}

// counts[row] = |row of S union S^T| (neighbours == nullptr), or the row's columns written at
// neighbours + row_offsets[row].
__global__ void __launch_bounds__(kSetupBlockSize)
    strong_union_kernel(index_t rows, const index_t* __restrict__ a_offsets,
                        const index_t* __restrict__ a_columns, const double* __restrict__ a_values,
                        const index_t* __restrict__ t_offsets,
                        const index_t* __restrict__ t_columns, const double* __restrict__ t_values,
                        const double* __restrict__ diagonal, double theta, index_t* counts,
                        const index_t* __restrict__ row_offsets, index_t* neighbours) {
  for_each_index(rows, [&](index_t row) {
    index_t* const out = neighbours == nullptr ? nullptr : neighbours + row_offsets[row];
    const index_t count = strong_union_row(row, a_offsets, a_columns, a_values, t_offsets,
                                           t_columns, t_values, diagonal, theta, out);
    if (counts != nullptr) counts[row] = count;
  });
}

// *asymmetric = 1 when some a_ij of the block (j < own_columns) has no a_ji stored, or one
// not bitwise equal (a NaN counts as unequal).
__global__ void __launch_bounds__(kSetupBlockSize)
    block_symmetry_kernel(index_t rows, const index_t* __restrict__ offsets,
                          const index_t* __restrict__ columns, const double* __restrict__ values,
                          index_t own_columns, int* asymmetric) {
  for_each_index(rows, [&](index_t row) {
    for (index_t k = offsets[row]; k < offsets[row + 1]; ++k) {
      const index_t column = columns[k];
      if (column >= own_columns) break;  // the halo slots end the row
      if (column == row) continue;
      const index_t end = offsets[column + 1];
      const index_t found = lower_bound_in(columns, offsets[column], end, row);
      if (found == end || columns[found] != row || !(values[found] == values[k])) {
        *asymmetric = 1;
        return;
      }
    }
  });
}

// counts[row] = |row of S union S^T| of a symmetric block (neighbours == nullptr), or the
// row's columns written at neighbours + row_offsets[row].
__global__ void __launch_bounds__(kSetupBlockSize)
    strong_symmetric_kernel(index_t rows, const index_t* __restrict__ a_offsets,
                            const index_t* __restrict__ a_columns,
                            const double* __restrict__ a_values, index_t own_columns,
                            const double* __restrict__ diagonal, double theta, index_t* counts,
                            const index_t* __restrict__ row_offsets, index_t* neighbours) {
  for_each_index(rows, [&](index_t row) {
    index_t* const out = neighbours == nullptr ? nullptr : neighbours + row_offsets[row];
    const index_t count = strong_symmetric_row(row, a_offsets, a_columns, a_values, own_columns,
                                               diagonal, theta, out);
    if (counts != nullptr) counts[row] = count;
  });
}

// *total += the counts (64-bit: the sizes of S union S^T may pass 2^31 where nnz does not).
__global__ void __launch_bounds__(kSetupBlockSize)
    total_kernel(index_t rows, const index_t* __restrict__ counts, unsigned long long* total) {
  unsigned long long sum = 0;
  for_each_index(rows, [&](index_t row) { sum += static_cast<unsigned long long>(counts[row]); });
  sum = warp_sum(sum);
  if (lowest_lane() && sum != 0) atomicAdd(total, sum);
}

// |a_ii| of every row of `a`.
DeviceBuffer<double> absolute_diagonal_of(const DeviceCsrMatrix<double>& a, cudaStream_t stream) {
  DeviceBuffer<double> diagonal(static_cast<std::size_t>(a.rows), "strength |a_ii|");
  absolute_diagonal_kernel<<<setup_grid(a.rows), kSetupBlockSize, 0, stream>>>(
      a.rows, a.row_offsets.data(), a.columns.data(), a.values.data(), diagonal.data());
  SPK_CHECK_LAUNCH("absolute_diagonal_kernel");
  return diagonal;
}

// The graph's offsets from its row sizes (counts: rows + 1 entries, the last 0), and its
// edges' array, sized by the number read back (synchronizes). `bound`: the most edges the
// graph can have; past 2^31 - 1 the sizes are summed in 64 bits first and a graph that large
// is refused (the 32-bit offsets would wrap).
void size_graph(DeviceStrengthGraph& graph, const DeviceBuffer<index_t>& counts, std::int64_t bound,
                const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t rows = graph.nodes;
  if (bound > max_index) {
    DeviceBuffer<unsigned long long> total(std::vector<unsigned long long>{0},
                                           "strength graph size");
    total_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(rows, counts.data(),
                                                                   total.data());
    SPK_CHECK_LAUNCH("total_kernel");
    check_index_range(static_cast<std::int64_t>(context.read_back(total.data())),
                      "edges of the AMG strength graph (S union S^T) on one GPU");
  }
  graph.row_offsets = DeviceBuffer<index_t>(counts.size(), "strength graph offsets");
  run_cub("strength graph offsets scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, counts.data(), graph.row_offsets.data(),
                                         rows + 1, stream);
  });
  const index_t edges = context.read_back(graph.row_offsets.data() + rows);
  graph.neighbours = DeviceBuffer<index_t>(static_cast<std::size_t>(edges), "strength graph edges");
}

}  // namespace

std::optional<DeviceStrengthGraph> device_symmetric_strength_graph(
    const DeviceCsrMatrix<double>& a, index_t own_columns, double theta,
    const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t rows = a.rows;
  DeviceBuffer<int> asymmetric(std::vector<int>{0}, "strength symmetry flag");
  block_symmetry_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), own_columns,
      asymmetric.data());
  SPK_CHECK_LAUNCH("block_symmetry_kernel");
  if (context.read_back(asymmetric.data()) != 0) return std::nullopt;

  const DeviceBuffer<double> diagonal = absolute_diagonal_of(a, stream);
  DeviceStrengthGraph graph;
  graph.nodes = rows;
  DeviceBuffer<index_t> counts(static_cast<std::size_t>(rows) + 1, "strength row sizes");
  SPK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  strong_symmetric_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), own_columns, diagonal.data(),
      theta, counts.data(), nullptr, nullptr);
  SPK_CHECK_LAUNCH("strong_symmetric_kernel (sizes)");
  size_graph(graph, counts, a.nnz(), context);  // at most the block's entries
  strong_symmetric_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), own_columns, diagonal.data(),
      theta, nullptr, graph.row_offsets.data(), graph.neighbours.data());
  SPK_CHECK_LAUNCH("strong_symmetric_kernel (columns)");
  context.synchronize();  // |a_ii| is freed on return
  return graph;
}

DeviceStrengthGraph device_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                          const DeviceSetupContext& context) {
  if (std::optional<DeviceStrengthGraph> graph =
          device_symmetric_strength_graph(a, a.cols, theta, context))
    return std::move(*graph);
  return device_transposed_strength_graph(a, theta, context);
}

DeviceStrengthGraph device_transposed_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                                     const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t rows = a.rows;
  const DeviceBuffer<double> diagonal = absolute_diagonal_of(a, stream);
  DeviceCsrMatrix<double> t;  // row i of A^T: the a_ji
  const DeviceTranspose transpose(a, t, context);

  // Row sizes (and a 0 after the last row), then their exclusive scan: the graph's offsets.
  DeviceStrengthGraph graph;
  graph.nodes = rows;
  DeviceBuffer<index_t> counts(static_cast<std::size_t>(rows) + 1, "strength row sizes");
  SPK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  strong_union_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), t.row_offsets.data(),
      t.columns.data(), t.values.data(), diagonal.data(), theta, counts.data(), nullptr, nullptr);
  SPK_CHECK_LAUNCH("strong_union_kernel (sizes)");
  size_graph(graph, counts, 2 * static_cast<std::int64_t>(a.nnz()), context);  // S and S^T
  strong_union_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), t.row_offsets.data(),
      t.columns.data(), t.values.data(), diagonal.data(), theta, nullptr, graph.row_offsets.data(),
      graph.neighbours.data());
  SPK_CHECK_LAUNCH("strong_union_kernel (columns)");
  context.synchronize();  // A^T and |a_ii| are freed on return
  return graph;
}

}  // namespace spk
