#pragma once
// The candidates `spmv.format: auto` times, and the cheap pre-filter that decides them from
// row statistics alone (RowStats, spmv/host/matrix_stats.hpp; no GPU needed; tested in CI).
//
// Stage 1 (formats: one conversion each, default launch: block 256, ldg, exact grid), in
// this order, so that a tight tune_budget_ms cuts the least promising ones:
//   1. csr (csr-vector, threads per row by the mean-length rule): the default format and the
//      baseline the saving is measured against. Always timed.
//   2. hyb                 always (the histogram rule keeps it close to ELL or CSR).
//   3. ellpack             skipped when the ELL fill ratio > 1.25 (it reads every padded
//                          slot: more than 25% extra traffic) or > spmv.max_ell_fill.
//   4. ellpack-r           skipped when the fill ratio > 4 (a warp waits for its longest row
//                          and the padded arrays grow) or the padded arrays would take more
//                          than half the device memory.
//   5. cusparse (alg1)     always: the vendor reference.
//   6. csr-vector, the other widths w in {rule/2, rule*2} with 2 <= w <= 32, skipped when
//                          w > 2 x mean row length (most lanes idle) or 16 w < mean (narrow
//                          groups on long rows: too many steps per lane).
//   7. aligned-csr (16)    skipped when padding rows to multiples of 16 adds more than 30%
//                          entries, or the mean row is shorter than 16 (Baskaran &
//                          Bordawekar: it loses to HYB below 16 nonzeros a row).
//   8. csr-scalar          skipped when the mean row is longer than 12 (one thread walks
//                          the row: uncoalesced) or stddev/mean > 1 (warps wait on long rows).
// Stage 2 (launch only: no conversion) on the stage-1 winner if it is a hand-written format:
// block size {128, 256, 512} x x_cache {ldg, texture} x grid {exact, capped}, and x_cache
// shared too when the winner is csr-vector with 16 or 32 threads per row (tries_shared_x: a
// warp takes one or two rows, widths chosen for mean rows of ~24+ entries; Mazzucchi's Algorithm 4
// stages a row's slice of x in shared memory for a warp per row. With narrower sub-warps the warp's
// span covers 4+ rows, and rows of a few entries do not repay the copy of the tile).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/matrix_stats.hpp"

namespace spk {

struct SkippedCandidate {
  SpmvOptions options;
  std::string reason;  // e.g. "ELL fill ratio 1.43 > 1.25"
};

struct CandidatePlan {
  std::vector<SpmvOptions> formats;  // stage 1, in timing order
  std::vector<SkippedCandidate> skipped;
};

// base: the user's spmv options (max_ell_fill, hyb_width, cusparse_algorithm are kept).
CandidatePlan plan_format_candidates(const RowStats& shape, const SpmvOptions& base,
                                     std::size_t value_bytes, std::size_t device_memory_bytes);

// Whether stage 2 tries x_cache: shared on `winner` (csr-vector, 16 or 32 threads per row).
bool tries_shared_x(const SpmvOptions& winner);

// Stage 2: launch variants of `winner` (itself excluded); empty for cusparse.
std::vector<SpmvOptions> launch_variants(const SpmvOptions& winner);

// "csr-vector w=8 bs=256 ldg exact", "cusparse alg1".
std::string candidate_label(const SpmvOptions& options);

}  // namespace spk
