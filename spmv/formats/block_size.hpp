#pragma once
// The thread-block size of the hand-written kernels (spmv.block_size): a whole number of
// warps, at most 1024 threads.
//
// Kernels are compiled for two launch-bound classes and the launch picks one at runtime:
//   block_size <= 512   __launch_bounds__(512): ptxas keeps the ELL/COO kernels at 26-40
//                       registers, no spills (measured with -Xptxas -v, sm_90).
//   block_size  > 512   __launch_bounds__(1024, 1): up to 64 registers. A plain
//                       __launch_bounds__(1024) lets ptxas aim at 2 blocks/SM (32
//                       registers), and it spilled the double-precision texture ELLPACK-R loop.
#include <string>
#include <type_traits>

#include "spkrylov/errors.hpp"

namespace spk {

constexpr int max_block_size = 1024;
constexpr int small_block_class = 512;

// Minimum resident blocks for __launch_bounds__: 0 leaves the choice to ptxas.
constexpr int min_blocks_for_class(int max_threads) {
  return max_threads == max_block_size ? 1 : 0;
}

// Returns block_size, or throws BadInput naming spmv.block_size.
inline int checked_block_size(int block_size) {
  if (block_size < 32 || block_size > max_block_size || block_size % 32 != 0)
    throw BadInput("spmv.block_size: " + std::to_string(block_size) +
                   " is invalid (a multiple of 32 from 32 to 1024)");
  return block_size;
}

// Calls launch(std::integral_constant<int, class>{}) with the launch-bound class of block_size.
template <class Launch>
void with_block_class(int block_size, Launch&& launch) {
  if (block_size <= small_block_class)
    launch(std::integral_constant<int, small_block_class>{});
  else
    launch(std::integral_constant<int, max_block_size>{});
}

}  // namespace spk
