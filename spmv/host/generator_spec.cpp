#include "spmv/host/generator_spec.hpp"

namespace spk {

const std::vector<std::string>& generator_kinds() {
  static const std::vector<std::string> kinds = {"poisson2d",  "poisson3d",    "convdiff2d",
                                                 "convdiff3d", "elasticity3d", "beam3d",
                                                 "powerlaw",   "rmat",         "circuit"};
  return kinds;
}

bool is_grid_kind(const std::string& kind) {
  return kind == "poisson2d" || kind == "poisson3d" || kind == "convdiff2d" ||
         kind == "convdiff3d" || kind == "elasticity3d";
}

int generator_block_size(const std::string& kind) {
  return kind == "elasticity3d" || kind == "beam3d" ? 3 : 1;
}

bool generator_has_coordinates(const std::string& kind) {
  return is_grid_kind(kind) || kind == "beam3d";
}

bool generator_has_load(const std::string& kind) {
  return kind == "beam3d";
}

const std::vector<std::string>& convection_schemes() {
  static const std::vector<std::string> schemes = {"upwind", "central"};
  return schemes;
}

}  // namespace spk
