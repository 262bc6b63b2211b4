#pragma once
// The element of the beam3d generator (beam3d_generator.cpp), exposed for its tests: linear
// elasticity on one trilinear hexahedral (Q1, 8-node) element, the cube [0, h]^3.
//
//   Stiffness  K_e = integral over the cube of B^T D B, by 2 x 2 x 2 Gauss points (exact for
//              the cube: the integrand is of degree 2 in each coordinate). B (6 x 24) maps the
//              nodal displacements to the strains (e_xx, e_yy, e_zz, g_xy, g_yz, g_xz), the
//              shear strains g engineering ones (twice the tensor's); D (6 x 6) is the
//              isotropic material, Lame's lambda = E nu / ((1 + nu)(1 - 2 nu)) and
//              mu = E / (2 (1 + nu)): lambda + 2 mu on the normal diagonal, lambda off it,
//              mu on the shear diagonal.
//   Load       the consistent nodal load of a unit body force: integral of N_l over the cube
//              = h^3 / 8 for every node (trilinear shape functions integrate to a share of 1/8).
//
// Local node l (0..7) sits at h (l & 1, (l >> 1) & 1, (l >> 2) & 1); dof 3 l + c is its
// displacement component c (x, y, z). K_e is symmetric (computed on the upper triangle and
// mirrored, so exactly) and positive semi-definite, its null space the 6 rigid-body modes.
#include <array>

namespace spk {

constexpr int hex8_nodes = 8;
constexpr int hex8_dofs = 3 * hex8_nodes;

using Hex8Matrix = std::array<double, hex8_dofs * hex8_dofs>;  // row-major 24 x 24

Hex8Matrix hex8_stiffness(double h, double youngs_modulus, double poisson_ratio);

inline double hex8_body_force_share(double h) {
  return h * h * h / 8.0;
}

}  // namespace spk
