#pragma once
// The strength graph on the GPU (the device counterpart of solver/amg/strength.hpp): the same
// symmetrized graph S union S^T, built row by row with the host's own rules
// (solver/amg/strength_rules.hpp) from A and A^T (cusparseCsr2cscEx2: the a_ji of row i), so
// its arrays equal the host's bit for bit. Three kernels, a thread per row: |a_ii|, the size
// of each row of the union, then (after an exclusive scan of the sizes) its columns.
//
// A symmetric matrix (every a_ij has a_ji stored, bitwise equal: checked on the device, a
// binary search per entry in its column's row) needs no A^T: row i of A^T is row i of A
// (strong_symmetric_row), so the graph is found from A alone, and from a distributed level's
// whole rows without copying their local block (the halo slots end each row). Same graph;
// at 10^9 unknowns on 4 GPUs the transpose and the copy were 35 GB a GPU.
#include <optional>

#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

// An undirected graph on the rows of A, without self loops, in device memory: node i's
// neighbours are neighbours[row_offsets[i] .. row_offsets[i + 1]), sorted and unique.
struct DeviceStrengthGraph {
  index_t nodes = 0;
  DeviceBuffer<index_t> row_offsets;
  DeviceBuffer<index_t> neighbours;
};

// The symmetrized strength graph of the square device matrix `a` for threshold theta >= 0:
// device_symmetric_strength_graph when `a` is symmetric, else from A and A^T. Reads the number
// of graph edges back (synchronizes the context's stream).
DeviceStrengthGraph device_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                          const DeviceSetupContext& context);

// The same from A and A^T, whatever `a` is (A^T: a transpose with values, nnz entries).
DeviceStrengthGraph device_transposed_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                                     const DeviceSetupContext& context);

// The graph of the block of `a`'s first `own_columns` columns (its rows sorted; a.rows
// nodes, own_columns == a.rows: a square block, the whole of a square `a` or a distributed
// level's local block in its whole rows), without A^T or a copy of the block, if that block
// is symmetric; nullopt if it is not (the check reads one flag back).
std::optional<DeviceStrengthGraph> device_symmetric_strength_graph(
    const DeviceCsrMatrix<double>& a, index_t own_columns, double theta,
    const DeviceSetupContext& context);

}  // namespace spk
