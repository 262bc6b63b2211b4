#pragma once
// DistributedMatrix<T>: this process's rows of a distributed matrix, ready to multiply: the
// local/halo split, the two block products, the halo exchange and the overlapped operator.
// Where they live is the builder's choice (DistributedBlocks): host CSR and MPI
// (host_blocks.hpp), or SpMV backends on a GPU with NCCL or host-staged MPI
// (device_distributed_solver.cu). Used by DistributedSolver, and by the CLI to form
// b = A x* (rhs from_solution). Not movable (the operator holds references into it).
#include <mpi.h>

#include <functional>
#include <memory>
#include <utility>

#include "distributed/distributed_operator.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/local_halo_split.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

// The products and the exchange of one process's rows, in one memory.
template <class T>
struct DistributedBlocks {
  std::unique_ptr<LinearOperator<T>> local;
  std::unique_ptr<LinearOperator<T>> halo;  // null when no entry lies in other processes' columns
  std::unique_ptr<HaloExchange<T>> exchange;
  // Copies the split's values (just changed, same pattern) into the blocks.
  std::function<void(const SplitRows<T>&)> refresh_values;
};

template <class T>
using BlockBuilder = std::function<DistributedBlocks<T>(const SplitRows<T>&, HaloPlan)>;

template <class T>
class DistributedMatrix {
 public:
  // Collective over comm (the exchange plan).
  DistributedMatrix(MPI_Comm comm, SplitRows<T> split, const BlockBuilder<T>& build,
                    bool overlap = true)
      : split_(std::move(split)),
        blocks_(build(split_, make_halo_plan(comm, split_.sources, split_.halo_columns,
                                             split_.first_column, split_.local.cols))),
        operator_(*blocks_.local, blocks_.halo ? *blocks_.halo : *blocks_.local, *blocks_.exchange,
                  blocks_.halo != nullptr, overlap) {}
  DistributedMatrix(const DistributedMatrix&) = delete;
  DistributedMatrix& operator=(const DistributedMatrix&) = delete;

  const DistributedOperator<T>& op() const { return operator_; }
  const LinearOperator<T>& local() const { return *blocks_.local; }
  const LinearOperator<T>* halo() const { return blocks_.halo.get(); }
  const SplitRows<T>& split() const { return split_; }
  HaloExchange<T>& exchange() { return *blocks_.exchange; }
  const HaloExchange<T>& exchange() const { return *blocks_.exchange; }

  // New values for the same pattern, nnz values in the caller's order (local, no messages).
  // The host split's (the GPU path's split lives on the device and takes its values there).
  void update_values(const T* values) {
    if (split_.pattern.columns.size() != static_cast<std::size_t>(split_.entries()))
      throw Error(
          "DistributedMatrix::update_values: the split's entries are not on the host "
          "(internal error)");
    scatter_values(split_, values);
    if (blocks_.refresh_values) blocks_.refresh_values(split_);
  }

 private:
  SplitRows<T> split_;
  DistributedBlocks<T> blocks_;
  DistributedOperator<T> operator_;
};

}  // namespace spk
