#pragma once
// The strength graph on the GPU (the device counterpart of solver/amg/strength.hpp): the same
// symmetrized graph S union S^T, built row by row with the host's own rules
// (solver/amg/strength_rules.hpp) from A and A^T (cusparseCsr2cscEx2: the a_ji of row i), so
// its arrays equal the host's bit for bit. Three kernels, a thread per row: |a_ii|, the size
// of each row of the union, then (after an exclusive scan of the sizes) its columns.
#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

// An undirected graph on the rows of A, without self loops, in device memory: node i's
// neighbours are neighbours[row_offsets[i] .. row_offsets[i + 1]), sorted and unique.
struct DeviceStrengthGraph {
  index_t nodes = 0;
  DeviceBuffer<index_t> row_offsets;
  DeviceBuffer<index_t> neighbours;
};

// The symmetrized strength graph of the square device matrix `a` for threshold theta >= 0.
// Reads the number of graph edges back (synchronizes the context's stream).
DeviceStrengthGraph device_strength_graph(const DeviceCsrMatrix<double>& a, double theta,
                                          const DeviceSetupContext& context);

}  // namespace spk
