#pragma once
// This process's diagonal block as block Jacobi reads it (solver/local_block.hpp,
// solver/block_jacobi.hpp), from the local/halo split (local_halo_split.hpp):
//
//   diagonal_block_positions   where each entry of SplitRows::local sits in the whole rows'
//                              values (diagonal_block_positions.hpp, free of MPI)
//   JoinedLocalOperator        the local block's product ordered with the solver's work. On a
//                              GPU with NCCL the local block's backend runs on a stream of its
//                              own (beside the exchange's kernels on the solver's stream); a
//                              preconditioner queues its products on the solver's stream, so
//                              each product is forked from it and joined back with the
//                              exchange's two events (HaloExchange::before_local/after_local),
//                              which CUDA graphs capture. No second copy of the block is made.
//                              Elsewhere (one stream, or the host) the events are no-ops.
//   agreed_setup               block_jacobi's setup communicates nothing, so a block that
//                              breaks the local kind on one process fails an agreed step
//                              (agreed_errors.hpp) on every process; other kinds' setups are
//                              collective and run as they are.
#include <string>

#include "distributed/agreed_errors.hpp"
#include "distributed/diagonal_block_positions.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/local_halo_split.hpp"
#include "spkrylov/options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class JoinedLocalOperator final : public LinearOperator<T> {
 public:
  // local: the matrix's local block product; exchange: the matrix's halo exchange (its events
  // order the local stream with the solver's). Both must outlive the operator.
  JoinedLocalOperator(const LinearOperator<T>& local, HaloExchange<T>& exchange)
      : local_(local), exchange_(exchange) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    exchange_.before_local();                // the local stream waits for the solver's work
    local_.apply_scaled(alpha, x, beta, y);  // y = alpha A_local x + beta y
    exchange_.after_local();                 // the solver's stream waits for the product
  }
  index_t rows() const override { return local_.rows(); }
  index_t cols() const override { return local_.cols(); }
  std::string name() const override { return local_.name(); }

 private:
  const LinearOperator<T>& local_;
  HaloExchange<T>& exchange_;
};

template <class Make>
auto agreed_setup(FaultWatch& watch, Preconditioner kind, Make&& make) {
  decltype(make()) made;
  if (kind == Preconditioner::block_jacobi)
    on_every_process(watch, [&] { made = make(); });
  else
    made = make();
  return made;
}

}  // namespace spk
