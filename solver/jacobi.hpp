#pragma once
// Jacobi (diagonal) preconditioner: M = diag(A), applied as z = D^-1 r (one elementwise
// product per apply). Setup finds, once, where each row's diagonal entry sits in the CSR
// value array (in the space: a kernel on the device, from the device CSR arrays); computing D^-1
// from (new) values is then one gather-and-invert pass in the space (invert_entries), with no host
// copy on the device. A missing, zero, non-finite or uninvertible diagonal entry is reported by
// check() as BadDiagonal, naming the first such row (0-based).
#include <cstdint>
#include <string>
#include <vector>

#include "solver/jacobi_entry.hpp"
#include "solver/preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// The index of a_ii in the CSR value array of each row, -1 where the row has none (the last
// one where a row holds it twice): host arrays, for host-side setups (the AMG hierarchy); the
// spaces find the same positions in their own memory (find_diagonal_positions).
std::vector<index_t> diagonal_positions(index_t rows, const std::vector<index_t>& row_offsets,
                                        const std::vector<index_t>& columns);

// Throws BadDiagonal for a fault code other than no_fault.
void throw_diagonal_fault(const std::string& preconditioner, std::uint64_t fault);

template <class Space>
class JacobiPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;

  // pattern: the matrix's pattern in the space; csr_values: its nnz values in CSR order, in
  // the space.
  JacobiPreconditioner(Space& space, const SpacePattern& pattern, const T* csr_values)
      : space_(space),
        n_(static_cast<std::size_t>(pattern.rows)),
        positions_(space.template allocate<index_t>(n_, "Jacobi diagonal positions")),
        inverse_diagonal_(space.template allocate<T>(n_, "Jacobi inverse diagonal")),
        fault_(space.template allocate<std::uint64_t>(1, "Jacobi fault code")) {
    // Wider than square is fine: a process's rows of a distributed matrix (own columns
    // first, then the halo's; distributed/local_halo_split.hpp) hold a_ii at column i.
    if (pattern.rows > pattern.cols)
      throw BadInput("jacobi: the matrix has fewer columns than rows (" +
                     std::to_string(pattern.rows) + " x " + std::to_string(pattern.cols) +
                     "): row i needs its diagonal entry a_ii");
    space.find_diagonal_positions(pattern.rows, pattern.row_offsets, pattern.columns,
                                  positions_.data());
    update_values(csr_values);
    check();
  }

  void apply(const T* r, T* z) override {
    space_.multiply_elementwise(n_, inverse_diagonal_.data(), r, z);  // z = D^-1 r
  }

  void update_values(const T* csr_values) override {
    space_.invert_entries(n_, csr_values, positions_.data(), inverse_diagonal_.data(),
                          fault_.data());  // D^-1 = 1 / a_ii
    check_pending_ = true;
  }

  // The fault stays until an update without one: every solve until then refuses to run.
  void check() override {
    if (check_pending_) fault_code_ = space_.download(fault_.data(), 1)[0];
    check_pending_ = false;
    throw_diagonal_fault(name(), fault_code_);
  }

  std::string name() const override { return "jacobi"; }

  // D^-1 and the positions of a_ii in the CSR values (-1: none), in the space.
  const T* inverse_diagonal() const override { return inverse_diagonal_.data(); }
  const index_t* positions() const { return positions_.data(); }

 private:
  Space& space_;
  std::size_t n_;
  typename Space::template Array<index_t> positions_;
  typename Space::template Array<T> inverse_diagonal_;
  typename Space::template Array<std::uint64_t> fault_;
  bool check_pending_ = false;
  std::uint64_t fault_code_ = diagonal_fault::no_fault;
};

}  // namespace spk
