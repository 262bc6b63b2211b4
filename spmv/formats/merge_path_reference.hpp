#pragma once
// merge_path_reference_spmv: `csr-merge`'s algorithm (merge_path.hpp) run on the CPU, thread
// after thread and block after block, with the same rules the kernels run: the CPU reference
// of the partition, the carries and the fixup (tests/cpu/test_merge_path.cpp checks it against
// the plain CSR product on awkward shapes).
#include <stdexcept>
#include <vector>

#include "spmv/formats/merge_path.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// y = A x; every entry of y written exactly once (written_count counts the writes per row).
template <class T>
void merge_path_reference_spmv(const CsrMatrix<T>& matrix, int items_per_thread, int block_threads,
                               const T* x, T* y, std::vector<int>* written_count = nullptr) {
  const index_t rows = matrix.rows;
  const index_t nnz = static_cast<index_t>(matrix.values.size());
  if (written_count != nullptr) written_count->assign(static_cast<std::size_t>(rows), 0);
  if (rows == 0) return;
  const index_t* row_offsets = matrix.row_offsets.data();
  const std::int64_t threads = merge_path_threads(rows, nnz, items_per_thread);
  const std::int64_t blocks = (threads + block_threads - 1) / block_threads;
  const auto all = static_cast<std::size_t>(blocks * block_threads);
  std::vector<MergeCarry<T>> heads(all, {-1, T(0)}), carries(all, {-1, T(0)});
  std::vector<MergeCarry<T>> block_heads(static_cast<std::size_t>(blocks), {-1, T(0)});
  std::vector<MergeCarry<T>> block_carries(static_cast<std::size_t>(blocks), {-1, T(0)});
  const auto complete = [&](index_t row, T sum) {
    y[row] = sum;
    if (written_count != nullptr) ++(*written_count)[static_cast<std::size_t>(row)];
  };
  const auto product = [&](index_t k) { return matrix.values[k] * x[matrix.columns[k]]; };
  const std::int64_t path = static_cast<std::int64_t>(rows) + nnz;
  for (std::int64_t t = 0; t < threads; ++t) {
    const std::int64_t begin = t * items_per_thread;
    const std::int64_t next = path - begin < items_per_thread ? path : begin + items_per_thread;
    const MergeCoordinate start = merge_path_search(begin, rows, nnz, row_offsets + 1);
    const MergeCoordinate end = merge_path_search(next, rows, nnz, row_offsets + 1);
    auto& head = heads[static_cast<std::size_t>(t)];
    auto& carry = carries[static_cast<std::size_t>(t)];
    switch (items_per_thread) {  // the kernels' compiled list
      case 1:
        merge_path_walk<1, T>(start, end, rows, row_offsets, product, complete, head, carry);
        break;
      case 4:
        merge_path_walk<4, T>(start, end, rows, row_offsets, product, complete, head, carry);
        break;
      case 8:
        merge_path_walk<8, T>(start, end, rows, row_offsets, product, complete, head, carry);
        break;
      case 16:
        merge_path_walk<16, T>(start, end, rows, row_offsets, product, complete, head, carry);
        break;
      default: throw std::invalid_argument("items_per_thread: 1, 4, 8 or 16");
    }
  }
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t first = static_cast<std::size_t>(b * block_threads);
    for (int local = 0; local < block_threads; ++local)
      merge_block_combine<T>(local, block_threads, b * block_threads, items_per_thread, row_offsets,
                             heads.data() + first, carries.data() + first, complete,
                             &block_heads[static_cast<std::size_t>(b)],
                             &block_carries[static_cast<std::size_t>(b)]);
  }
  for (std::int64_t b = 0; b < blocks; ++b)
    merge_block_fixup<T>(b, block_threads, items_per_thread, row_offsets, block_heads.data(),
                         block_carries.data(), complete);
}

}  // namespace spk
