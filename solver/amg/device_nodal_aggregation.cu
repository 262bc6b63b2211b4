#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <utility>

#include "core/cub_call.cuh"
#include "core/device_kernels.cuh"
#include "solver/amg/device_nodal_aggregation.hpp"
#include "solver/amg/nodal_rules.hpp"

namespace spk {

namespace {

// sizes[I + 1] = the number of entries of nodal row I (sizes[0] = 0 is set by the caller)
__global__ void __launch_bounds__(kSetupBlockSize)
    nodal_sizes_kernel(index_t nodes, int block_size, const index_t* __restrict__ row_offsets,
                       const index_t* __restrict__ columns, index_t* __restrict__ sizes) {
  for_each_index(nodes, [&](index_t node) {
    index_t count = 0;
    nodal_rules::for_each_nodal_entry(node, block_size, row_offsets, columns, nullptr,
                                      [&](index_t, double) { ++count; });
    sizes[node + 1] = count;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    nodal_entries_kernel(index_t nodes, int block_size, const index_t* __restrict__ row_offsets,
                         const index_t* __restrict__ columns, const double* __restrict__ values,
                         const index_t* __restrict__ nodal_offsets,
                         index_t* __restrict__ nodal_columns, double* __restrict__ nodal_values) {
  for_each_index(nodes, [&](index_t node) {
    index_t at = nodal_offsets[node];
    nodal_rules::for_each_nodal_entry(node, block_size, row_offsets, columns, values,
                                      [&](index_t other, double norm) {
                                        nodal_columns[at] = other;
                                        nodal_values[at++] = norm;
                                      });
  });
}

// keep[j] = 1 unless aggregate j is the one-node aggregate of an isolated node; keep[count] = 0
__global__ void __launch_bounds__(kSetupBlockSize)
    kept_aggregates_kernel(index_t count, const index_t* __restrict__ roots,
                           const index_t* __restrict__ graph_offsets, index_t* __restrict__ keep) {
  for_each_index(count + 1, [&](index_t j) {
    keep[j] = j < count && graph_offsets[roots[j] + 1] > graph_offsets[roots[j]] ? 1 : 0;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    renumber_nodes_kernel(index_t nodes, const index_t* __restrict__ keep,
                          const index_t* __restrict__ number, index_t* __restrict__ aggregate_of) {
  for_each_index(nodes, [&](index_t node) {
    const index_t j = aggregate_of[node];
    aggregate_of[node] = keep[j] != 0 ? number[j] : -1;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    compact_roots_kernel(index_t count, const index_t* __restrict__ keep,
                         const index_t* __restrict__ number, const index_t* __restrict__ roots,
                         index_t* __restrict__ kept_roots) {
  for_each_index(count, [&](index_t j) {
    if (keep[j] != 0) kept_roots[number[j]] = roots[j];
  });
}

}  // namespace

DeviceCsrMatrix<double> device_nodal_matrix(const DeviceCsrMatrix<double>& a, int block_size,
                                            const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t nodes = a.rows / block_size;
  DeviceCsrMatrix<double> nodal;
  nodal.rows = nodal.cols = nodes;
  DeviceBuffer<index_t> sizes(static_cast<std::size_t>(nodes) + 1, "nodal row sizes");
  nodal.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(nodes) + 1, "nodal offsets");
  SPK_CUDA_CHECK(cudaMemsetAsync(sizes.data(), 0, sizeof(index_t), stream));
  nodal_sizes_kernel<<<setup_grid(nodes), kSetupBlockSize, 0, stream>>>(
      nodes, block_size, a.row_offsets.data(), a.columns.data(), sizes.data());
  SPK_CHECK_LAUNCH("nodal_sizes_kernel");
  run_cub("nodal matrix offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, sizes.data(), nodal.row_offsets.data(),
                                         nodes + 1, stream);
  });
  const index_t entries = context.read_back(nodal.row_offsets.data() + nodes);
  nodal.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(entries), "nodal columns");
  nodal.values = DeviceBuffer<double>(static_cast<std::size_t>(entries), "nodal values");
  nodal_entries_kernel<<<setup_grid(nodes), kSetupBlockSize, 0, stream>>>(
      nodes, block_size, a.row_offsets.data(), a.columns.data(), a.values.data(),
      nodal.row_offsets.data(), nodal.columns.data(), nodal.values.data());
  SPK_CHECK_LAUNCH("nodal_entries_kernel");
  return nodal;
}

DeviceStrengthGraph device_nodal_strength_graph(const DeviceCsrMatrix<double>& a, int block_size,
                                                double theta, const DeviceSetupContext& context) {
  if (block_size == 1) return device_strength_graph(a, theta, context);
  return device_strength_graph(device_nodal_matrix(a, block_size, context), theta, context);
}

void device_leave_out_isolated_nodes(DeviceAggregates& aggregates, const DeviceStrengthGraph& graph,
                                     const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t count = aggregates.count;
  const index_t nodes = graph.nodes;
  DeviceBuffer<index_t> keep(static_cast<std::size_t>(count) + 1, "kept aggregates");
  DeviceBuffer<index_t> number(static_cast<std::size_t>(count) + 1, "kept aggregate numbers");
  kept_aggregates_kernel<<<setup_grid(std::int64_t{count} + 1), kSetupBlockSize, 0, stream>>>(
      count, aggregates.roots.data(), graph.row_offsets.data(), keep.data());
  SPK_CHECK_LAUNCH("kept_aggregates_kernel");
  run_cub("kept aggregate numbering", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, keep.data(), number.data(), count + 1,
                                         stream);
  });
  const index_t kept = context.read_back(number.data() + count);
  renumber_nodes_kernel<<<setup_grid(nodes), kSetupBlockSize, 0, stream>>>(
      nodes, keep.data(), number.data(), aggregates.aggregate_of.data());
  SPK_CHECK_LAUNCH("renumber_nodes_kernel");
  DeviceBuffer<index_t> roots(static_cast<std::size_t>(kept), "aggregate roots");
  compact_roots_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
      count, keep.data(), number.data(), aggregates.roots.data(), roots.data());
  SPK_CHECK_LAUNCH("compact_roots_kernel");
  context.synchronize();  // before the old roots are freed
  aggregates.roots = std::move(roots);
  aggregates.count = kept;
}

}  // namespace spk
