#include "spmv/registry.hpp"

#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/base/cuda_check.hpp"
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
  return make_format_backend<format, T>(matrix, options, stream);
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
    case Format::cusparse: return &untuned<Format::cusparse, T>;
    case Format::automatic: return &make_auto_backend<T>;  // the tuner fills the report
  }
  throw BadInput("spmv.format: no factory for format number " +
                 std::to_string(static_cast<int>(format)));
}

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const DeviceCsr<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  if (tuning != nullptr) *tuning = TuningReport{};
  auto backend = factory_of<T>(options.format)(matrix, options, stream, tuning);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the build has read the arrays
  return backend;
}

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  const UploadedCsr<T> uploaded(matrix, stream);
  return make_spmv_backend(uploaded.view(), options, stream, tuning);
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
