#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"

namespace spk {

namespace {

struct FormatName {
  Format format;
  const char* name;  // the spmv.format spelling
  const char* doc;   // one line: layout and thread mapping
};

// The one list of the formats' names and docs, in the order errors, configs and the bench list
// them. Host-only (the config reader and its fuzzer use it); the factories are in
// registry.cpp, by enum.
const FormatName format_names[] = {
    {Format::csr, "csr", "alias of csr-vector, the default"},
    {Format::csr_scalar, "csr-scalar", "CSR, one thread per row (the naive baseline)"},
    {Format::csr_vector, "csr-vector", "CSR, 2..32 threads per row, long rows split"},
    {Format::aligned_csr, "aligned-csr", "CSR, rows zero-padded to the sub-warp width"},
    {Format::ellpack, "ellpack", "ELLPACK, every row padded to the longest one"},
    {Format::ellpack_r, "ellpack-r", "ELLPACK plus row lengths: padding never read"},
    {Format::hyb, "hyb", "ELLPACK part plus a COO part for the long rows' overflow"},
    {Format::csr_merge, "csr-merge", "CSR on the merge path: equal rows + nonzeros per thread"},
    {Format::sell, "sell", "SELL-C-sigma: rows sorted in windows, chunks of 32 padded"},
    {Format::cusparse, "cusparse", "cusparseSpMV on the CSR matrix, the vendor reference"},
    {Format::automatic, "auto", "the fastest of the others, measured (and cached)"},
};

const FormatName& entry_of(Format format) {
  for (const FormatName& entry : format_names)
    if (entry.format == format) return entry;
  throw BadInput("spmv.format: not one of the formats (enum value " +
                 std::to_string(static_cast<int>(format)) + ")");
}

std::string valid_format_list() {
  std::string list;
  for (const FormatName& entry : format_names)
    list += (list.empty() ? "" : ", ") + std::string(entry.name);
  return list;
}

}  // namespace

const char* to_string(Format format) {
  return entry_of(format).name;
}

const char* format_doc(Format format) {
  return entry_of(format).doc;
}

Format parse_format(const std::string& text) {
  for (const FormatName& entry : format_names)
    if (text == entry.name) return entry.format;
  throw BadInput("unknown spmv.format '" + text + "' (valid: " + valid_format_list() + ")");
}

const std::vector<Format>& all_formats() {
  static const std::vector<Format> formats = [] {
    std::vector<Format> list;
    for (const FormatName& entry : format_names) list.push_back(entry.format);
    return list;
  }();
  return formats;
}

}  // namespace spk
