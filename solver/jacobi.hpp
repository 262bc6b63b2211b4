#pragma once
// Jacobi preconditioner: M = diag(A)^-1, applied as z = d .* r.
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

// 1 / a_ii for every row. Throws BadInput naming the first row (1-based, as in Matrix
// Market files) whose diagonal is missing, zero or not finite.
template <class T>
std::vector<T> jacobi_inverse_diagonal(const CsrMatrix<T>& matrix);

}  // namespace spk
