#pragma once
// LinearOperator<T>: all a Krylov solver knows about its matrix. y = A x, or the accumulating
// form y = alpha A x + beta y.
//
// Pointers live in the operator's memory: device pointers for GPU backends, host pointers for
// the CPU reference operator. A GPU apply is asynchronous on the stream the operator was
// built with; it never synchronizes the host.
//
// Derived classes implement apply_scaled only; apply is a plain member of this base (so no
// derived declaration can hide it) that asks for y = 1 A x + 0 y.
#include <cstddef>
#include <string>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;

  // y = A x. x has cols() entries, y has rows() entries; x and y do not alias. y is only
  // written (never read).
  void apply(const T* x, T* y) const { apply_scaled(T(1), x, T(0), y); }

  // y = alpha A x + beta y. With beta == 0, y is only written, never read: whatever it holds
  // (NaN included) does not reach the result. x and y do not alias.
  virtual void apply_scaled(T alpha, const T* x, T beta, T* y) const = 0;

  // y = A x with the dot products of y folded into the product's own kernel: sums[0] = (w, y)
  // and, when count is 2, sums[1] = (y, y). w has rows() entries; w, y and sums live in the
  // operator's memory. The sums' order is fixed by the launch, never by timing (the same
  // bits on every call). Returns false, having done nothing, where the operator cannot fold
  // them (the default): the caller then applies and takes the dots itself. Square operators
  // of the ELL family fold them (spmv/formats/dot_output.cuh).
  virtual bool apply_dots(const T* x, T* y, const T* w, T* sums, int count) const {
    (void)x, (void)y, (void)w, (void)sums, (void)count;
    return false;
  }

  virtual index_t rows() const = 0;
  virtual index_t cols() const = 0;
  // Short name, e.g. "ellpack-r/texture".
  virtual std::string name() const = 0;
};

}  // namespace spk
