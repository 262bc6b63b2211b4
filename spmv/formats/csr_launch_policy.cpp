#include "spmv/formats/csr_launch_policy.hpp"

#include "spkrylov/errors.hpp"

namespace spk {

void check_threads_per_row(int threads_per_row, const std::string& format) {
  switch (threads_per_row) {
    case 2:
    case 4:
    case 8:
    case 16:
    case 32: return;
    default:
      throw BadInput(format + ": spmv.threads_per_row = " + std::to_string(threads_per_row) +
                     " is not one of 2, 4, 8, 16, 32 (or 0 for automatic)");
  }
}

int csr_vector_threads_per_row(index_t rows, std::int64_t nnz, int requested,
                               std::size_t value_bytes) {
  if (requested != 0) {
    check_threads_per_row(requested, "csr-vector");
    return requested;
  }
  const std::int64_t entries_per_lane = value_bytes >= 8 ? 3 : 4;
  int threads = 2;
  // threads < mean / e  <=>  e * threads * rows < nnz (exact integer test, no rounding).
  while (threads < 16 && entries_per_lane * threads * rows < nnz) threads *= 2;
  return threads;
}

int aligned_csr_threads_per_row(int requested) {
  if (requested == 0) return kAlignedCsrDefaultThreadsPerRow;
  check_threads_per_row(requested, "aligned-csr");
  return requested;
}

unsigned int csr_grid_blocks(index_t rows, int threads_per_row, int block_size) {
  const std::int64_t threads = static_cast<std::int64_t>(rows) * threads_per_row;
  const std::int64_t blocks = (threads + block_size - 1) / block_size;
  // rows < 2^31 and threads_per_row <= 32 <= block_size, so blocks < 2^31 <= grid x limit.
  return static_cast<unsigned int>(blocks);
}

}  // namespace spk
