#pragma once
// DeviceAmgBuild: the AMG hierarchy built on the GPU (solver/amg/amg_build.hpp says what a Build
// provides). The levels are DeviceCsrMatrix<double> (double); every piece runs on the device, on
// the solver's stream: the strength graph and the MIS(2) aggregation (device_strength.hpp,
// device_aggregation.hpp), T and P (device_tentative_prolongator.hpp,
// device_smoothed_prolongator.hpp), R A P (device_galerkin_product.hpp, cuSPARSE), and D^-1
// and the Lanczos estimates in DeviceSpace<double> (with a csr SpMV backend of A_l, built from
// the device arrays and freed after the estimate). The solver's values (float or double) are
// converted on the device. Only the coarsest level crosses to the host, for its dense LU
// inverse (to_host, from_host, set_values).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "solver/amg/amg_build.hpp"
#include "solver/amg/device_aggregation.hpp"
#include "solver/amg/device_candidate_fit.hpp"
#include "solver/amg/device_csr_matrix.hpp"
#include "solver/amg/device_galerkin_product.hpp"
#include "solver/amg/device_nodal_aggregation.hpp"
#include "solver/amg/device_smoothed_prolongator.hpp"
#include "solver/amg/device_strength.hpp"
#include "solver/amg/device_tentative_prolongator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/space_pattern.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

class DeviceAmgBuild : public OneProcessBuild<DeviceCsrMatrix<double>, DeviceAggregates> {
 public:
  using Space = DeviceSpace<double>;
  template <class U>
  using Array = DeviceBuffer<U>;
  using Matrix = DeviceCsrMatrix<double>;
  using Graph = DeviceStrengthGraph;
  using Aggregates = DeviceAggregates;
  using Tentative = DeviceTentativeProlongator;
  using Prolongator = DeviceSmoothedProlongator;
  using Galerkin = DeviceGalerkinProduct;
  static constexpr const char* where = "gpu";

  DeviceAmgBuild();                              // on a stream of its own
  explicit DeviceAmgBuild(cudaStream_t stream);  // on the solver's stream
  DeviceAmgBuild(const DeviceAmgBuild&) = delete;
  DeviceAmgBuild& operator=(const DeviceAmgBuild&) = delete;

  Space& space() { return space_; }
  const DeviceSetupContext& setup() const { return setup_; }
  cudaStream_t stream() const { return context_.stream(); }
  void synchronize() { setup_.synchronize(); }

  static index_t rows(const Matrix& matrix) { return matrix.rows; }
  static index_t nnz(const Matrix& matrix) { return matrix.nnz(); }
  static SpacePattern pattern(const Matrix& matrix) {
    return {matrix.rows, matrix.cols, matrix.row_offsets.data(), matrix.columns.data()};
  }
  static const double* values(const Matrix& matrix) { return matrix.values.data(); }
  Array<double> ones(index_t n);

  Graph strength(const Matrix& a, double theta) { return device_strength_graph(a, theta, setup_); }
  Aggregates aggregate(const Graph& graph, int distance = 2) {
    return device_aggregate_mis2(graph, setup_, distance);
  }
  Tentative tentative(const Aggregates& aggregates, const Array<double>& candidates) {
    return device_tentative_prolongator(aggregates, candidates, setup_);
  }
  // AMG for systems (solver/amg/hierarchy.hpp): nodal strength, isolated nodes left out, the
  // batched per-aggregate QR of B.
  Array<double> upload(const std::vector<double>& values) {
    return Array<double>(values, "amg near-null space");
  }
  Graph nodal_strength(const Matrix& a, int block_size, double theta) {
    return device_nodal_strength_graph(a, block_size, theta, setup_);
  }
  void leave_out_isolated(Aggregates& aggregates, const Graph& graph) {
    device_leave_out_isolated_nodes(aggregates, graph, setup_);
  }
  DeviceCandidateFit fit(const Aggregates& aggregates, int block_size,
                         const Array<double>& candidates, int count) {
    return device_fit_candidates(aggregates, block_size, candidates, count, setup_);
  }
  std::unique_ptr<Prolongator> prolongator(const Matrix& a, Matrix tentative, double weight) {
    return std::make_unique<Prolongator>(a, std::move(tentative), weight, setup_);
  }
  std::unique_ptr<Galerkin> galerkin(const Matrix& a, const Matrix& p, Matrix& coarse) {
    return std::make_unique<Galerkin>(a, p, coarse, setup_);
  }
  // A_l for the Lanczos estimate: a csr SpMV backend built from the device arrays.
  std::unique_ptr<LinearOperator<double>> spmv_operator(const Matrix& a);

  CsrMatrix<double> to_host(const Matrix& matrix) { return spk::to_host(matrix, stream()); }
  Matrix from_host(const CsrMatrix<double>& matrix);
  void set_values(Matrix& matrix, const CsrMatrix<double>& source);

  // The finest level from the solver's pattern and values (device memory, T = float or
  // double): the pattern copied on the device, the values converted to double there.
  template <class T>
  Matrix fine_matrix(const SpacePattern& pattern, const T* values);
  // A matrix fine_matrix takes (when its arrays are the pattern's and the values) instead of
  // copying (DeviceSpace::offer_fine_matrix).
  void take_fine_matrix_from(DeviceCsrMatrix<double>* offered) { offered_ = offered; }
  template <class T>
  void set_fine_values(Matrix& fine, const T* values);
  // to[i] = T(factor * from[i]) on the device.
  template <class T>
  void convert(std::size_t n, double factor, const double* from, T* to) {
    scale_on_device(n, factor, from, to, stream());
  }

 private:
  DeviceContext context_;
  DeviceSpace<double> space_;
  DeviceSetupContext setup_;
  DeviceCsrMatrix<double>* offered_ = nullptr;
};

template <class T>
struct AmgBuildOf<DeviceSpace<T>> {
  using type = DeviceAmgBuild;
  static std::unique_ptr<DeviceAmgBuild> make(DeviceSpace<T>& space) {
    auto build = std::make_unique<DeviceAmgBuild>(space.stream());
    build->take_fine_matrix_from(space.offered_fine_matrix());
    return build;
  }
};

}  // namespace spk
