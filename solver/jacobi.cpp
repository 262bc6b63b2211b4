#include "solver/jacobi.hpp"

namespace spk {

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
