#pragma once
// Block Jacobi without overlap (PETSc's PCBJACOBI, Ginkgo's Schwarz without overlap): with the
// rows split over P processes and A_pp the diagonal block of process p (its rows, the columns
// it owns),
//
//   M = blockdiag(M_11, ..., M_PP),   M_pp = the local kind (ILU(0), IC(0), AMG, Chebyshev or
//                                      Jacobi) built on A_pp alone,
//
// so z = M^-1 r is z_p = M_pp^-1 r_p on every process at once, with no communication: the
// entries coupling two processes (the halo block) are left out of M. This is the additive
// Schwarz method with no overlap, the simplest domain decomposition preconditioner (Saad,
// "Iterative Methods for Sparse Linear Systems", 2nd ed., SIAM 2003, §12.1 block Jacobi and
// §14.3 additive Schwarz; Smith, Bjørstad & Gropp, "Domain Decomposition", 1996). M_pp keeps
// the local kind's symmetry: block IC(0) and block AMG stay SPD for CG on an SPD A. Its quality
// falls as the blocks shrink (more processes, more couplings dropped), so iteration counts grow
// with P; on one process the block is A and M is the local kind itself.
//
// Written once over the spaces: the local preconditioner runs in LocalSpaceOf<Space>::type
// (solver/local_block.hpp), the solver's space itself on one process, the plain Inner space
// (dot products over this process's rows only) of a DistributedSpace<Inner>. update_values
// receives the whole rows' values and gathers the block's entries (Space::gather) before
// forwarding them. A pivot fault of the local kind names the global row and, over several
// processes, the rank whose block broke it.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/local_block.hpp"
#include "solver/preconditioner.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"

namespace spk {

template <class Space>
class BlockJacobiPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;
  using Local = typename LocalSpaceOf<Space>::type;

  // kind: the local kind; block: this process's diagonal block (nullptr: one block, the
  // whole matrix, whose values update_values forwards unchanged); make_local(): the local
  // kind's preconditioner on the block, in `space` seen as a Local.
  template <class MakeLocal>
  BlockJacobiPreconditioner(Space& space, Preconditioner kind, const LocalBlock<Local>* block,
                            MakeLocal&& make_local)
      : space_(space), kind_(kind), blocked_(block != nullptr) {
    if (blocked_) {
      nnz_ = static_cast<std::size_t>(block->nnz);
      first_row_ = block->first_row;
      rank_ = block->rank;
      rows_ = block->pattern.rows;
      positions_ = space_.template allocate<index_t>(nnz_, "block Jacobi value positions");
      values_ = space_.template allocate<T>(nnz_, "block Jacobi block values");
      space_.copy_within(block->positions, nnz_, positions_.data());
    }
    try {
      local_ = make_local();
    } catch (const BadDiagonal& error) {
      throw_block_fault(error);
    }
  }

  // z_p = M_pp^-1 r_p: this process's rows only
  void apply(const T* r, T* z) override { local_->apply(r, z); }

  void update_values(const T* csr_values) override {
    if (!blocked_) {
      local_->update_values(csr_values);
      return;
    }
    space_.gather(nnz_, csr_values, positions_.data(), values_.data());  // A_pp's entries
    local_->update_values(values_.data());
  }

  void check() override {
    try {
      local_->check();
    } catch (const BadDiagonal& error) {
      throw_block_fault(error);
    }
  }

  std::string name() const override {
    return std::string("block_jacobi(") + to_string(kind_) + ")";
  }
  // Jacobi on the blocks is Jacobi: fused vector ops fold it as they fold Jacobi's.
  const T* inverse_diagonal() const override { return local_->inverse_diagonal(); }

  // The local kind's, named block_jacobi, with the local kind and (over several processes)
  // this process's block first.
  PreconditionerInfo info() const override {
    PreconditionerInfo info = local_->info();
    info.name = "block_jacobi";
    std::vector<std::pair<std::string, std::string>> details = {{"local", to_string(kind_)}};
    if (blocked_) {
      details.emplace_back("block_rows", std::to_string(rows_));
      details.emplace_back("block_nnz", std::to_string(nnz_));
    }
    details.insert(details.end(), info.details.begin(), info.details.end());
    info.details = std::move(details);
    return info;
  }

 private:
  // The local kind's fault, its row made global and its block named.
  [[noreturn]] void throw_block_fault(const BadDiagonal& error) const {
    std::string problem = error.problem();
    if (rank_ >= 0) problem += " (in rank " + std::to_string(rank_) + "'s diagonal block)";
    throw BadDiagonal(name(), static_cast<long long>(first_row_) + error.row(), problem);
  }

  Local& space_;
  Preconditioner kind_;
  bool blocked_;
  std::size_t nnz_ = 0;
  global_index_t first_row_ = 0;
  int rank_ = -1;
  index_t rows_ = 0;
  typename Local::template Array<index_t> positions_;
  typename Local::template Array<T> values_;
  std::unique_ptr<KrylovPreconditioner<Local>> local_;
};

}  // namespace spk
