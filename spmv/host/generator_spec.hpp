#pragma once
// GeneratorSpec: parameters of the built-in matrix generators (spmv/host/generators.hpp),
// the `matrix: {generate: {...}}` keys of the config.
#include <cstdint>
#include <string>
#include <vector>

namespace spk {

struct GeneratorSpec {
  std::string kind = "poisson3d";     // poisson2d | poisson3d | convdiff2d | convdiff3d
                                      // | elasticity3d | powerlaw
  int n = 64;                         // grid points per dimension (powerlaw: number of rows)
  int stencil = 7;                    // poisson3d: 7 | 27
  double peclet = 10.0;               // convdiff*: cell Peclet number
  std::string convection = "upwind";  // convdiff*: upwind | central differences
  double avg_row_length = 8.0;        // powerlaw: mean nonzeros per row
  double exponent = 2.0;              // powerlaw: tail exponent of the row-length distribution
  std::uint64_t seed = 1;
};

// Valid values of `kind` and of `convection`, for config validation and messages.
const std::vector<std::string>& generator_kinds();
const std::vector<std::string>& convection_schemes();

}  // namespace spk
