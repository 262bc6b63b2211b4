#include "solver/jacobi.hpp"

namespace spk {

std::vector<index_t> diagonal_positions(index_t rows, const std::vector<index_t>& row_offsets,
                                        const std::vector<index_t>& columns) {
  std::vector<index_t> positions(static_cast<std::size_t>(rows));
  for (index_t row = 0; row < rows; ++row)
    positions[static_cast<std::size_t>(row)] =
        last_diagonal_entry(row, row_offsets[row], row_offsets[row + 1], 1, columns.data());
  return positions;
}

void throw_diagonal_fault(const std::string& preconditioner, std::uint64_t fault) {
  if (fault == diagonal_fault::no_fault) return;
  const auto row = static_cast<long long>(fault / 4);
  switch (fault % 4) {
    case diagonal_fault::not_finite:
      throw BadDiagonal(preconditioner, row, "diagonal entry is not finite");
    case diagonal_fault::too_small:
      throw BadDiagonal(preconditioner, row, "diagonal entry is too small to invert");
    default: throw BadDiagonal(preconditioner, row, "diagonal entry is zero or missing");
  }
}

}  // namespace spk
