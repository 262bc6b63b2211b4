#pragma once
// DistributedMatrix<T>: this process's rows of a distributed matrix, ready to multiply: the
// local/halo split, the halo exchange plan and the overlapped operator (CPU reference CSR
// blocks). Used by DistributedSolver, and by the CLI to form b = A x* (rhs from_solution).
// Construction is collective over comm (the exchange plan); not movable (the operators hold
// references into it).
#include <mpi.h>

#include <utility>

#include "distributed/distributed_operator.hpp"
#include "distributed/halo_exchange.hpp"
#include "distributed/local_halo_split.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

template <class T>
class DistributedMatrix {
 public:
  DistributedMatrix(MPI_Comm comm, SplitRows<T> split)
      : split_(std::move(split)),
        exchange_(comm, split_.sources, split_.halo_columns, split_.first_row, split_.local.rows),
        local_operator_(split_.local),
        halo_operator_(split_.halo),
        operator_(local_operator_, halo_operator_, exchange_, split_.halo.nnz() > 0) {}
  DistributedMatrix(const DistributedMatrix&) = delete;
  DistributedMatrix& operator=(const DistributedMatrix&) = delete;

  const LinearOperator<T>& op() const { return operator_; }
  const SplitRows<T>& split() const { return split_; }
  HaloExchange<T>& exchange() { return exchange_; }
  const HaloExchange<T>& exchange() const { return exchange_; }

  // New values for the same pattern, nnz values in the caller's order (local, no messages).
  void update_values(const T* values) { scatter_values(split_, values); }

 private:
  SplitRows<T> split_;
  HaloExchange<T> exchange_;
  HostCsrOperator<T> local_operator_;
  HostCsrOperator<T> halo_operator_;
  DistributedOperator<T> operator_;
};

}  // namespace spk
