#pragma once
// A bad a_ii found by a distributed AMG setup step, named as the other distributed faults name
// theirs. The hierarchy driver (solver/amg/hierarchy_driver.hpp) inverts each level's
// diagonal inside the build's agreed() step and throws BadDiagonal with the row local to this
// process (only for the finest level: a coarse level's is a BadInput naming the level). An
// agreed BadDiagonal is thrown again on every process without the "rank R: " prefix, its row
// naming the place (agreed_errors.cpp), as check_diagonal does for Jacobi (global rows) and
// block Jacobi does for its blocks ("in rank R's diagonal block"). So the distributed builds run
// their agreed steps through this: the row becomes the global row of the finest level and the
// problem names the rank, over several processes (one process: unchanged, as the one-process
// setup throws it).
#include <string>

#include "distributed/row_partition.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

// step(); a BadDiagonal it throws again with row fine.first_row(rank) + row and the rank named
// (unchanged when `fine` does not hold the rank: a build made without the solver's rows).
template <class Step>
void with_global_diagonal_rows(const RowPartition& fine, int rank, int processes, Step&& step) {
  try {
    step();
  } catch (const BadDiagonal& error) {
    if (processes <= 1 || rank >= fine.processes()) throw;
    throw BadDiagonal(error.preconditioner(), fine.first_row(rank) + error.row(),
                      error.problem() + " (in rank " + std::to_string(rank) + "'s rows)");
  }
}

}  // namespace spk
