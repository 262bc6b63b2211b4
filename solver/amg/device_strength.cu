#include <cub/device/device_scan.cuh>

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

}  // namespace

DeviceStrengthGraph device_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                          const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t rows = a.rows;
  DeviceBuffer<double> diagonal(static_cast<std::size_t>(rows), "strength |a_ii|");
  absolute_diagonal_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), diagonal.data());
  SPK_CHECK_LAUNCH("absolute_diagonal_kernel");
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
  graph.row_offsets = DeviceBuffer<index_t>(counts.size(), "strength graph offsets");
  run_cub("strength graph offsets scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, counts.data(), graph.row_offsets.data(),
                                         rows + 1, stream);
  });
  index_t edges = 0;
  SPK_CUDA_CHECK(cudaMemcpyAsync(&edges, graph.row_offsets.data() + rows, sizeof(index_t),
                                 cudaMemcpyDeviceToHost, stream));
  context.synchronize();
  graph.neighbours = DeviceBuffer<index_t>(static_cast<std::size_t>(edges), "strength graph edges");
  strong_union_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, a.row_offsets.data(), a.columns.data(), a.values.data(), t.row_offsets.data(),
      t.columns.data(), t.values.data(), diagonal.data(), theta, nullptr, graph.row_offsets.data(),
      graph.neighbours.data());
  SPK_CHECK_LAUNCH("strong_union_kernel (columns)");
  context.synchronize();  // A^T and |a_ii| are freed on return
  return graph;
}

}  // namespace spk
