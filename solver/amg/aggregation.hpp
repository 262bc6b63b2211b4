#pragma once
// Aggregation by a distance-2 maximal independent set, MIS(2), written as rounds over arrays
// in which every node reads only the previous round's arrays and writes only its own entry:
// the structure of a GPU implementation (Bell, Dalton & Olson, "Exposing fine-grained
// parallelism in algebraic multigrid methods", SISC 34(4), 2012; CUSP's
// maximal_independent_set.h and mis_aggregate.h), run here on the host with OpenMP. The GPU
// runs the same rounds (solver/amg/device_aggregation.hpp); both call the per-node rules of
// solver/amg/aggregation_rules.hpp, so they give the same aggregates, as any thread count does.
//
// Each node i carries a key (state, priority_i, i), compared lexicographically, with state
// removed < undecided < in the set, and priority_i a 30-bit hash of i with a fixed seed (the
// same on every run, path and thread count). A round:
//   1. m_i = max of the keys over the 2-ring of i (i itself, its neighbours and theirs): two
//      sweeps of "max over the closed 1-ring";
//   2. an undecided node whose own key is m_i joins the set (no set node within distance 2,
//      and it beats every undecided node there); an undecided node whose m_i is a set node's
//      key is removed (a set node is within distance 2).
// Rounds repeat until no node is undecided. Two nodes joining in one round are more than 2
// apart (each is the 2-ring maximum of the other's neighbourhood), so the set is a
// distance-2 independent set, and maximal: every removed node has a set node within 2.
//
// Aggregates: the set nodes are the roots, numbered in increasing index order. Every other
// node joins the root nearest to it in the graph (1 or 2 steps away); among equally near
// roots it joins the one with the largest (priority, index). Two synchronous passes compute
// exactly that: distance-1 nodes look at their neighbouring roots, then distance-2 nodes look
// at the roots their distance-1 neighbours chose.
//
// Isolated nodes (no strong neighbour) win their own round and become one-node aggregates.
// PyAMG's standard aggregation and CUSP's leave them out of every aggregate (a zero row of
// P, left to the smoother); here every node is in exactly one aggregate, so every row of the
// tentative prolongator has its one entry and the coarse correction reaches every unknown.
// The price: a row that is decoupled in A (an identity row of a Dirichlet condition) stays a
// one-node aggregate on every level; the hierarchy stops when coarsening stalls
// (solver/amg/hierarchy.hpp).
#include <cstdint>
#include <vector>

#include "solver/amg/strength.hpp"

namespace spk {

struct Aggregates {
  std::vector<index_t> aggregate_of;  // per node: its aggregate, 0 .. count - 1
  std::vector<index_t> roots;         // per aggregate: its root node (increasing)
  index_t count = 0;
  int rounds = 0;        // MIS(2) rounds
  index_t isolated = 0;  // nodes without a strong neighbour (one-node aggregates)
};

// The priorities of the nodes: a 30-bit hash of the index, fixed seed.
std::vector<std::uint32_t> aggregation_priorities(index_t nodes);

// MIS(2) aggregation of `graph` with aggregation_priorities. distance 1: the same rounds and
// pass 1 with 1-ring maxima, a distance-1 MIS (every other node has a root neighbour and joins
// it): smaller aggregates, which AMG for systems uses below the finest level, where the Galerkin
// matrices couple each aggregate with its neighbours' neighbours and MIS(2) would take in most
// of a small level (solver/amg/hierarchy.hpp).
Aggregates aggregate_mis2(const StrengthGraph& graph, int distance = 2);
// ... with given priorities (the low 30 bits of each are used; tests choose them).
Aggregates aggregate_mis2(const StrengthGraph& graph, const std::vector<std::uint32_t>& priorities,
                          int distance = 2);

}  // namespace spk
