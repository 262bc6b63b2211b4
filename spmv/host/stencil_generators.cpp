// The PDE generators: Poisson, convection-diffusion and the elasticity-like block operator,
// each a GridStencil assembled by assemble_grid_operator (see generators.hpp for the math).
#include <cmath>
#include <cstdlib>

#include "spmv/host/generators.hpp"
#include "spmv/host/grid_stencil.hpp"

namespace spk {
namespace {

GridStencil laplacian_stencil(int dimensions) {
  GridStencil stencil;
  stencil.dimensions = dimensions;
  stencil.add(0, 0, 0, {2.0 * dimensions});
  for (int axis = 0; axis < dimensions; ++axis)
    for (int direction : {-1, 1})
      stencil.add(axis == 0 ? direction : 0, axis == 1 ? direction : 0, axis == 2 ? direction : 0,
                  {-1.0});
  return stencil;
}

GridStencil laplacian27_stencil() {
  GridStencil stencil;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        stencil.add(dx, dy, dz, {dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0});
  return stencil;
}

// -Laplace + convection along (1,1[,1]); the flow enters each axis from the -1 side.
GridStencil convection_diffusion_stencil(int dimensions, double peclet, ConvectionScheme scheme) {
  GridStencil stencil = laplacian_stencil(dimensions);
  for (StencilPoint& point : stencil.points) {
    const int offset = point.dx + point.dy + point.dz;  // one axis is nonzero, or none
    const bool centre = point.dx == 0 && point.dy == 0 && point.dz == 0;
    if (scheme == ConvectionScheme::upwind) {
      if (centre) point.block[0] += 2.0 * peclet * dimensions;
      if (offset == -1) point.block[0] -= 2.0 * peclet;
    } else {
      if (offset == -1) point.block[0] -= peclet;
      if (offset == 1) point.block[0] += peclet;
    }
  }
  return stencil;
}

GridStencil elasticity_stencil() {
  constexpr double coupling = 0.25;  // c
  GridStencil stencil;
  stencil.block_size = 3;
  double weight_sum = 0.0;  // W
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int distance_squared = dx * dx + dy * dy + dz * dz;
        if (distance_squared == 0) continue;
        const double weight = std::ldexp(1.0, 1 - distance_squared);  // 1, 1/2, 1/4
        weight_sum += weight;
        std::vector<double> block(9);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) block[a * 3 + b] = -weight * (a == b ? 1.0 : coupling);
        stencil.add(dx, dy, dz, std::move(block));
      }
  std::vector<double> own(9);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      own[a * 3 + b] = a == b ? weight_sum * (1.0 + 4.0 * coupling) : -coupling * weight_sum;
  stencil.add(0, 0, 0, std::move(own));
  return stencil;
}

void check_peclet(const char* name, double peclet) {
  if (!std::isfinite(peclet) || peclet < 0.0)
    throw BadInput(std::string(name) + ": peclet = " + std::to_string(peclet) +
                   " must be finite and >= 0");
}

GridStencil poisson3d_stencil(int stencil) {
  if (stencil == 7) return laplacian_stencil(3);
  if (stencil == 27) return laplacian27_stencil();
  throw BadInput("poisson3d: stencil = " + std::to_string(stencil) +
                 " is invalid (expected 7 or 27)");
}

}  // namespace

std::optional<GridStencil> grid_stencil_of(const GeneratorSpec& spec) {
  if (spec.kind == "poisson2d") return laplacian_stencil(2);
  if (spec.kind == "poisson3d") return poisson3d_stencil(spec.stencil);
  if (spec.kind == "convdiff2d" || spec.kind == "convdiff3d") {
    check_peclet(spec.kind.c_str(), spec.peclet);
    return convection_diffusion_stencil(spec.kind == "convdiff2d" ? 2 : 3, spec.peclet,
                                        convection_scheme_of(spec));
  }
  if (spec.kind == "elasticity3d") return elasticity_stencil();
  return std::nullopt;
}

CsrMatrix<double> generate_poisson2d(int n) {
  return assemble_grid_operator(laplacian_stencil(2), n, "poisson2d n=" + std::to_string(n));
}

CsrMatrix<double> generate_poisson3d(int n, int stencil) {
  return assemble_grid_operator(
      poisson3d_stencil(stencil), n,
      "poisson3d n=" + std::to_string(n) + " stencil=" + std::to_string(stencil));
}

CsrMatrix<double> generate_convdiff2d(int n, double peclet, ConvectionScheme scheme) {
  check_peclet("convdiff2d", peclet);
  return assemble_grid_operator(convection_diffusion_stencil(2, peclet, scheme), n,
                                "convdiff2d n=" + std::to_string(n));
}

CsrMatrix<double> generate_convdiff3d(int n, double peclet, ConvectionScheme scheme) {
  check_peclet("convdiff3d", peclet);
  return assemble_grid_operator(convection_diffusion_stencil(3, peclet, scheme), n,
                                "convdiff3d n=" + std::to_string(n));
}

CsrMatrix<double> generate_elasticity3d(int n) {
  return assemble_grid_operator(elasticity_stencil(), n, "elasticity3d n=" + std::to_string(n));
}

}  // namespace spk
