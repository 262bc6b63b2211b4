#pragma once
// Matrix Market (https://math.nist.gov/MatrixMarket/formats.html) reading and writing.
//
// Reading matrices: `coordinate` with real, integer or pattern values (pattern entries are
// 1.0) and general, symmetric or skew-symmetric structure, expanded to the full matrix
// (symmetric files may store either triangle, but not both); `array` (dense, column-major;
// symmetric/skew-symmetric store the lower triangle) is read into a CSR that keeps every
// stored value. Duplicate coordinate entries are summed; entries may come in any order.
// Comment lines (%) and blank lines may appear anywhere after the banner. Rectangular
// matrices are accepted. Fortran exponents ("1.5D+03") are accepted.
//
// Reading vectors: an n x 1 or 1 x n matrix, `array` real/integer (one value a line) or
// `coordinate` (missing entries are 0, duplicates summed).
//
// Every error is one line "NAME:LINE: message" where NAME is the path as given (or the
// name passed to parse_*); quoted input has its control characters escaped. Malformed
// input throws BadInput; complex/hermitian files throw NotSupported. NaN and Inf values are
// refused, also when duplicate entries sum past the double range ("NAME: duplicate entries
// (i,j) ..."; no single line is at fault). Sizes past the 32-bit index range are refused
// before anything is allocated.
//
// Reading dense matrices (node coordinates, near-null-space vectors): an `array` file, rows x
// columns, real or integer (symmetric/skew-symmetric: the lower triangle, mirrored), returned
// row-major; a `coordinate` file is refused (its declared size could not bound the dense
// allocation).
//
// Writing: coordinate real general (matrices) and array real general (vectors, dense), values in
// shortest round-trip form (std::to_chars; reads back bit-identical, like %.17g). A file
// that cannot be opened or written throws BadInput naming the path.
#include <iosfwd>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

CsrMatrix<double> read_matrix_market(const std::string& path);
CsrMatrix<double> parse_matrix_market(std::istream& in, const std::string& name);

std::vector<double> read_vector_market(const std::string& path);
std::vector<double> parse_vector_market(std::istream& in, const std::string& name);

// A dense matrix, row-major: entry (i, j) is values[i * cols + j].
struct DenseMatrix {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<double> values;
};

DenseMatrix read_dense_market(const std::string& path);
DenseMatrix parse_dense_market(std::istream& in, const std::string& name);

void write_matrix_market(const std::string& path, const CsrMatrix<double>& matrix);
void write_dense_market(const std::string& path, const DenseMatrix& matrix);
void write_vector_market(const std::string& path, const std::vector<double>& vector);

}  // namespace spk
