#pragma once
// LinearOperator<T>: all a Krylov solver knows about its matrix. y = A x.
//
// Pointers live in the operator's memory space: device pointers for GPU backends, host
// pointers for the CPU reference operator. A GPU apply() is asynchronous on the stream the
// operator was built with; it never synchronizes the host.
#include <cstddef>
#include <string>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

enum class MemorySpace { host, device };

template <class T>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;

  // y = A x. x has cols() entries, y has rows() entries; x and y do not alias.
  virtual void apply(const T* x, T* y) const = 0;

  virtual index_t rows() const = 0;
  virtual index_t cols() const = 0;
  virtual MemorySpace space() const = 0;
  // Short name, e.g. "ellpack-r/texture".
  virtual std::string name() const = 0;
};

}  // namespace spk
