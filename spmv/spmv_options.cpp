#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"

namespace spk {

const char* to_string(XCache cache) {
  switch (cache) {
    case XCache::none: return "none";
    case XCache::ldg: return "ldg";
    case XCache::texture: return "texture";
  }
  return "?";
}

XCache parse_x_cache(const std::string& text) {
  if (text == "none") return XCache::none;
  if (text == "ldg") return XCache::ldg;
  if (text == "texture") return XCache::texture;
  throw BadInput("unknown x_cache '" + text + "' (valid: none, ldg, texture)");
}

}  // namespace spk

namespace spk {

const char* to_string(GridShape grid) {
  return grid == GridShape::exact ? "exact" : "capped";
}

GridShape parse_grid_shape(const std::string& text) {
  if (text == "exact") return GridShape::exact;
  if (text == "capped") return GridShape::capped;
  throw BadInput("unknown grid '" + text + "' (valid: exact, capped)");
}

}  // namespace spk
