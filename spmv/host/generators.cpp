// generate_matrix: dispatch on GeneratorSpec::kind.
#include "spmv/host/generators.hpp"

namespace spk {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
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
  throw BadInput("unknown generator kind '" + spec.kind + "' (expected " +
                 joined(generator_kinds()) + ")");
}

}  // namespace spk
