#include "spmv/registry.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/aligned_csr.hpp"
#include "spmv/formats/csr_scalar.hpp"
#include "spmv/formats/csr_vector.hpp"
#include "spmv/formats/cusparse_csr.hpp"
#include "spmv/formats/ellpack.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/tuning/auto_backend.hpp"

namespace spk {

namespace {

template <class T>
using BackendFactory = std::unique_ptr<SpmvBackend<T>> (*)(const CsrMatrix<T>&,
                                                           const SpmvOptions&, cudaStream_t,
                                                           TuningReport*);
template <class T>
using FormatFactory = std::unique_ptr<SpmvBackend<T>> (*)(const CsrMatrix<T>&,
                                                          const SpmvOptions&, cudaStream_t);

// A format's factory as the table calls it: only `auto` fills the tuning report.
template <class T, FormatFactory<T> make>
std::unique_ptr<SpmvBackend<T>> untuned(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                        cudaStream_t stream, TuningReport*) {
  return make(matrix, options, stream);
}

struct FormatEntry {
  Format format;
  const char* name;  // the spmv.format spelling
  const char* doc;   // one line: layout and thread mapping
  BackendFactory<float> make_float;
  BackendFactory<double> make_double;
};

// The one table of the formats, in the order errors, configs and the bench list them.
const FormatEntry format_table[] = {
    {Format::csr, "csr", "alias of csr-vector (the default format)",
     &untuned<float, &make_csr_vector<float>>, &untuned<double, &make_csr_vector<double>>},
    {Format::csr_scalar, "csr-scalar", "CSR, one thread per row (the naive baseline)",
     &untuned<float, &make_csr_scalar<float>>, &untuned<double, &make_csr_scalar<double>>},
    {Format::csr_vector, "csr-vector",
     "CSR, a sub-warp of 2..32 threads per row, long rows split over whole warps",
     &untuned<float, &make_csr_vector<float>>, &untuned<double, &make_csr_vector<double>>},
    {Format::aligned_csr, "aligned-csr",
     "CSR with rows zero-padded to multiples of the sub-warp width (Baskaran & Bordawekar)",
     &untuned<float, &make_aligned_csr<float>>, &untuned<double, &make_aligned_csr<double>>},
    {Format::ellpack, "ellpack",
     "ELLPACK, column-major, every row padded to the longest; one thread per row",
     &untuned<float, &make_ellpack<float>>, &untuned<double, &make_ellpack<double>>},
    {Format::ellpack_r, "ellpack-r",
     "ELLPACK plus row lengths: a thread reads only its row's entries (Vazquez et al.)",
     &untuned<float, &make_ellpack_r<float>>, &untuned<double, &make_ellpack_r<double>>},
    {Format::hyb, "hyb", "ELLPACK part of a histogram-chosen width plus a COO part (Bell & Garland)",
     &untuned<float, &make_hyb<float>>, &untuned<double, &make_hyb<double>>},
    {Format::cusparse, "cusparse", "cusparseSpMV on the CSR matrix (the vendor reference)",
     &untuned<float, &make_cusparse_csr<float>>, &untuned<double, &make_cusparse_csr<double>>},
    {Format::automatic, "auto", "the fastest of the others, measured on the matrix (cached)",
     &make_auto_backend<float>, &make_auto_backend<double>},
};

const FormatEntry& entry_of(Format format) {
  for (const FormatEntry& entry : format_table)
    if (entry.format == format) return entry;
  throw Error("spmv.format: no table entry for format number " +
              std::to_string(static_cast<int>(format)));
}

std::string valid_format_list() {
  std::string list;
  for (const FormatEntry& entry : format_table)
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
  for (const FormatEntry& entry : format_table)
    if (text == entry.name) return entry.format;
  throw BadInput("unknown spmv.format '" + text + "' (valid: " + valid_format_list() + ")");
}

const std::vector<Format>& all_formats() {
  static const std::vector<Format> formats = [] {
    std::vector<Format> list;
    for (const FormatEntry& entry : format_table) list.push_back(entry.format);
    return list;
  }();
  return formats;
}

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options,
                                                  cudaStream_t stream, TuningReport* tuning) {
  if (tuning != nullptr) *tuning = TuningReport{};
  const FormatEntry& entry = entry_of(options.format);
  if constexpr (std::is_same_v<T, float>)
    return entry.make_float(matrix, options, stream, tuning);
  else
    return entry.make_double(matrix, options, stream, tuning);
}

template std::unique_ptr<SpmvBackend<float>> make_spmv_backend(const CsrMatrix<float>&,
                                                               const SpmvOptions&,
                                                               cudaStream_t, TuningReport*);
template std::unique_ptr<SpmvBackend<double>> make_spmv_backend(const CsrMatrix<double>&,
                                                                const SpmvOptions&,
                                                                cudaStream_t, TuningReport*);

}  // namespace spk
