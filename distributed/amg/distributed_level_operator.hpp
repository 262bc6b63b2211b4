#pragma once
// DistributedLevelOperator: a matrix of the distributed AMG hierarchy (A_l, P_l, R_l, the
// coarsest inverse) as the cycle applies it: a DistributedMatrix (distributed_matrix.hpp) of
// the level's split, the local block's product overlapped with the halo exchange, its blocks
// built where the solver's vectors live (BlockBuilder: host CSR and MPI on the CPU path, SpMV
// backends and the device exchange on the GPU path). Each apply is collective: the V-cycle
// runs the same operators in the same order on every process.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "distributed/amg/distributed_level.hpp"
#include "distributed/distributed_matrix.hpp"
#include "solver/amg/level_operator.hpp"

namespace spk {

// The split in another precision (the hierarchy is in double; an fp32 solver's cycle is not).
template <class T>
SplitRows<T> converted_split(const SplitRows<double>& split) {
  if constexpr (std::is_same_v<T, double>) {
    return split;
  } else {
    SplitRows<T> converted;
    converted.first_row = split.first_row;
    converted.first_column = split.first_column;
    converted.local = convert_values<T>(split.local);
    converted.halo = convert_values<T>(split.halo);
    converted.pattern = convert_values<T>(split.pattern);
    converted.halo_columns = split.halo_columns;
    converted.sources = split.sources;
    converted.local_entries = split.local_entries;
    converted.halo_entries = split.halo_entries;
    return converted;
  }
}

template <class T>
class DistributedLevelOperator final : public LevelOperator<T, DistributedLevel> {
 public:
  DistributedLevelOperator(MPI_Comm comm, const DistributedLevel& level,
                           const BlockBuilder<T>& build)
      : matrix_(comm, converted_split<T>(level.split), build), cols_(level.cols) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    matrix_.op().apply_scaled(alpha, x, beta, y);
  }
  void update_values(const DistributedLevel& level) override {
    const std::vector<double>& values = level.split.pattern.values;
    if constexpr (std::is_same_v<T, double>) {
      matrix_.update_values(values.data());
    } else {
      const std::vector<T> converted(values.begin(), values.end());
      matrix_.update_values(converted.data());
    }
  }
  index_t rows() const override { return matrix_.op().rows(); }
  index_t cols() const override { return cols_; }
  std::string name() const override { return matrix_.op().name(); }

 private:
  DistributedMatrix<T> matrix_;
  index_t cols_;
};

// The blocks of a level's matrix in `format` (the builder of the solver's path).
template <class T>
using LevelBlockBuilder = std::function<BlockBuilder<T>(Format format)>;

// The solver's level operator factories for the distributed hierarchy.
inline LevelOperatorFactories<DistributedLevel> distributed_level_operator_factories(
    MPI_Comm comm, LevelBlockBuilder<double> fp64, LevelBlockBuilder<float> fp32,
    Format default_format, bool formats_apply) {
  LevelOperatorFactories<DistributedLevel> factories;
  factories.fp64.make = [comm, fp64](const DistributedLevel& level, Format format) {
    return std::unique_ptr<LevelOperator<double, DistributedLevel>>(
        std::make_unique<DistributedLevelOperator<double>>(comm, level, fp64(format)));
  };
  factories.fp32.make = [comm, fp32](const DistributedLevel& level, Format format) {
    return std::unique_ptr<LevelOperator<float, DistributedLevel>>(
        std::make_unique<DistributedLevelOperator<float>>(comm, level, fp32(format)));
  };
  factories.fp64.default_format = factories.fp32.default_format = default_format;
  factories.fp64.formats_apply = factories.fp32.formats_apply = formats_apply;
  return factories;
}

}  // namespace spk
