#include "spmv/registry.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_check.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/device/device_fp32_values.hpp"
#include "spmv/formats/format_factory.hpp"
#include "spmv/tuning/auto_backend.hpp"

namespace spk {

namespace {

template <class T>
using BackendFactory = std::unique_ptr<SpmvBackend<T>> (*)(const DeviceCsr<T>&, const SpmvOptions&,
                                                           cudaStream_t, TuningReport*);
// A format's factory as the table calls it: only `auto` fills the tuning report.
template <Format format, class T>
std::unique_ptr<SpmvBackend<T>> untuned(const DeviceCsr<T>& matrix, const SpmvOptions& options,
                                        cudaStream_t stream, TuningReport*) {
  return make_format_backend<format, T, T>(matrix, options, stream);
}

// spmv.matrix_values single: the values rounded to fp32 (refused when one does not fit), then
// the format's factory for fp32 values under fp64 vectors.
template <Format format>
std::unique_ptr<SpmvBackend<double>> with_fp32_values(const DeviceCsr<double>& matrix,
                                                      const SpmvOptions& options,
                                                      cudaStream_t stream, TuningReport*) {
  const Fp32Values rounded(matrix, stream);
  auto backend = make_format_backend<format, double, float>(rounded.view(), options, stream);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the build has read the fp32 values
  return backend;
}

// The factory of each format, by enum (its name and doc are in format_names.cpp). A format
// added to the enum without a case here fails the build (-Wswitch, warnings are errors).
template <class T>
BackendFactory<T> factory_of(Format format) {
  switch (format) {
    case Format::csr: return &untuned<Format::csr_vector, T>;  // alias of csr-vector
    case Format::csr_scalar: return &untuned<Format::csr_scalar, T>;
    case Format::csr_vector: return &untuned<Format::csr_vector, T>;
    case Format::aligned_csr: return &untuned<Format::aligned_csr, T>;
    case Format::ellpack: return &untuned<Format::ellpack, T>;
    case Format::ellpack_r: return &untuned<Format::ellpack_r, T>;
    case Format::hyb: return &untuned<Format::hyb, T>;
    case Format::csr_merge: return &untuned<Format::csr_merge, T>;
    case Format::sell: return &untuned<Format::sell, T>;
    case Format::cusparse: return &untuned<Format::cusparse, T>;
    case Format::automatic: return &make_auto_backend<T>;  // the tuner fills the report
  }
  throw BadInput("spmv.format: no factory for format number " +
                 std::to_string(static_cast<int>(format)));
}

// The same table for fp32 values under fp64 vectors; `auto` tunes among these (its candidates
// carry matrix_values single and come back through make_spmv_backend).
BackendFactory<double> fp32_values_factory_of(Format format) {
  switch (format) {
    case Format::csr: return &with_fp32_values<Format::csr_vector>;
    case Format::csr_scalar: return &with_fp32_values<Format::csr_scalar>;
    case Format::csr_vector: return &with_fp32_values<Format::csr_vector>;
    case Format::aligned_csr: return &with_fp32_values<Format::aligned_csr>;
    case Format::ellpack: return &with_fp32_values<Format::ellpack>;
    case Format::ellpack_r: return &with_fp32_values<Format::ellpack_r>;
    case Format::hyb: return &with_fp32_values<Format::hyb>;
    case Format::csr_merge: return &with_fp32_values<Format::csr_merge>;
    case Format::sell: return &with_fp32_values<Format::sell>;
    case Format::cusparse: return &with_fp32_values<Format::cusparse>;
    case Format::automatic: return &make_auto_backend<double>;
  }
  throw BadInput("spmv.format: no factory for format number " +
                 std::to_string(static_cast<int>(format)));
}

template <class T>
BackendFactory<T> checked_factory_of(const SpmvOptions& options) {
  if (options.matrix_values == MatrixValues::solver) return factory_of<T>(options.format);
  if constexpr (std::is_same_v<T, double>) {
    return fp32_values_factory_of(options.format);
  } else {
    throw BadInput(
        "spmv.matrix_values single: the solver is already fp32 (precision single); fp32 values "
        "under fp64 vectors are precision mixed");
  }
}

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const DeviceCsr<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  if (tuning != nullptr) *tuning = TuningReport{};
  auto backend = checked_factory_of<T>(options)(matrix, options, stream, tuning);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the build has read the arrays
  return backend;
}

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  const DeviceCsrMatrix<T> uploaded = to_device(matrix, "matrix");
  return make_spmv_backend(describe_device_csr(uploaded, stream), options, stream, tuning);
}

#define SPK_INSTANTIATE_MAKE_SPMV_BACKEND(T)                                 \
  template std::unique_ptr<SpmvBackend<T>> make_spmv_backend(                \
      const DeviceCsr<T>&, const SpmvOptions&, cudaStream_t, TuningReport*); \
  template std::unique_ptr<SpmvBackend<T>> make_spmv_backend(                \
      const CsrMatrix<T>&, const SpmvOptions&, cudaStream_t, TuningReport*);
SPK_INSTANTIATE_MAKE_SPMV_BACKEND(float)
SPK_INSTANTIATE_MAKE_SPMV_BACKEND(double)
#undef SPK_INSTANTIATE_MAKE_SPMV_BACKEND

}  // namespace spk
