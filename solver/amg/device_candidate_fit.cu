#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <string>
#include <vector>

#include "core/cub_call.cuh"
#include "core/device_kernels.cuh"
#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/candidate_fit_rules.hpp"
#include "solver/amg/device_candidate_fit.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// offsets[j] = where aggregate j's nodes start among the nodes sorted by aggregate (the
// left-out nodes, -1, come first); offsets[count] = nodes.
__global__ void __launch_bounds__(kSetupBlockSize)
    member_offsets_kernel(index_t nodes, index_t count, const index_t* __restrict__ sorted_keys,
                          index_t* __restrict__ offsets) {
  for_each_index(nodes, [&](index_t p) {
    const index_t key = sorted_keys[p];
    if (key >= 0 && (p == 0 || sorted_keys[p - 1] != key)) offsets[key] = p;
  });
  if (blockIdx.x == 0 && threadIdx.x == 0) offsets[count] = nodes;
}

// sizes[row + 1] = k for a row of a node in an aggregate, 0 for a left-out node's
__global__ void __launch_bounds__(kSetupBlockSize)
    tentative_sizes_kernel(index_t rows, int block_size, int k,
                           const index_t* __restrict__ aggregate_of, index_t* __restrict__ sizes) {
  for_each_index(rows + 1, [&](index_t i) {
    sizes[i] = i > 0 && aggregate_of[(i - 1) / block_size] >= 0 ? k : 0;
  });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    tentative_columns_kernel(index_t rows, int block_size, int k,
                             const index_t* __restrict__ aggregate_of,
                             const index_t* __restrict__ offsets, index_t* __restrict__ columns) {
  for_each_index(rows, [&](index_t row) {
    const index_t aggregate = aggregate_of[row / block_size];
    for (index_t t = offsets[row]; t < offsets[row + 1]; ++t)
      columns[t] = aggregate * k + (t - offsets[row]);
  });
}

// The thin QR of each aggregate's block of B, a thread per aggregate. *completed counts the
// completed columns, *short_aggregate lowers to the first aggregate with too few unknowns.
__global__ void __launch_bounds__(kSetupBlockSize)
    fit_kernel(index_t count, int block_size, int k, const index_t* __restrict__ member_offsets,
               const index_t* __restrict__ members, const double* __restrict__ b,
               const index_t* __restrict__ t_offsets, double* t_values, double* coarse,
               double drop_tolerance, unsigned long long* completed, index_t* short_aggregate) {
  for_each_index(count, [&](index_t j) {
    const candidate_fit_rules::AggregateDofs dofs{
        members + member_offsets[j], member_offsets[j + 1] - member_offsets[j], block_size};
    const int result = candidate_fit_rules::fit_aggregate(
        dofs, b, k, t_offsets, t_values, coarse + static_cast<std::size_t>(j) * k * k,
        drop_tolerance);
    if (result == candidate_fit_rules::too_few_dofs)
      atomicMin(short_aggregate, j);
    else if (result > 0)
      atomicAdd(completed, static_cast<unsigned long long>(result));
  });
}

}  // namespace

DeviceCandidateFit device_fit_candidates(const DeviceAggregates& aggregates, int block_size,
                                         const DeviceBuffer<double>& near_nullspace, int candidates,
                                         const DeviceSetupContext& context, double drop_tolerance) {
  const cudaStream_t stream = context.stream();
  const auto nodes = static_cast<index_t>(aggregates.aggregate_of.size());
  const index_t rows = nodes * block_size;
  const index_t count = aggregates.count;
  const int k = candidates;
  if (near_nullspace.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(k))
    throw Error("amg near-null space on the GPU: " + std::to_string(near_nullspace.size()) +
                " values for " + std::to_string(rows) + " rows x " + std::to_string(k) +
                " vectors (internal error)");
  DeviceCandidateFit fit;
  fit.candidates = k;

  // Each aggregate's nodes, increasing: a stable sort of the nodes by aggregate.
  DeviceBuffer<index_t> node_order(static_cast<std::size_t>(nodes), "nodes by index");
  DeviceBuffer<index_t> members(static_cast<std::size_t>(nodes), "aggregate members");
  DeviceBuffer<index_t> sorted_keys(static_cast<std::size_t>(nodes), "nodes' aggregates, sorted");
  DeviceBuffer<index_t> member_offsets(static_cast<std::size_t>(count) + 1, "member offsets");
  iota_kernel<<<setup_grid(nodes), kSetupBlockSize, 0, stream>>>(nodes, node_order.data());
  SPK_CHECK_LAUNCH("iota_kernel");
  run_cub("aggregate members sort", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(scratch, bytes, aggregates.aggregate_of.data(),
                                           sorted_keys.data(), node_order.data(), members.data(),
                                           nodes, 0, 32, stream);
  });
  member_offsets_kernel<<<setup_grid(nodes), kSetupBlockSize, 0, stream>>>(
      nodes, count, sorted_keys.data(), member_offsets.data());
  SPK_CHECK_LAUNCH("member_offsets_kernel");

  // T's pattern: k entries in the rows of a node in an aggregate.
  DeviceCsrMatrix<double>& t = fit.matrix;
  t.rows = rows;
  t.cols = count * k;
  DeviceBuffer<index_t> sizes(static_cast<std::size_t>(rows) + 1, "T row sizes");
  t.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, "T offsets");
  tentative_sizes_kernel<<<setup_grid(std::int64_t{rows} + 1), kSetupBlockSize, 0, stream>>>(
      rows, block_size, k, aggregates.aggregate_of.data(), sizes.data());
  SPK_CHECK_LAUNCH("tentative_sizes_kernel");
  run_cub("T offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, sizes.data(), t.row_offsets.data(),
                                         rows + 1, stream);
  });
  const index_t entries = context.read_back(t.row_offsets.data() + rows);
  t.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(entries), "T columns");
  t.values = DeviceBuffer<double>(static_cast<std::size_t>(entries), "T values");
  tentative_columns_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, block_size, k, aggregates.aggregate_of.data(), t.row_offsets.data(), t.columns.data());
  SPK_CHECK_LAUNCH("tentative_columns_kernel");

  // The batched QR.
  fit.coarse_candidates = DeviceBuffer<double>(
      static_cast<std::size_t>(count) * static_cast<std::size_t>(k) * static_cast<std::size_t>(k),
      "coarse near-null space");
  DeviceBuffer<unsigned long long> completed(std::vector<unsigned long long>{0},
                                             "completed columns");
  DeviceBuffer<index_t> short_aggregate(std::vector<index_t>{count}, "short aggregate");
  fit_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
      count, block_size, k, member_offsets.data(), members.data(), near_nullspace.data(),
      t.row_offsets.data(), t.values.data(), fit.coarse_candidates.data(), drop_tolerance,
      completed.data(), short_aggregate.data());
  SPK_CHECK_LAUNCH("fit_kernel");
  const index_t first_short = context.read_back(short_aggregate.data());
  if (first_short < count) {
    std::vector<index_t> offsets = member_offsets.to_host();
    const index_t size = offsets[static_cast<std::size_t>(first_short) + 1] -
                         offsets[static_cast<std::size_t>(first_short)];
    throw BadInput(too_few_dofs_message(first_short, size * block_size, k));
  }
  fit.dependent_columns = static_cast<index_t>(context.read_back(completed.data()));
  return fit;
}

}  // namespace spk
