#include "spmv/registry.hpp"

#include <functional>
#include <map>
#include <string>

#include "spmv/base/error.hpp"
// Format headers (one per backend family).
#include "spmv/formats/ellpack.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/aligned_csr.hpp"
#include "spmv/formats/csr_scalar.hpp"
#include "spmv/formats/csr_vector.hpp"
#include "spmv/formats/cusparse_csr.hpp"
#include "spmv/tuning/auto_backend.hpp"
// @@FORMAT-INCLUDES@@

namespace spk {

namespace {

template <class T>
using BackendFactory = std::function<std::unique_ptr<SpmvBackend<T>>(
    const CsrMatrix<T>&, const SpmvOptions&, cudaStream_t)>;

template <class T>
const std::map<std::string, BackendFactory<T>>& factories() {
  static const std::map<std::string, BackendFactory<T>> table = {
      {"ellpack", &make_ellpack<T>},
      {"ellpack-r", &make_ellpack_r<T>},
      {"hyb", &make_hyb<T>},
      {"csr", &make_csr_vector<T>},  // alias of csr-vector
      {"csr-scalar", &make_csr_scalar<T>},
      {"csr-vector", &make_csr_vector<T>},
      {"aligned-csr", &make_aligned_csr<T>},
      {"cusparse", &make_cusparse_csr<T>},
      // @@FORMAT-TABLE@@ one line per format: {"name", &make_name<T>},
  };
  return table;
}

std::string valid_format_list() {
  std::string list;
  for (const auto& name : spmv_format_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_spmv_backend(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options,
                                                  cudaStream_t stream, TuningReport* tuning) {
  if (tuning != nullptr) *tuning = TuningReport{};
  if (options.format == "auto") return make_auto_backend<T>(matrix, options, stream, tuning);
  const auto& table = factories<T>();
  const auto found = table.find(options.format);
  if (found == table.end())
    throw BadInput("unknown spmv.format '" + options.format + "' (valid: " +
                   valid_format_list() + ")");
  return found->second(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_spmv_backend(const CsrMatrix<float>&,
                                                               const SpmvOptions&,
                                                               cudaStream_t, TuningReport*);
template std::unique_ptr<SpmvBackend<double>> make_spmv_backend(const CsrMatrix<double>&,
                                                                const SpmvOptions&,
                                                                cudaStream_t, TuningReport*);

}  // namespace spk
