#pragma once
// SpmvOptions: how the SpMV backend is chosen and shaped. Fields match the `spmv:` keys of
// the YAML config one to one (see README "Config reference").
#include <string>

#include "spmv/format.hpp"

namespace spk {

// How a kernel reads the input vector x.
enum class XCache {
  none,     // plain global loads
  ldg,      // read-only data cache: const __restrict__ + __ldg
  texture,  // cudaTextureObject_t over x
};

// How many blocks a hand-written kernel is launched with.
enum class GridShape {
  exact,   // one block per group of rows: every thread (sub-warp) gets one row
  capped,  // one full wave (multiprocessors x resident blocks per SM); a grid-stride loop
           // walks the remaining rows
};

struct SpmvOptions {
  // csr (alias of csr-vector) | csr-scalar | csr-vector | aligned-csr | ellpack | ellpack-r
  // | hyb | cusparse | auto (measured choice, spmv/tuning/auto_backend.hpp); spmv/format.hpp
  Format format = Format::csr;
  XCache x_cache = XCache::ldg;
  int threads_per_row = 0;    // csr-vector, aligned-csr: 2,4,8,16,32; 0 = from row statistics
  int block_size = 256;       // threads per block for hand-written kernels
  int hyb_width = -1;         // hyb: ELL width; -1 = histogram rule
  double max_ell_fill = 3.0;  // ellpack: refuse when padded entries > max_ell_fill * nnz
  std::string cusparse_algorithm = "alg1";  // cusparse: alg1 | alg2 | default
  GridShape grid = GridShape::exact;        // hand-written kernels: exact | capped
  double tune_budget_ms = 2000.0;  // auto: wall-clock bound on tuning (conversions included)
  std::string tune_cache;          // auto: cache file; "" = default location, "off" = none
};

const char* to_string(XCache cache);
const char* to_string(GridShape grid);
// Throws spk::BadInput naming the accepted values.
GridShape parse_grid_shape(const std::string& text);
// Throws spk::BadInput naming the accepted values.
XCache parse_x_cache(const std::string& text);

}  // namespace spk
