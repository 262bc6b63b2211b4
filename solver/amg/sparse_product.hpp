#pragma once
// Host sparse products for the AMG setup, split into a symbolic phase (the pattern, computed
// once per hierarchy) and a numeric phase (the values, computed again by update_values):
//
//   C = A B        Gustavson's row-by-row product (Gustavson, "Two fast algorithms for sparse
//                  matrices: multiplication and permuted transposition", ACM TOMS 4(3), 1978):
//                  row i of C = sum_k a_ik (row k of B).
//   T = A^T        a counting sort of the entries by column (the same paper's transposition).
//
// Patterns are structural: an entry whose value happens to be zero stays stored, so the
// pattern depends on the input patterns only and the numeric phase can be repeated for new
// values. Rows are computed independently (OpenMP over rows) and each row's sums run in a
// fixed order, so the results are the same for any thread count.
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

// The pattern of A B (sorted columns, values zero). Throws BadInput when nnz(A B) does not fit
// a 32-bit index.
CsrMatrix<double> product_pattern(const CsrMatrix<double>& a, const CsrMatrix<double>& b);

// c.values = the values of A B on c's pattern, which must hold product_pattern(a, b).
void product_values(const CsrMatrix<double>& a, const CsrMatrix<double>& b, CsrMatrix<double>& c);

// A^T with its values; when `source` is not null, (*source)[k] is the entry of A that entry k
// of A^T came from (transpose_values refreshes A^T's values through it).
CsrMatrix<double> transpose(const CsrMatrix<double>& a, std::vector<index_t>* source);

// t.values[k] = a.values[source[k]]: A^T's values for new values of A (same pattern).
void transpose_values(const CsrMatrix<double>& a, const std::vector<index_t>& source,
                      CsrMatrix<double>& t);

}  // namespace spk
