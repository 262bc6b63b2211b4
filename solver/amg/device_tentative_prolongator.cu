#include "core/device_kernels.cuh"
#include "solver/amg/device_tentative_prolongator.hpp"
#include "solver/amg/device_transpose.hpp"
#include "solver/amg/prolongator_rules.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    tentative_pattern_kernel(index_t rows, index_t* __restrict__ row_offsets) {
  for_each_index(rows + 1, [&](index_t row) { row_offsets[row] = row; });  // one entry a row
}

// (B_c)_j = sqrt(sum of B_i^2 over aggregate j's members, in increasing row order)
__global__ void __launch_bounds__(kSetupBlockSize)
    aggregate_norms_kernel(index_t aggregates, const index_t* __restrict__ member_offsets,
                           const double* __restrict__ member_candidates,
                           double* __restrict__ norms) {
  for_each_index(aggregates, [&](index_t j) {
    double sum = 0.0;
    for (index_t k = member_offsets[j]; k < member_offsets[j + 1]; ++k)
      sum = add_square(sum, member_candidates[k]);
    norms[j] = sqrt(sum);
  });
}

// T_i,agg(i) = B_i / ||B on agg(i)||
__global__ void __launch_bounds__(kSetupBlockSize)
    tentative_values_kernel(index_t rows, const index_t* __restrict__ aggregate_of,
                            const double* __restrict__ norms, double* __restrict__ values) {
  for_each_index(rows, [&](index_t row) { values[row] = values[row] / norms[aggregate_of[row]]; });
}

}  // namespace

DeviceTentativeProlongator device_tentative_prolongator(const DeviceAggregates& aggregates,
                                                        const DeviceBuffer<double>& candidates,
                                                        const DeviceSetupContext& context) {
  const cudaStream_t stream = context.stream();
  const index_t rows = static_cast<index_t>(aggregates.aggregate_of.size());
  DeviceTentativeProlongator result;
  DeviceCsrMatrix<double>& t = result.matrix;
  t.rows = rows;
  t.cols = aggregates.count;
  t.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, "T offsets");
  t.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(rows), "T columns");
  t.values = DeviceBuffer<double>(static_cast<std::size_t>(rows), "T values");
  tentative_pattern_kernel<<<setup_grid(std::int64_t{rows} + 1), kSetupBlockSize, 0, stream>>>(
      rows, t.row_offsets.data());
  SPK_CHECK_LAUNCH("tentative_pattern_kernel");
  if (rows > 0) {  // T's pattern: column agg(i) in row i; its values B_i for now
    SPK_CUDA_CHECK(cudaMemcpyAsync(t.columns.data(), aggregates.aggregate_of.data(),
                                   t.columns.bytes(), cudaMemcpyDeviceToDevice, stream));
    SPK_CUDA_CHECK(cudaMemcpyAsync(t.values.data(), candidates.data(), t.values.bytes(),
                                   cudaMemcpyDeviceToDevice, stream));
  }
  {
    DeviceCsrMatrix<double>
        members;  // row j of T^T: aggregate j's members (increasing) and their B_i
    const DeviceTranspose transpose(t, members, context);
    result.coarse_candidates =
        DeviceBuffer<double>(static_cast<std::size_t>(aggregates.count), "coarse candidates");
    aggregate_norms_kernel<<<setup_grid(aggregates.count), kSetupBlockSize, 0, stream>>>(
        aggregates.count, members.row_offsets.data(), members.values.data(),
        result.coarse_candidates.data());
    SPK_CHECK_LAUNCH("aggregate_norms_kernel");
    context.synchronize();  // before `members` is freed
  }
  tentative_values_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, t.columns.data(), result.coarse_candidates.data(), t.values.data());
  SPK_CHECK_LAUNCH("tentative_values_kernel");
  return result;
}

}  // namespace spk
