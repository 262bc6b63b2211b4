#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <string>
#include <vector>

#include "core/cub_call.cuh"
#include "core/device_kernels.cuh"
#include "solver/amg/aggregation_rules.hpp"
#include "solver/amg/device_aggregation.hpp"

namespace spk {

namespace {

using Key = std::uint64_t;

__global__ void __launch_bounds__(kSetupBlockSize) initial_keys_kernel(index_t nodes, Key* key) {
  for_each_index(nodes, [&](index_t node) {
    key[node] = mis2::pack_key(mis2::undecided, mis2::priority(node), node);
  });
}

// out_i = max(in_j) over j in {i} and i's neighbours.
__global__ void __launch_bounds__(kSetupBlockSize)
    closed_neighbourhood_max_kernel(index_t nodes, const index_t* __restrict__ row_offsets,
                                    const index_t* __restrict__ neighbours,
                                    const Key* __restrict__ in, Key* __restrict__ out) {
  for_each_index(nodes, [&](index_t node) {
    out[node] = mis2::closed_neighbourhood_max(node, row_offsets, neighbours, in);
  });
}

// The end of a round: join, removed or wait; *undecided += the nodes that wait.
__global__ void __launch_bounds__(kSetupBlockSize)
    decide_kernel(index_t nodes, Key* __restrict__ key, const Key* __restrict__ two_ring,
                  unsigned long long* undecided) {
  for_each_index(nodes, [&](index_t node) {
    bool waits = false;
    key[node] = mis2::decide(key[node], two_ring[node], &waits);
    if (waits) atomicAdd(undecided, 1ull);
  });
}

// flags[i] = 1 for a set node, 0 otherwise (and flags[nodes] = 0, for the scan's total).
__global__ void __launch_bounds__(kSetupBlockSize)
    root_flags_kernel(index_t nodes, const Key* __restrict__ key, index_t* __restrict__ flags) {
  for_each_index(nodes + 1, [&](index_t node) {
    flags[node] = node < nodes && mis2::state_of(key[node]) == mis2::in_set ? 1 : 0;
  });
}

// Roots: their number (the scan) is their aggregate; pass 1 for the others.
__global__ void __launch_bounds__(kSetupBlockSize)
    distance_one_kernel(index_t nodes, const index_t* __restrict__ row_offsets,
                        const index_t* __restrict__ neighbours, const Key* __restrict__ key,
                        const index_t* __restrict__ number, index_t* __restrict__ roots,
                        index_t* __restrict__ aggregate_of, Key* __restrict__ chosen) {
  for_each_index(nodes, [&](index_t node) {
    if (mis2::state_of(key[node]) == mis2::in_set) {
      roots[number[node]] = node;
      aggregate_of[node] = number[node];
      chosen[node] = key[node];
    } else {
      chosen[node] = mis2::distance_one_choice(node, row_offsets, neighbours, key);
    }
  });
}

// Pass 2, then every node takes its root's aggregate; *unreached lowers to the first node
// more than 2 steps from every root (none: it stays `nodes`), *isolated counts degree 0.
__global__ void __launch_bounds__(kSetupBlockSize)
    distance_two_kernel(index_t nodes, const index_t* __restrict__ row_offsets,
                        const index_t* __restrict__ neighbours, const Key* __restrict__ key,
                        const Key* __restrict__ chosen, const index_t* __restrict__ number,
                        index_t* __restrict__ aggregate_of, index_t* unreached,
                        unsigned long long* isolated) {
  for_each_index(nodes, [&](index_t node) {
    if (row_offsets[node] == row_offsets[node + 1]) atomicAdd(isolated, 1ull);
    if (mis2::state_of(key[node]) == mis2::in_set) return;
    const Key root_key =
        chosen[node] != 0 ? chosen[node]
                          : mis2::distance_two_choice(node, row_offsets, neighbours, key, chosen);
    if (root_key == 0) {
      atomicMin(unreached, node);
      return;
    }
    aggregate_of[node] = number[mis2::node_of(root_key)];
  });
}

}  // namespace

DeviceAggregates device_aggregate_mis2(const DeviceStrengthGraph& graph,
                                       const DeviceSetupContext& context, int distance) {
  const cudaStream_t stream = context.stream();
  const index_t n = graph.nodes;
  const unsigned int grid = setup_grid(n);
  const index_t* offsets = graph.row_offsets.data();
  const index_t* neighbours = graph.neighbours.data();
  DeviceBuffer<Key> key(static_cast<std::size_t>(n), "MIS(2) keys");
  DeviceBuffer<Key> one_ring(static_cast<std::size_t>(n), "MIS(2) 1-ring maxima");
  DeviceBuffer<Key> two_ring(static_cast<std::size_t>(n), "MIS(2) 2-ring maxima");
  DeviceBuffer<unsigned long long> counter(1, "MIS(2) counter");
  DeviceAggregates result;

  initial_keys_kernel<<<grid, kSetupBlockSize, 0, stream>>>(n, key.data());
  SPK_CHECK_LAUNCH("initial_keys_kernel");
  for (unsigned long long remaining = static_cast<unsigned long long>(n); remaining > 0;) {
    closed_neighbourhood_max_kernel<<<grid, kSetupBlockSize, 0, stream>>>(
        n, offsets, neighbours, key.data(), one_ring.data());  // max over the 1-ring
    SPK_CHECK_LAUNCH("closed_neighbourhood_max_kernel");
    if (distance == 2) {
      closed_neighbourhood_max_kernel<<<grid, kSetupBlockSize, 0, stream>>>(
          n, offsets, neighbours, one_ring.data(), two_ring.data());  // max over the 2-ring
      SPK_CHECK_LAUNCH("closed_neighbourhood_max_kernel");
    }
    SPK_CUDA_CHECK(cudaMemsetAsync(counter.data(), 0, counter.bytes(), stream));
    decide_kernel<<<grid, kSetupBlockSize, 0, stream>>>(
        n, key.data(), distance == 2 ? two_ring.data() : one_ring.data(), counter.data());
    SPK_CHECK_LAUNCH("decide_kernel");
    remaining = context.read_back(counter.data());
    ++result.rounds;
  }
  one_ring = DeviceBuffer<Key>();

  // Roots numbered in index order: an exclusive scan over their flags.
  DeviceBuffer<index_t> flags(static_cast<std::size_t>(n) + 1, "MIS(2) root flags");
  DeviceBuffer<index_t> number(static_cast<std::size_t>(n) + 1, "MIS(2) root numbers");
  root_flags_kernel<<<setup_grid(std::int64_t{n} + 1), kSetupBlockSize, 0, stream>>>(n, key.data(),
                                                                                     flags.data());
  SPK_CHECK_LAUNCH("root_flags_kernel");
  run_cub("MIS(2) root numbering", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, flags.data(), number.data(), n + 1,
                                         stream);
  });
  result.count = context.read_back(number.data() + n);
  result.roots = DeviceBuffer<index_t>(static_cast<std::size_t>(result.count), "aggregate roots");
  result.aggregate_of = DeviceBuffer<index_t>(static_cast<std::size_t>(n), "aggregate of node");

  Key* const chosen = two_ring.data();  // the 2-ring maxima are no longer needed
  distance_one_kernel<<<grid, kSetupBlockSize, 0, stream>>>(n, offsets, neighbours, key.data(),
                                                            number.data(), result.roots.data(),
                                                            result.aggregate_of.data(), chosen);
  SPK_CHECK_LAUNCH("distance_one_kernel");
  DeviceBuffer<index_t> unreached(std::vector<index_t>{n}, "MIS(2) check");
  SPK_CUDA_CHECK(cudaMemsetAsync(counter.data(), 0, counter.bytes(), stream));
  distance_two_kernel<<<grid, kSetupBlockSize, 0, stream>>>(
      n, offsets, neighbours, key.data(), chosen, number.data(), result.aggregate_of.data(),
      unreached.data(), counter.data());
  SPK_CHECK_LAUNCH("distance_two_kernel");
  result.isolated = static_cast<index_t>(context.read_back(counter.data()));
  const index_t first_unreached = context.read_back(unreached.data());
  if (first_unreached < n)
    throw Error("amg aggregation: node " + std::to_string(first_unreached) +
                " is more than 2 steps from every root (internal error: not an MIS(2))");
  return result;
}

}  // namespace spk
