#pragma once
// SpmvOptions: how the SpMV backend is chosen and shaped. Fields match the `spmv:` keys of
// the YAML config one to one (see README "Config reference").
#include <string>
#include <vector>

namespace spk {

// How a kernel reads the input vector x.
enum class XCache {
  none,     // plain global loads
  ldg,      // read-only data cache: const __restrict__ + __ldg
  texture,  // cudaTextureObject_t over x
};

struct SpmvOptions {
  // csr (alias of csr-vector) | csr-scalar | csr-vector | aligned-csr | ellpack | ellpack-r
  // | hyb | cusparse
  std::string format = "csr";
  XCache x_cache = XCache::ldg;
  int threads_per_row = 0;     // csr-vector, aligned-csr: 2,4,8,16,32; 0 = from row statistics
  int block_size = 256;        // threads per block for hand-written kernels
  int hyb_width = -1;          // hyb: ELL width; -1 = histogram rule
  double max_ell_fill = 3.0;   // ellpack: refuse when padded entries > max_ell_fill * nnz
  std::string cusparse_algorithm = "alg1";  // cusparse: alg1 | alg2 | default
};

// Every format name the registry accepts, in a stable order (for errors and benchmarks).
const std::vector<std::string>& spmv_format_names();
const char* to_string(XCache cache);
// Throws spk::BadInput naming the accepted values.
XCache parse_x_cache(const std::string& text);

}  // namespace spk
