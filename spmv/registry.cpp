#include "spmv/registry.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/format_factory.hpp"
#include "spmv/tuning/auto_backend.hpp"

namespace spk {

namespace {

template <class T>
using BackendFactory = std::unique_ptr<SpmvBackend<T>> (*)(const CsrMatrix<T>&, const SpmvOptions&,
                                                           cudaStream_t, TuningReport*);
// A format's factory as the table calls it: only `auto` fills the tuning report.
template <Format format, class T>
std::unique_ptr<SpmvBackend<T>> untuned(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                        cudaStream_t stream, TuningReport*) {
  return make_format_backend<format, T>(matrix, options, stream);
}

struct Factories {
  BackendFactory<float> make_float;
  BackendFactory<double> make_double;
};

struct FormatEntry {
  Format format;
  const char* name;  // the spmv.format spelling
  const char* doc;   // one line: layout and thread mapping
  Factories factories;
};

// The entry of a format built by make_format_backend (its file, format_factory.hpp); `csr` is
// an alias, built as csr-vector.
template <Format format, Format built_as = format>
constexpr FormatEntry table_entry(const char* name, const char* doc) {
  return {format, name, doc, {&untuned<built_as, float>, &untuned<built_as, double>}};
}

// The entry of `auto`, built by the tuner (spmv/tuning/auto_backend.hpp), which fills the report.
constexpr FormatEntry auto_entry(const char* name, const char* doc) {
  return {Format::automatic, name, doc, {&make_auto_backend<float>, &make_auto_backend<double>}};
}

// The one table of the formats, in the order errors, configs and the bench list them.
const FormatEntry format_table[] = {
    table_entry<Format::csr, Format::csr_vector>("csr", "alias of csr-vector, the default"),
    table_entry<Format::csr_scalar>("csr-scalar", "CSR, one thread per row (the naive baseline)"),
    table_entry<Format::csr_vector>("csr-vector", "CSR, 2..32 threads per row, long rows split"),
    table_entry<Format::aligned_csr>("aligned-csr", "CSR, rows zero-padded to the sub-warp width"),
    table_entry<Format::ellpack>("ellpack", "ELLPACK, every row padded to the longest one"),
    table_entry<Format::ellpack_r>("ellpack-r", "ELLPACK plus row lengths: padding never read"),
    table_entry<Format::hyb>("hyb", "ELLPACK part plus a COO part for the long rows' overflow"),
    table_entry<Format::cusparse>("cusparse",
                                  "cusparseSpMV on the CSR matrix, the vendor reference"),
    auto_entry("auto", "the fastest of the others, measured (and cached)"),
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
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  if (tuning != nullptr) *tuning = TuningReport{};
  const FormatEntry& entry = entry_of(options.format);
  if constexpr (std::is_same_v<T, float>)
    return entry.factories.make_float(matrix, options, stream, tuning);
  else
    return entry.factories.make_double(matrix, options, stream, tuning);
}

#define SPK_INSTANTIATE_MAKE_SPMV_BACKEND(T)                  \
  template std::unique_ptr<SpmvBackend<T>> make_spmv_backend( \
      const CsrMatrix<T>&, const SpmvOptions&, cudaStream_t, TuningReport*);
SPK_INSTANTIATE_MAKE_SPMV_BACKEND(float)
SPK_INSTANTIATE_MAKE_SPMV_BACKEND(double)
#undef SPK_INSTANTIATE_MAKE_SPMV_BACKEND

}  // namespace spk
