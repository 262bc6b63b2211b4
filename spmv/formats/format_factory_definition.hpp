#pragma once
// The definition of make_format_backend (declared in format_factory.hpp) and
// SPK_FORMAT_BACKEND, for the file that implements a format. The registry includes only the
// declaration: it must not instantiate a factory without the format's FormatBackend.
//
// The factory first refuses an x_cache the format has no path for (x_cache_refusal in
// spkrylov/options.hpp: x_cache: shared outside csr-vector) and calls
// Backend::check_options(options), so bad options are refused before any (possibly long)
// conversion of the matrix, then builds the backend from the device CSR arrays (the layout is
// built on the device).
#include <memory>
#include <string>

#include "spkrylov/errors.hpp"
#include "spmv/formats/format_factory.hpp"

namespace spk {

template <Format format, class T, class Value>
std::unique_ptr<SpmvBackend<T>> make_format_backend(const DeviceCsr<Value>& matrix,
                                                    const SpmvOptions& options,
                                                    cudaStream_t stream) {
  using Backend = typename FormatBackend<format>::template type<T, Value>;
  const std::string refusal = x_cache_refusal(format, options.x_cache);
  if (!refusal.empty()) throw BadInput("spmv.x_cache: " + refusal);
  Backend::check_options(options);
  return std::make_unique<Backend>(matrix, options, stream);
}

}  // namespace spk

// At namespace spk scope in the format's file, after its backend class template
// Backend<T, Value>: the factories for float, double and fp32 values under double.
#define SPK_FORMAT_BACKEND(format, Backend)                                                  \
  template <>                                                                                \
  struct FormatBackend<format> {                                                             \
    template <class T, class Value>                                                          \
    using type = Backend<T, Value>;                                                          \
  };                                                                                         \
  template std::unique_ptr<SpmvBackend<float>> make_format_backend<format, float, float>(    \
      const DeviceCsr<float>&, const SpmvOptions&, cudaStream_t);                            \
  template std::unique_ptr<SpmvBackend<double>> make_format_backend<format, double, double>( \
      const DeviceCsr<double>&, const SpmvOptions&, cudaStream_t);                           \
  template std::unique_ptr<SpmvBackend<double>> make_format_backend<format, double, float>(  \
      const DeviceCsr<float>&, const SpmvOptions&, cudaStream_t)

// The same for a format that stores its values in the vectors' precision only: its factory of
// fp32 values under double refuses (BadInput naming the format).
#define SPK_FORMAT_BACKEND_SAME_PRECISION(format, Backend)                                   \
  template <>                                                                                \
  struct FormatBackend<format> {                                                             \
    template <class T, class Value>                                                          \
    using type = Backend<T>;                                                                 \
  };                                                                                         \
  template std::unique_ptr<SpmvBackend<float>> make_format_backend<format, float, float>(    \
      const DeviceCsr<float>&, const SpmvOptions&, cudaStream_t);                            \
  template std::unique_ptr<SpmvBackend<double>> make_format_backend<format, double, double>( \
      const DeviceCsr<double>&, const SpmvOptions&, cudaStream_t);                           \
  template <>                                                                                \
  std::unique_ptr<SpmvBackend<double>> make_format_backend<format, double, float>(           \
      const DeviceCsr<float>&, const SpmvOptions&, cudaStream_t) {                           \
    throw BadInput(std::string("spmv.format ") + to_string(format) +                         \
                   ": stores fp64 values only; precision mixed (spmv.matrix_values single) " \
                   "needs a hand-written format, e.g. csr-vector or ellpack-r");             \
  }
