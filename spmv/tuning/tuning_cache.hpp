#pragma once
// TuningCache: the persistent store of `spmv.format: auto` choices, so a second run on the
// same matrix pattern and GPU reuses the choice instead of tuning again.
//
// Key:   the matrix fingerprint (n, cols, nnz, pattern hash), the GPU name and compute
//        capability, the precision and the spkrylov version.
// Value: the chosen SpmvOptions fields (format, threads_per_row, block_size, x_cache, grid)
//        and the SpMV time measured when it was chosen.
//
// File: plain text, one entry a line, `#` comments, e.g.
//   n=262144 cols=262144 nnz=1810432 pattern=0f3a... gpu=NVIDIA_H100_80GB_HBM3 cc=90
//   precision=double version=0.1.0 -> format=hyb threads_per_row=0 block_size=256
//   x_cache=ldg grid=exact spmv_ms=0.08110
// (one line in the file). Spaces in the GPU name are written as '_'.
//
// Robustness: a line that does not parse, or names an unknown format or value, is ignored
// and reported in notes() ("PATH:LINE: ..."): that matrix is simply tuned again, and the next
// store() drops the bad line. A file that cannot be read is an empty cache (noted). store()
// re-reads the file, merges, writes a temporary file in the same directory and renames it
// over the old one, so a reader never sees a half-written file and concurrent runs cannot
// corrupt it (the last writer wins for an entry both wrote). A failed write is noted, never
// an error: tuning results are an optimisation, not the solve.
//
// Default location: $XDG_CACHE_HOME/spkrylov/tuning-cache.txt, else
// $HOME/.cache/spkrylov/tuning-cache.txt; `spmv.tune_cache: PATH` overrides, `off` disables.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spkrylov/options.hpp"
#include "spmv/tuning/matrix_fingerprint.hpp"

namespace spk {

struct TuningKey {
  MatrixFingerprint matrix;
  std::string gpu_name;
  int compute_capability = 0;  // major * 10 + minor
  std::string precision;       // "double" | "single"
  std::string version;         // spkrylov version
};

struct TuningChoice {
  SpmvOptions options;  // format, threads_per_row, block_size, x_cache, grid
  double spmv_ms = 0.0;
};

// The key's text as written in the file (before " -> ").
std::string tuning_key_text(const TuningKey& key);

// The cache file `spmv.tune_cache` names: "off" gives "" (no cache), "" the default location
// ("" too when neither XDG_CACHE_HOME nor HOME is set).
std::string resolve_tuning_cache_path(const std::string& option);

class TuningCache {
 public:
  // Reads `path` (a missing file is an empty cache).
  explicit TuningCache(std::string path);

  std::optional<TuningChoice> find(const TuningKey& key) const;
  // Adds or replaces the entry and rewrites the file atomically (see above). Returns false
  // (and adds a note) when the file could not be written.
  bool store(const TuningKey& key, const TuningChoice& choice);

  const std::string& path() const { return path_; }
  std::size_t size() const { return entries_.size(); }
  // One line each: unreadable entries skipped, read or write failures.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void load(std::map<std::string, TuningChoice>& entries, std::vector<std::string>& notes) const;

  std::string path_;
  std::map<std::string, TuningChoice> entries_;
  std::vector<std::string> notes_;
};

}  // namespace spk
