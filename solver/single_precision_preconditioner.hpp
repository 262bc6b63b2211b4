#pragma once
// A preconditioner applied in fp32 under an fp64 Krylov method (mixed precision, as AmgX's
// dDFI mode and Ginkgo's mixed-precision multigrid do): z = M32^-1 r as
//   r32 = fp32(r);  z32 = M32^-1 r32;  z = fp64(z32)
// where M32 is the inner preconditioner built in a space of the same kind in fp32 (on the
// GPU: the same stream and handles) from the matrix's values rounded to fp32. The inner
// preconditioner reads half the bytes per application; the outer method keeps its vectors,
// reductions, residuals and stopping test in fp64, so the final true residual meets the same
// fp64 tolerance (Anzt et al., "Adaptive precision in block-Jacobi preconditioning for
// iterative sparse linear system solvers", Concurrency Computat. 2019, for the argument that
// a preconditioner needs less precision than the iteration). M32 is a fixed linear operator,
// so CG stays valid as long as fp32 rounding keeps it positive definite, which holds for the
// AMG V-cycle on the SPD systems it is meant for; the iteration count may differ from the
// fp64 cycle's by round-off (measured: BENCHMARKS.md).
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "solver/preconditioner.hpp"

namespace spk {

template <class Space>
class SinglePrecisionPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;  // double
  using InnerSpace = decltype(std::declval<Space&>().template with_precision<float>());
  using Inner = KrylovPreconditioner<InnerSpace>;

  // make_inner(inner_space, fp32 CSR values) builds M32; rows and nnz of the matrix;
  // csr_values: its fp64 values in the space (read during construction only).
  template <class MakeInner>
  SinglePrecisionPreconditioner(Space& space, std::size_t rows, std::size_t nnz,
                                const T* csr_values, MakeInner&& make_inner)
      : space_(space),
        inner_space_(space.template with_precision<float>()),
        rows_(rows),
        nnz_(nnz),
        values_(inner_space_.template allocate<float>(nnz, "fp32 preconditioner values")),
        r_(inner_space_.template allocate<float>(rows, "fp32 preconditioner input")),
        z_(inner_space_.template allocate<float>(rows, "fp32 preconditioner output")) {
    inner_space_.convert(nnz_, csr_values, values_.data());
    inner_ = make_inner(inner_space_, static_cast<const float*>(values_.data()));
  }

  void apply(const T* r, T* z) override {
    inner_space_.convert(rows_, r, r_.data());  // r32 = fp32(r)
    inner_->apply(r_.data(), z_.data());        // z32 = M32^-1 r32
    space_.convert(rows_, z_.data(), z);        // z = fp64(z32)
  }

  void update_values(const T* csr_values) override {
    inner_space_.convert(nnz_, csr_values, values_.data());
    inner_->update_values(values_.data());
  }

  void check() override { inner_->check(); }
  std::string name() const override { return inner_->name(); }

  PreconditionerInfo info() const override {
    PreconditionerInfo info = inner_->info();
    info.details.emplace_back("precision", "single (fp32 cycle; the Krylov method in fp64)");
    return info;
  }

 private:
  Space& space_;
  InnerSpace inner_space_;
  std::size_t rows_, nnz_;
  typename InnerSpace::template Array<float> values_, r_, z_;
  std::unique_ptr<Inner> inner_;
};

}  // namespace spk
