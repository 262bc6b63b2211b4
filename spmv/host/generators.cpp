// generate_matrix and generate_system: dispatch on GeneratorSpec::kind.
#include "spmv/host/generators.hpp"

namespace spk {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// The grid points of an n^dimensions grid (x fastest), h (i+1, j+1[, k+1]), h = 1/(n+1).
std::vector<double> grid_coordinates(int dimensions, int n) {
  std::int64_t points = 1;
  for (int d = 0; d < dimensions; ++d) points *= n;
  const double h = 1.0 / (n + 1.0);
  std::vector<double> coordinates(static_cast<std::size_t>(points * dimensions));
#pragma omp parallel for schedule(static)
  for (std::int64_t point = 0; point < points; ++point) {
    std::int64_t rest = point;
    for (int d = 0; d < dimensions; ++d, rest /= n)
      coordinates[point * dimensions + d] = h * static_cast<double>(rest % n + 1);
  }
  return coordinates;
}

}  // namespace

ConvectionScheme convection_scheme_of(const GeneratorSpec& spec) {
  if (spec.convection == "upwind") return ConvectionScheme::upwind;
  if (spec.convection == "central") return ConvectionScheme::central;
  throw BadInput(spec.kind + ": convection = '" + spec.convection + "' is invalid (expected " +
                 joined(convection_schemes()) + ")");
}

CsrMatrix<double> generate_matrix(const GeneratorSpec& spec) {
  if (spec.kind == "poisson2d") return generate_poisson2d(spec.n);
  if (spec.kind == "poisson3d") return generate_poisson3d(spec.n, spec.stencil);
  if (spec.kind == "convdiff2d")
    return generate_convdiff2d(spec.n, spec.peclet, convection_scheme_of(spec));
  if (spec.kind == "convdiff3d")
    return generate_convdiff3d(spec.n, spec.peclet, convection_scheme_of(spec));
  if (spec.kind == "elasticity3d") return generate_elasticity3d(spec.n);
  if (spec.kind == "powerlaw")
    return generate_powerlaw(spec.n, spec.avg_row_length, spec.exponent, spec.seed);
  if (spec.kind == "rmat") return generate_rmat(spec.scale, spec.edge_factor, spec.seed);
  if (spec.kind == "circuit")
    return generate_circuit(spec.n, spec.dense_rows, spec.dense_fraction, spec.seed);
  if (spec.kind == "beam3d") return generate_beam3d(spec.n, spec.poisson_ratio, false).matrix;
  throw BadInput("unknown generator kind '" + spec.kind + "' (expected " +
                 joined(generator_kinds()) + ")");
}

GeneratedSystem generate_system(const GeneratorSpec& spec, bool with_coordinates) {
  if (spec.kind == "beam3d") return generate_beam3d(spec.n, spec.poisson_ratio, with_coordinates);
  GeneratedSystem system;
  system.matrix = generate_matrix(spec);
  system.block_size = generator_block_size(spec.kind);
  if (with_coordinates && is_grid_kind(spec.kind)) {
    system.dimension = grid_stencil_of(spec)->dimensions;
    system.coordinates = grid_coordinates(system.dimension, spec.n);
  }
  return system;
}

}  // namespace spk
