#pragma once
// GeneratorSpec: parameters of the built-in matrix generators (spmv/host/generators.hpp),
// the `matrix: {generate: {...}}` keys of the config.
#include <cstdint>
#include <string>
#include <vector>

namespace spk {

struct GeneratorSpec {
  std::string kind = "poisson3d";     // poisson2d | poisson3d | convdiff2d | convdiff3d
                                      // | elasticity3d | beam3d | powerlaw | rmat | circuit
  int n = 64;                         // grid points per dimension (powerlaw, circuit: rows;
                                      // beam3d: elements across the cross-section)
  int stencil = 7;                    // poisson3d: 7 | 27
  double peclet = 10.0;               // convdiff*: cell Peclet number
  std::string convection = "upwind";  // convdiff*: upwind | central differences
  double avg_row_length = 8.0;        // powerlaw: mean nonzeros per row
  double exponent = 2.0;              // powerlaw: tail exponent of the row-length distribution
  int scale = 16;                     // rmat: 2^scale vertices (rows)
  int edge_factor = 16;               // rmat: edges drawn per vertex (before merging)
  int dense_rows = 4;                 // circuit: power/ground nets (dense rows and columns)
  double dense_fraction = 0.05;       // circuit: share of the nodes each net touches
  double poisson_ratio = 0.3;         // beam3d: Poisson's ratio, in (0, 0.45]
  std::uint64_t seed = 1;             // powerlaw, rmat, circuit
};

// Valid values of `kind` and of `convection`, for config validation and messages.
const std::vector<std::string>& generator_kinds();
// True for the kinds built from a grid stencil (every process can build its own rows), false
// for the random ones (powerlaw, rmat, circuit), which are built whole.
bool is_grid_kind(const std::string& kind);
// What a kind provides besides its matrix (generate_system): unknowns per node (3 for
// elasticity3d and beam3d, else 1), node coordinates (the grid kinds and beam3d), and a load
// vector for `rhs: load` (beam3d).
int generator_block_size(const std::string& kind);
bool generator_has_coordinates(const std::string& kind);
bool generator_has_load(const std::string& kind);
const std::vector<std::string>& convection_schemes();

}  // namespace spk
