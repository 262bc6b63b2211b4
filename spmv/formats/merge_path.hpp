#pragma once
// The merge path of a CSR SpMV (Merrill & Garland, "Merge-based parallel sparse matrix-vector
// multiplication", SC'16): the rules `csr-merge` runs on the GPU (csr_merge.cu), written once
// here for the kernels and the CPU reference (merge_path_reference_spmv) so that the two
// cannot disagree.
//
// The path. A CSR SpMV is a merge of the row ends (row r ends after its last nonzero,
// row_offsets[r + 1]) with the nonzeros 0 .. nnz-1: rows + nnz items, never materialised. At
// coordinate (row, nonzero) the next item is nonzero `nonzero` when nonzero <
// row_offsets[row + 1], else the end of `row`. Thread t takes items [t * ipt, (t + 1) * ipt):
// every thread does the same work whatever the row lengths (ipt, items per thread: 4, 8 or
// 16), finding its start by a binary search along its diagonal (merge_path_search).
//
// Rows that span threads, deterministically (no atomics: the same bits every run).
//   1. Thread walk (merge_path_walk): a row that starts and ends in the thread is written
//      (complete). The thread's first row, when earlier threads consumed some of its nonzeros
//      and it ends here, is the thread's `head` (row, partial); the row it is in when its items
//      run out is its `carry` (row, partial).
//   2. Block combine (merge_block_combine, threads of one block, shared memory): a head whose
//      row started in the same block adds the carries of the threads from the row's first
//      (merge_thread_of_row_start) to the one before it, in that order, and is written. A head
//      whose row started in an earlier block becomes the block's head; the block's last
//      thread sums the carries of its row within the block into the block's carry.
//   3. Fixup (merge_block_fixup, a thread per block): a block head adds the carries of the
//      blocks from the row's first block to the one before it, and is written.
// Every row is written once, by whoever holds its row-end item. A row of L nonzeros costs the
// fixup at most L / (ipt x block) + 1 additions.
#include <cstdint>

#include "spmv/base/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// A position on the merge path: row ends and nonzeros consumed before it.
struct MergeCoordinate {
  index_t row;
  index_t nonzero;
};

// A partial row sum: row -1 for none.
template <class T>
struct MergeCarry {
  index_t row;
  T sum;
};

// The coordinate where diagonal `diagonal` (0 <= diagonal <= rows + nnz) crosses the path:
// the largest number of row ends `row` with row + nonzero == diagonal such that every row end
// taken comes before the nonzero that follows. row_end = row_offsets + 1.
SPK_HOST_DEVICE inline MergeCoordinate merge_path_search(std::int64_t diagonal, index_t rows,
                                                         index_t nnz, const index_t* row_end) {
  std::int64_t low = diagonal > nnz ? diagonal - nnz : 0;
  std::int64_t high = diagonal < rows ? diagonal : rows;
  while (low < high) {
    const std::int64_t pivot = low + (high - low) / 2;
    if (static_cast<std::int64_t>(row_end[pivot]) <= diagonal - pivot - 1)
      low = pivot + 1;  // row end `pivot` comes before nonzero diagonal - pivot - 1
    else
      high = pivot;
  }
  return {static_cast<index_t>(low), static_cast<index_t>(diagonal - low)};
}

// The thread whose items hold the first item of `row` (its first nonzero, or its row end when
// it has none): the item's diagonal is row + row_offsets[row].
SPK_HOST_DEVICE inline std::int64_t merge_thread_of_row_start(index_t row,
                                                              const index_t* row_offsets,
                                                              int items_per_thread) {
  return (static_cast<std::int64_t>(row) + row_offsets[row]) / items_per_thread;
}

