#pragma once
// The per-node rules of the MIS(2) aggregation (solver/amg/aggregation.hpp), written once for
// the host's loops (aggregation.cpp) and the device's kernels (device_aggregation.cu): the
// key packing, the hashed priorities, one round's decision and the two assignment passes.
// Each rule reads only arrays of the previous step and returns the node's own new entry, so
// both paths compute the same aggregates, bit for bit, for any thread count.
//
// A key is (state, priority, index) in one 64-bit integer, compared as an integer: bits 62-63
// the state (removed 0 < undecided 1 < in the set 2), bits 32-61 the 30-bit priority, bits 0-31
// the node. The integer order is the lexicographic order of the triple.
#include <cstdint>

#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk::mis2 {

constexpr std::uint64_t removed = 0, undecided = 1, in_set = 2;
constexpr std::uint32_t priority_mask = (1u << 30) - 1;
// Marks a distance-1 choice in the assignment passes (a root's rank may be 0).
constexpr std::uint64_t assigned_bit = std::uint64_t(1) << 63;

SPK_HOST_DEVICE inline std::uint64_t pack_key(std::uint64_t state, std::uint32_t priority,
                                              index_t node) {
  return (state << 62) | (static_cast<std::uint64_t>(priority & priority_mask) << 32) |
         static_cast<std::uint32_t>(node);
}
SPK_HOST_DEVICE inline std::uint64_t state_of(std::uint64_t key) {
  return key >> 62;
}
SPK_HOST_DEVICE inline index_t node_of(std::uint64_t key) {
  return static_cast<index_t>(key & 0xffffffffu);
}
// (priority, index) of a key: the order among roots.
SPK_HOST_DEVICE inline std::uint64_t rank_of(std::uint64_t key) {
  return key & ((std::uint64_t(1) << 62) - 1);
}
SPK_HOST_DEVICE inline std::uint64_t larger(std::uint64_t a, std::uint64_t b) {
  return a < b ? b : a;
}

// The priority of `node`: 30 bits of splitmix64(node + fixed seed), the same on every run,
// path and thread count.
SPK_HOST_DEVICE inline std::uint32_t priority(index_t node) {
  std::uint64_t z = (static_cast<std::uint64_t>(node) + 0x5eed) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<std::uint32_t>(z >> 34);  // the top 30 bits
}

// max(in_j) over j in {node} and node's neighbours: one sweep of a round.
SPK_HOST_DEVICE inline std::uint64_t closed_neighbourhood_max(index_t node,
                                                              const index_t* row_offsets,
                                                              const index_t* neighbours,
                                                              const std::uint64_t* in) {
  std::uint64_t best = in[node];
  for (index_t k = row_offsets[node]; k < row_offsets[node + 1]; ++k)
    best = larger(best, in[neighbours[k]]);
  return best;
}

// The end of a round for a node whose key is `own` and whose 2-ring maximum is `best`: an
// undecided node that is the maximum joins the set; one whose maximum is a set node is
// removed; otherwise it stays as it is. *still_undecided says whether it is undecided after.
SPK_HOST_DEVICE inline std::uint64_t decide(std::uint64_t own, std::uint64_t best,
                                            bool* still_undecided) {
  *still_undecided = false;
  if (state_of(own) != undecided) return own;
  const std::uint64_t rest = rank_of(own);                      // (priority, index)
  if (best == own) return (in_set << 62) | rest;                // the 2-ring maximum
  if (state_of(best) == in_set) return (removed << 62) | rest;  // a set node within 2
  *still_undecided = true;
  return own;
}

// Assignment pass 1 for a node that is not a root: the largest (priority, index) among its
// neighbouring roots, marked with assigned_bit, or 0 when no neighbour is a root. A root's
// entry is its own key (set by the caller).
SPK_HOST_DEVICE inline std::uint64_t distance_one_choice(index_t node, const index_t* row_offsets,
                                                         const index_t* neighbours,
                                                         const std::uint64_t* key) {
  std::uint64_t best = 0;
  for (index_t k = row_offsets[node]; k < row_offsets[node + 1]; ++k) {
    const std::uint64_t neighbour = key[neighbours[k]];
    if (state_of(neighbour) == in_set) best = larger(best, rank_of(neighbour) | assigned_bit);
  }
  return best;
}

// Assignment pass 2 for a node pass 1 left at 0: the best choice among its neighbours that are
// not roots (pass 1's `chosen`; 0 for a neighbour that has none).
SPK_HOST_DEVICE inline std::uint64_t distance_two_choice(index_t node, const index_t* row_offsets,
                                                         const index_t* neighbours,
                                                         const std::uint64_t* key,
                                                         const std::uint64_t* chosen) {
  std::uint64_t best = 0;
  for (index_t k = row_offsets[node]; k < row_offsets[node + 1]; ++k) {
    const index_t neighbour = neighbours[k];
    if (state_of(key[neighbour]) != in_set) best = larger(best, chosen[neighbour]);
  }
  return best;
}

}  // namespace spk::mis2
