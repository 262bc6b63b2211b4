#include <string>

#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spmv/formats/block_size.hpp"

namespace spk {

const char* to_string(XCache cache) {
  switch (cache) {
    case XCache::none: return "none";
    case XCache::ldg: return "ldg";
    case XCache::texture: return "texture";
    case XCache::shared: return "shared";
  }
  return "?";
}

XCache parse_x_cache(const std::string& text) {
  if (text == "none") return XCache::none;
  if (text == "ldg") return XCache::ldg;
  if (text == "texture") return XCache::texture;
  if (text == "shared") return XCache::shared;
  throw BadInput("unknown x_cache '" + text + "' (valid: none, ldg, texture, shared)");
}

std::string x_cache_refusal(Format format, XCache cache) {
  if (cache != XCache::shared) return "";
  if (format == Format::csr || format == Format::csr_vector || format == Format::automatic)
    return "";
  return std::string("shared is not supported by format '") + to_string(format) +
         "' (only csr and csr-vector stage x in shared memory)";
}

}  // namespace spk

namespace spk {

const char* to_string(GridShape grid) {
  return grid == GridShape::exact ? "exact" : "capped";
}

const char* to_string(MatrixValues values) {
  return values == MatrixValues::single ? "single" : "solver";
}

GridShape parse_grid_shape(const std::string& text) {
  if (text == "exact") return GridShape::exact;
  if (text == "capped") return GridShape::capped;
  throw BadInput("unknown grid '" + text + "' (valid: exact, capped)");
}

}  // namespace spk

namespace spk {

void validate_spmv_options(const SpmvOptions& options) {
  (void)to_string(options.format);  // throws BadInput for a value outside the enum
  (void)checked_block_size(options.block_size);
  const std::string refusal = x_cache_refusal(options.format, options.x_cache);
  if (!refusal.empty()) throw BadInput("spmv.x_cache: " + refusal);
  const int threads = options.threads_per_row;
  if (threads != 0 && threads != 2 && threads != 4 && threads != 8 && threads != 16 &&
      threads != 32)
    throw BadInput("spmv.threads_per_row: " + std::to_string(threads) +
                   " is not one of 0 (from the row statistics), 2, 4, 8, 16, 32");
  if (options.hyb_width < -1)
    throw BadInput("spmv.hyb_width: " + std::to_string(options.hyb_width) +
                   " is not -1 (histogram rule) or an integer >= 0");
  if (!(options.max_ell_fill >= 1.0)) throw BadInput("spmv.max_ell_fill: must be >= 1");
  if (options.sell_sigma < 32 || options.sell_sigma % 32 != 0)
    throw BadInput("spmv.sell_sigma: " + std::to_string(options.sell_sigma) +
                   " is invalid (a multiple of 32, the chunk height, at least 32)");
  const std::string& algorithm = options.cusparse_algorithm;
  if (algorithm != "alg1" && algorithm != "alg2" && algorithm != "default")
    throw BadInput("spmv.cusparse_algorithm: not one of alg1, alg2, default");
  if (!(options.tune_budget_ms >= 0.0)) throw BadInput("spmv.tune_budget_ms: must be >= 0");
  if (options.matrix_values != MatrixValues::solver &&
      options.matrix_values != MatrixValues::single)
    throw BadInput("spmv.matrix_values: not one of solver, single");
}

}  // namespace spk
