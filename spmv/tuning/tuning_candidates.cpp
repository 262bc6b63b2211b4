#include "spmv/tuning/tuning_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "spmv/formats/csr_launch_policy.hpp"

namespace spk {

namespace {

constexpr double ellpack_max_fill = 1.25;
constexpr double ellpack_r_max_fill = 4.0;
constexpr double aligned_max_padding = 0.30;
constexpr double aligned_min_mean = 16.0;
constexpr double scalar_max_mean = 12.0;
constexpr double scalar_max_variation = 1.0;
constexpr double merge_min_variation = 1.0;
// sell splits its long rows off to whole warps (sell_layout.hpp), so a skewed matrix no longer
// rules it out (the power-law suite matrix went from 3.25 ms to 0.25 ms on an H100); only rows
// too alike to gain from the sort do.
constexpr double sell_min_variation = 0.1;

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

SpmvOptions with_format(const SpmvOptions& base, Format format, int threads_per_row) {
  SpmvOptions options = base;
  options.format = format;
  options.threads_per_row = threads_per_row;
  options.block_size = 256;
  options.x_cache = XCache::ldg;
  options.grid = GridShape::exact;
  return options;
}

}  // namespace

CandidatePlan plan_format_candidates(const RowStats& shape, const SpmvOptions& base,
                                     std::size_t value_bytes, std::size_t device_memory_bytes) {
  CandidatePlan plan;
  auto add = [&](SpmvOptions options, const std::string& skip_reason) {
    if (skip_reason.empty())
      plan.formats.push_back(std::move(options));
    else
      plan.skipped.push_back({std::move(options), skip_reason});
  };
  const double mean = shape.avg_row_length;
  const int rule = csr_vector_threads_per_row(shape.rows, shape.nnz, 0, value_bytes);

  add(with_format(base, Format::csr_vector, rule), "");
  add(with_format(base, Format::hyb, 0), "");

  const double ell_limit = std::min(ellpack_max_fill, base.max_ell_fill);
  add(with_format(base, Format::ellpack, 0),
      shape.ell_fill_ratio > ell_limit
          ? "ELL fill ratio " + number_text(shape.ell_fill_ratio) + " > " + number_text(ell_limit)
          : "");

  const double padded_bytes = static_cast<double>(shape.rows) * shape.max_row_length *
                              static_cast<double>(value_bytes + sizeof(index_t));
  std::string ellpack_r_skip;
  if (shape.ell_fill_ratio > ellpack_r_max_fill)
    ellpack_r_skip = "ELL fill ratio " + number_text(shape.ell_fill_ratio) + " > " +
                     number_text(ellpack_r_max_fill);
  else if (padded_bytes > 0.5 * static_cast<double>(device_memory_bytes))
    ellpack_r_skip =
        "padded arrays " + number_text(padded_bytes / 1e9) + " GB > half the device memory";
  add(with_format(base, Format::ellpack_r, 0), ellpack_r_skip);

  // csr-merge balances rows + nonzeros per thread: it pays its search only when rows differ.
  const double spread = mean > 0.0 ? shape.row_length_stddev / mean : 0.0;
  add(with_format(base, Format::csr_merge, 0),
      spread <= merge_min_variation
          ? "row length stddev/mean " + number_text(spread) +
                " <= " + number_text(merge_min_variation) + ": rows too alike for merge path"
          : "");
  // sell pads per chunk after sorting: with rows this alike, ellpack is sell without the sort.
  std::string sell_skip;
  if (spread < sell_min_variation)
    sell_skip = "row length stddev/mean " + number_text(spread) + " < " +
                number_text(sell_min_variation) + ": rows too alike to gain from sorting";
  add(with_format(base, Format::sell, 0), sell_skip);

  SpmvOptions cusparse = with_format(base, Format::cusparse, 0);
  cusparse.cusparse_algorithm = "alg1";
  add(cusparse, base.matrix_values == MatrixValues::single
                    ? "fp64 values only (spmv.matrix_values single)"
                    : "");

  for (const int width : {rule / 2, rule * 2}) {
    if (width < 2 || width > 32) continue;
    std::string skip;
    if (width > 2.0 * std::max(mean, 1.0))
      skip = "w=" + std::to_string(width) + " > 2 x mean row length " + number_text(mean);
    else if (16.0 * width < mean)
      skip = "w=" + std::to_string(width) + " too narrow for mean row length " + number_text(mean);
    add(with_format(base, Format::csr_vector, width), skip);
  }

  std::string aligned_skip;
  if (mean < aligned_min_mean)
    aligned_skip = "mean row length " + number_text(mean) + " < 16";
  else if (shape.aligned16_padding() > aligned_max_padding)
    aligned_skip = "padding to x16 adds " + number_text(100.0 * shape.aligned16_padding()) + "%";
  add(with_format(base, Format::aligned_csr, 16), aligned_skip);

  const double variation = mean > 0.0 ? shape.row_length_stddev / mean : 0.0;
  std::string scalar_skip;
  if (mean > scalar_max_mean)
    scalar_skip = "mean row length " + number_text(mean) + " > " + number_text(scalar_max_mean);
  else if (variation > scalar_max_variation)
    scalar_skip = "row length stddev/mean " + number_text(variation) + " > 1";
  add(with_format(base, Format::csr_scalar, 0), scalar_skip);
  return plan;
}

bool tries_shared_x(const SpmvOptions& winner) {
  return (winner.format == Format::csr_vector || winner.format == Format::csr) &&
         winner.threads_per_row >= 16;
}

std::vector<SpmvOptions> launch_variants(const SpmvOptions& winner) {
  std::vector<SpmvOptions> variants;
  if (winner.format == Format::cusparse) return variants;
  std::vector<XCache> caches = {XCache::ldg, XCache::texture};
  if (tries_shared_x(winner)) caches.push_back(XCache::shared);
  for (const int block_size : {128, 256, 512})
    for (const XCache cache : caches)
      for (const GridShape grid : {GridShape::exact, GridShape::capped}) {
        SpmvOptions options = winner;
        options.block_size = block_size;
        options.x_cache = cache;
        options.grid = grid;
        if (options.block_size == winner.block_size && options.x_cache == winner.x_cache &&
            options.grid == winner.grid)
          continue;
        variants.push_back(options);
      }
  return variants;
}

std::string candidate_label(const SpmvOptions& options) {
  if (options.format == Format::cusparse) return "cusparse " + options.cusparse_algorithm;
  std::string label = to_string(options.format);
  if (options.format == Format::csr_vector || options.format == Format::aligned_csr)
    label += " w=" + std::to_string(options.threads_per_row);
  return label + " bs=" + std::to_string(options.block_size) + " " + to_string(options.x_cache) +
         " " + to_string(options.grid);
}

}  // namespace spk