// Step 1: the thread's items, from its coordinate `start` to `end` (the next thread's start):
// row ends [start.row, end.row) and nonzeros [start.nonzero, end.nonzero), at most
// ItemsPerThread of them. product(k) = value_k * x[column_k] in T; complete(row, sum) writes
// a row that started and ended here. The products are made first, every load of the thread in
// flight at once (the walk that follows only adds them up); row end r comes before nonzero k
// when row_offsets[r + 1] <= k.
template <int ItemsPerThread, class T, class Product, class Complete>
SPK_HOST_DEVICE void merge_path_walk(MergeCoordinate start, MergeCoordinate end, index_t rows,
                                     const index_t* row_offsets, Product&& product,
                                     Complete&& complete, MergeCarry<T>& head,
                                     MergeCarry<T>& carry) {
  T products[ItemsPerThread];
  SPK_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i)
    products[i] = start.nonzero + i < end.nonzero ? product(start.nonzero + i) : T(0);
  head = {-1, T(0)};
  index_t row = start.row;
  const bool first_row_continued = row < rows && start.nonzero > row_offsets[row];
  bool first_row = true;
  T sum = T(0);
  const auto end_row = [&] {
    if (first_row && first_row_continued)  // the end of a row begun by earlier threads
      head = {row, sum};
    else
      complete(row, sum);
    sum = T(0);
    ++row;
    first_row = false;
  };
  SPK_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) {
    const index_t k = start.nonzero + i;
    if (k < end.nonzero) {
      while (row_offsets[row + 1] <= k) end_row();  // rows that end before nonzero k
      sum += products[i];
    }
  }
  while (row < end.row) end_row();  // rows that end after the thread's last nonzero
  carry = row < rows ? MergeCarry<T>{row, sum} : MergeCarry<T>{-1, T(0)};
}

// Step 2, for thread `local` of a block of `count` threads whose first thread is `first`:
// heads and carries are the block's (indexed by local thread). block_head must hold {-1, 0}
// beforehand; at most one thread of a block sets it.
template <class T, class Complete>
SPK_HOST_DEVICE void merge_block_combine(int local, int count, std::int64_t first,
                                         int items_per_thread, const index_t* row_offsets,
                                         const MergeCarry<T>* heads, const MergeCarry<T>* carries,
                                         Complete&& complete, MergeCarry<T>* block_head,
                                         MergeCarry<T>* block_carry) {
  const MergeCarry<T> head = heads[local];
  if (head.row >= 0) {
    const std::int64_t start =
        merge_thread_of_row_start(head.row, row_offsets, items_per_thread) - first;
    T sum = head.sum;
    for (std::int64_t s = local - 1; s >= (start > 0 ? start : 0); --s)
      sum += carries[s].sum;  // threads inside the row, nearest first
    if (start >= 0)
      complete(head.row, sum);  // the row began in this block
    else
      *block_head = {head.row, sum};
  }
  if (local == count - 1) {
    const MergeCarry<T> carry = carries[local];
    MergeCarry<T> total{-1, T(0)};
    if (carry.row >= 0) {
      const std::int64_t start =
          merge_thread_of_row_start(carry.row, row_offsets, items_per_thread) - first;
      total.row = carry.row;
      for (std::int64_t s = local; s >= (start > 0 ? start : 0); --s) total.sum += carries[s].sum;
    }
    *block_carry = total;
  }
}

// Step 3, for block `block` of `block_threads` threads.
template <class T, class Complete>
SPK_HOST_DEVICE void merge_block_fixup(std::int64_t block, int block_threads, int items_per_thread,
                                       const index_t* row_offsets, const MergeCarry<T>* block_heads,
                                       const MergeCarry<T>* block_carries, Complete&& complete) {
  const MergeCarry<T> head = block_heads[block];
  if (head.row < 0) return;
  const std::int64_t first_block =
      merge_thread_of_row_start(head.row, row_offsets, items_per_thread) / block_threads;
  T sum = head.sum;
  for (std::int64_t b = block - 1; b >= first_block; --b) sum += block_carries[b].sum;
  complete(head.row, sum);
}

// Threads and blocks of a launch.
inline std::int64_t merge_path_threads(index_t rows, index_t nnz, int items_per_thread) {
  const std::int64_t path = static_cast<std::int64_t>(rows) + nnz;
  return (path + items_per_thread - 1) / items_per_thread;
}

}  // namespace spk
