#include <string>
#include <vector>

#include "core/device_kernels.cuh"
#include "solver/amg/device_smoothed_prolongator.hpp"
#include "solver/amg/prolongator_rules.hpp"

namespace spk {

namespace {

// position[t] = where T's entry t (column c of row i) sits in row i of P (binary search in the
// sorted row); *missing lowers to the first row without it (stays `rows` otherwise).
__global__ void __launch_bounds__(kSetupBlockSize)
    tentative_positions_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                               const index_t* __restrict__ columns,
                               const index_t* __restrict__ t_offsets,
                               const index_t* __restrict__ t_columns,
                               index_t* __restrict__ position, index_t* missing) {
  for_each_index(rows, [&](index_t row) {
    for (index_t t = t_offsets[row]; t < t_offsets[row + 1]; ++t) {
      const index_t wanted = t_columns[t];
      // the first entry >= wanted
      const index_t low = lower_bound_in(columns, row_offsets[row], row_offsets[row + 1], wanted);
      if (low == row_offsets[row + 1] || columns[low] != wanted) {
        atomicMin(missing, row);
        position[t] = -1;
      } else {
        position[t] = low;
      }
    }
  });
}

// P = T - (omega / lambda) D^-1 A T, row by row, from P holding A T.
__global__ void __launch_bounds__(kSetupBlockSize)
    smooth_kernel(index_t rows, const index_t* __restrict__ row_offsets, double* values,
                  const double* __restrict__ inverse_diagonal, double step,
                  const index_t* __restrict__ t_offsets, const index_t* __restrict__ position,
                  const double* __restrict__ tentative) {
  for_each_index(rows, [&](index_t row) {
    smooth_prolongator_row(row, row_offsets, values, rounded_product(-step, inverse_diagonal[row]),
                           t_offsets, position, tentative);
  });
}

}  // namespace

DeviceSmoothedProlongator::DeviceSmoothedProlongator(const DeviceCsrMatrix<double>& a,
                                                     DeviceCsrMatrix<double> tentative,
                                                     double weight,
                                                     const DeviceSetupContext& context)
    : context_(context), tentative_(std::move(tentative)), weight_(weight) {
  if (weight_ == 0.0) return;
  product_ = std::make_unique<DeviceSparseProduct>(a, tentative_, prolongator_, context_);
  product_fresh_ = true;
  const index_t rows = a.rows;
  tentative_position_ =
      DeviceBuffer<index_t>(static_cast<std::size_t>(tentative_.nnz()), "prolongator T positions");
  DeviceBuffer<index_t> missing(std::vector<index_t>{rows}, "prolongator check");
  tentative_positions_kernel<<<setup_grid(rows), kSetupBlockSize, 0, context_.stream()>>>(
      rows, prolongator_.row_offsets.data(), prolongator_.columns.data(),
      tentative_.row_offsets.data(), tentative_.columns.data(), tentative_position_.data(),
      missing.data());
  SPK_CHECK_LAUNCH("tentative_positions_kernel");
  context_.synchronize();
  const index_t first_missing = missing.to_host()[0];
  if (first_missing < rows)
    throw Error("amg prolongator: row " + std::to_string(first_missing) +
                " of A T lacks T's entry (internal error: a_ii not stored)");
}

void DeviceSmoothedProlongator::release_resetup_state() {
  if (weight_ == 0.0) return;  // P is T
  released_algorithm_ = algorithm();
  context_.synchronize();  // nothing queued may still read what is freed
  product_.reset();
  tentative_ = DeviceCsrMatrix<double>();
  tentative_position_ = DeviceBuffer<index_t>();
  released_ = true;
}

void DeviceSmoothedProlongator::compute(const DeviceCsrMatrix<double>& a,
                                        const DeviceBuffer<double>& inverse_diagonal,
                                        double lambda_max) {
  if (weight_ == 0.0) return;
  if (released_) throw Error("amg: the prolongator's re-setup state was released (internal error)");
  if (!product_fresh_) product_->compute(a, tentative_, prolongator_);  // P = A T
  product_fresh_ = false;
  const double step = weight_ / lambda_max;
  smooth_kernel<<<setup_grid(a.rows), kSetupBlockSize, 0, context_.stream()>>>(
      a.rows, prolongator_.row_offsets.data(), prolongator_.values.data(), inverse_diagonal.data(),
      step, tentative_.row_offsets.data(), tentative_position_.data(), tentative_.values.data());
  SPK_CHECK_LAUNCH("smooth_kernel");
}

}  // namespace spk
