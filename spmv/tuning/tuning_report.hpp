#pragma once
// TuningReport: what `spmv.format: auto` did at setup, for the solve report and the bench.
// Filled by run_tuning (tuner.hpp) or from the tuning cache (tuning_cache.hpp).
#include <string>
#include <vector>

#include "spmv/spmv_options.hpp"

namespace spk {

struct TuningTrial {
  std::string label;  // candidate_label(options), e.g. "hyb bs=256 ldg exact"
  SpmvOptions options;
  double spmv_ms = -1.0;  // median SpMV time; < 0 when it was not timed
  std::string outcome;    // "timed", "refused: ...", "skipped: ..." (pre-filter or budget)
};

struct TuningReport {
  bool used = false;                     // the format was `auto`
  bool from_cache = false;               // the choice came from the cache: nothing was timed
  std::string cache_path;                // "" when the cache is off
  std::vector<std::string> cache_notes;  // unreadable cache lines, failed writes (one line each)
  std::vector<TuningTrial> trials;       // in the order they were considered
  SpmvOptions chosen;
  std::string chosen_label;
  double chosen_ms = -1.0;    // the chosen setup's SpMV time as measured while tuning (or cached)
  double baseline_ms = -1.0;  // `csr` (the default format) measured in the same tuning run
  double tuning_ms = 0.0;     // wall-clock time spent tuning (conversions and timings)
};

}  // namespace spk
