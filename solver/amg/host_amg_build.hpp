#pragma once
// HostAmgBuild: the AMG hierarchy built on the host (solver/amg/amg_build.hpp says what a Build
// provides), in double: the CPU path's, and the reference the GPU's build is tested against.
// Its levels are host CsrMatrix<double>, its pieces those of solver/amg/{strength,aggregation,
// tentative_prolongator,smoothed_prolongator,galerkin_product}.hpp (OpenMP over rows), its
// space HostSpace<double>. Host code only (OpenMP): CUDA translation units see the hierarchy
// through solver/amg/hierarchy.hpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/amg_build.hpp"
#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/nodal_aggregation.hpp"
#include "solver/amg/smoothed_prolongator.hpp"
#include "solver/amg/strength.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "solver/host_space.hpp"
#include "solver/space_pattern.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

class HostAmgBuild : public OneProcessBuild<CsrMatrix<double>, Aggregates> {
 public:
  using Space = HostSpace<double>;
  template <class U>
  using Array = std::vector<U>;
  using Matrix = CsrMatrix<double>;
  using Graph = StrengthGraph;
  using Aggregates = ::spk::Aggregates;
  using Tentative = TentativeProlongator;
  using Prolongator = SmoothedProlongator;
  using Galerkin = GalerkinProduct;
  static constexpr const char* where = "host";

  Space& space() { return space_; }
  void synchronize() {}

  static index_t rows(const Matrix& matrix) { return matrix.rows; }
  static index_t nnz(const Matrix& matrix) { return matrix.nnz(); }
  static SpacePattern pattern(const Matrix& matrix) {
    return {matrix.rows, matrix.cols, matrix.row_offsets.data(), matrix.columns.data()};
  }
  static const double* values(const Matrix& matrix) { return matrix.values.data(); }
  Array<double> ones(index_t n) { return Array<double>(static_cast<std::size_t>(n), 1.0); }

  Graph strength(const Matrix& a, double theta) { return strength_graph(a, theta); }
  Aggregates aggregate(const Graph& graph, int distance = 2) {
    return aggregate_mis2(graph, distance);
  }
  Tentative tentative(const Aggregates& aggregates, const Array<double>& candidates) {
    return tentative_prolongator(aggregates, candidates);
  }
  // AMG for systems (solver/amg/hierarchy.hpp): nodal strength, isolated nodes left out, the
  // per-aggregate QR of B.
  Array<double> upload(const std::vector<double>& values) { return values; }
  Graph nodal_strength(const Matrix& a, int block_size, double theta) {
    return nodal_strength_graph(a, block_size, theta);
  }
  void leave_out_isolated(Aggregates& aggregates, const Graph& graph) {
    leave_out_isolated_nodes(aggregates, graph);
  }
  CandidateFit fit(const Aggregates& aggregates, int block_size, const Array<double>& candidates,
                   int count) {
    return fit_candidates(aggregates, block_size, candidates, count);
  }
  std::unique_ptr<Prolongator> prolongator(const Matrix& a, Matrix tentative, double weight) {
    return std::make_unique<Prolongator>(a, std::move(tentative), weight);
  }
  std::unique_ptr<Galerkin> galerkin(const Matrix& a, const Matrix& p, Matrix& coarse) {
    return std::make_unique<Galerkin>(a, p, coarse);
  }
  // A_l for the Lanczos estimate: the reference CSR product on `a` itself.
  std::unique_ptr<LinearOperator<double>> spmv_operator(const Matrix& a) {
    return std::make_unique<HostCsrOperator<double>>(a);
  }

  const CsrMatrix<double>& to_host(const Matrix& matrix) { return matrix; }
  Matrix from_host(CsrMatrix<double> matrix) { return matrix; }
  void set_values(Matrix& matrix, const CsrMatrix<double>& source) {
    matrix.values = source.values;
  }

  // The finest level from the solver's pattern and values (host memory), values in double.
  template <class T>
  Matrix fine_matrix(const SpacePattern& pattern, const T* values) {
    Matrix fine = host_pattern<double>(space_, pattern);
    set_fine_values(fine, values);
    return fine;
  }
  template <class T>
  void set_fine_values(Matrix& fine, const T* values) {
    fine.values.assign(values, values + fine.nnz());
  }
  // to[i] = T(factor * from[i])
  template <class T>
  void convert(std::size_t n, double factor, const double* from, T* to) {
    for (std::size_t i = 0; i < n; ++i) to[i] = static_cast<T>(factor * from[i]);
  }

 private:
  Space space_;
};

template <class T>
struct AmgBuildOf<HostSpace<T>> {
  using type = HostAmgBuild;
  static std::unique_ptr<HostAmgBuild> make(HostSpace<T>& /*space*/) {
    return std::make_unique<HostAmgBuild>();
  }
};

// The CPU path's hierarchy (and the tests' reference).
using AmgLevel = AmgLevelOn<HostAmgBuild>;
using AmgHierarchy = AmgHierarchyOn<HostAmgBuild>;

}  // namespace spk
