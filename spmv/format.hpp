#pragma once
// Format: the storage formats spmv.format names. Host-only: config readers and writers,
// the CLI and the tuning cache use these names without touching CUDA.
//
// spmv/registry.cpp holds the one table of the formats: per format its name, a one-line
// doc and its factory. The functions below read that table's name and doc columns, so a
// format's spelling is written down once.
#include <string>
#include <vector>

namespace spk {

enum class Format {
  csr,          // "csr": alias of csr-vector, the default
  csr_scalar,   // "csr-scalar"
  csr_vector,   // "csr-vector"
  aligned_csr,  // "aligned-csr"
  ellpack,      // "ellpack"
  ellpack_r,    // "ellpack-r"
  hyb,          // "hyb"
  cusparse,     // "cusparse"
  automatic,    // "auto": measured choice among the others
};

// The spmv.format spelling, e.g. "ellpack-r", "auto".
const char* to_string(Format format);
// One line on the format (layout and thread mapping), e.g. for help texts.
const char* format_doc(Format format);
// The format spelled `text`. Throws BadInput "unknown spmv.format 'coo' (valid: csr,
// csr-scalar, ...)".
Format parse_format(const std::string& text);
// Every format, in table order (the order errors, configs and the bench list them).
const std::vector<Format>& all_formats();

}  // namespace spk
