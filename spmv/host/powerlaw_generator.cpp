// The powerlaw generator: heavy-tailed row lengths, uniform random columns, a dominant
// diagonal (see generators.hpp for the distribution).
#include <algorithm>
#include <cmath>

#include "spmv/host/generators.hpp"
#include "spmv/host/seeded_rng.hpp"

namespace spk {
namespace {

// E[min(floor(X), cap)] for X Pareto(scale, exponent): sum over j = 1..cap of
// P(X >= j) = min(1, (scale/j)^exponent). Exact for the first terms past the flat part,
// then a midpoint-rule integral for the far tail (relative error ~ 1e-8 there).
double expected_off_diagonal(double scale, double exponent, std::int64_t cap) {
  const std::int64_t flat = std::min<std::int64_t>(cap, static_cast<std::int64_t>(scale));
  double sum = static_cast<double>(flat);  // terms with j <= scale are 1
  constexpr std::int64_t exact_terms = 4096;
  const std::int64_t exact_end = std::min(cap, flat + exact_terms);
  for (std::int64_t j = flat + 1; j <= exact_end; ++j)
    sum += std::pow(scale / static_cast<double>(j), exponent);
  if (exact_end < cap) {
    // integral of (scale/t)^a dt from exact_end + 1/2 to cap + 1/2
    const double lower = static_cast<double>(exact_end) + 0.5;
    const double upper = static_cast<double>(cap) + 0.5;
    sum += std::pow(scale, exponent) *
           (std::pow(lower, 1.0 - exponent) - std::pow(upper, 1.0 - exponent)) / (exponent - 1.0);
  }
  return sum;
}

// The Pareto scale x_min giving E[min(floor(X), cap)] = target (bisection; E grows with it).
double solve_scale(double target, double exponent, std::int64_t cap) {
  double low = 0.0, high = static_cast<double>(cap) + 1.0;
  for (int iteration = 0; iteration < 100; ++iteration) {
    const double middle = 0.5 * (low + high);
    if (expected_off_diagonal(middle, exponent, cap) < target)
      low = middle;
    else
      high = middle;
  }
  return 0.5 * (low + high);
}

// Off-diagonal count of a row: the first draw of the row's stream.
index_t draw_off_diagonal_count(SeededRng& rng, double scale, double exponent, index_t cap) {
  const double x = scale * std::pow(rng.uniform_open_closed(), -1.0 / exponent);
  return x >= static_cast<double>(cap) ? cap : static_cast<index_t>(x);
}

// `count` distinct values of [0, range), sorted, into `chosen` (count <= range / 2 keeps the
// expected number of redraws small).
void choose_few_distinct(index_t count, index_t range, SeededRng& rng,
                         std::vector<index_t>& chosen) {
  chosen.clear();
  while (static_cast<index_t>(chosen.size()) < count) {
    const index_t missing = count - static_cast<index_t>(chosen.size());
    for (index_t k = 0; k < missing; ++k)
      chosen.push_back(static_cast<index_t>(rng.below(static_cast<std::uint64_t>(range))));
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  }
}

// `count` distinct values of [0, range), sorted; picks the complement when count is large.
void choose_distinct(index_t count, index_t range, SeededRng& rng, std::vector<index_t>& chosen,
                     std::vector<index_t>& excluded) {
  if (count <= range / 2) {
    choose_few_distinct(count, range, rng, chosen);
    return;
  }
  choose_few_distinct(range - count, range, rng, excluded);
  chosen.clear();
  auto next_excluded = excluded.begin();
  for (index_t value = 0; value < range; ++value) {
    if (next_excluded != excluded.end() && *next_excluded == value)
      ++next_excluded;
    else
      chosen.push_back(value);
  }
}

}  // namespace

CsrMatrix<double> generate_powerlaw(int n, double avg_row_length, double exponent,
                                    std::uint64_t seed) {
  if (n < 1) throw BadInput("powerlaw: n = " + std::to_string(n) + " must be at least 1");
  if (!(avg_row_length >= 1.0 && avg_row_length <= n))
    throw BadInput("powerlaw: avg_row_length = " + std::to_string(avg_row_length) +
                   " must be in [1, n = " + std::to_string(n) + "]");
  if (!(exponent > 1.0) || !std::isfinite(exponent))
    throw BadInput("powerlaw: exponent = " + std::to_string(exponent) +
                   " must be finite and greater than 1");
  // Expected nnz; the drawn total is checked again below. Refuse clearly hopeless sizes early.
  check_index_range(static_cast<std::int64_t>(std::ceil(avg_row_length * n)),
                    "powerlaw n=" + std::to_string(n) + ": expected nonzeros");

  const index_t cap = n - 1;  // off-diagonal entries of a row at most
  const double target = avg_row_length - 1.0;
  const double scale = target <= 0.0 ? 0.0 : solve_scale(target, exponent, cap);

  CsrMatrix<double> matrix;
  matrix.rows = n;
  matrix.cols = n;
  matrix.row_offsets.assign(static_cast<std::size_t>(n) + 1, 0);

  std::vector<index_t> off_diagonal_counts(static_cast<std::size_t>(n), 0);
  if (scale > 0.0) {
#pragma omp parallel for schedule(static)
    for (index_t row = 0; row < n; ++row) {
      SeededRng rng(seed, static_cast<std::uint64_t>(row));
      off_diagonal_counts[row] = draw_off_diagonal_count(rng, scale, exponent, cap);
    }
  }
  std::int64_t total = 0;
  for (index_t row = 0; row < n; ++row) total += 1 + off_diagonal_counts[row];
  check_index_range(total, "powerlaw n=" + std::to_string(n) + ": nonzeros");
  for (index_t row = 0; row < n; ++row)
    matrix.row_offsets[row + 1] = matrix.row_offsets[row] + 1 + off_diagonal_counts[row];
  matrix.columns.resize(static_cast<std::size_t>(total));
  matrix.values.resize(static_cast<std::size_t>(total));

#pragma omp parallel
  {
    std::vector<index_t> chosen, excluded;
#pragma omp for schedule(dynamic, 256)
    for (index_t row = 0; row < n; ++row) {
      SeededRng rng(seed, static_cast<std::uint64_t>(row));
      if (scale > 0.0) draw_off_diagonal_count(rng, scale, exponent, cap);  // same first draw
      // Candidates 0..n-2 stand for every column but the diagonal.
      choose_distinct(off_diagonal_counts[row], cap, rng, chosen, excluded);
      index_t position = matrix.row_offsets[row];
      index_t diagonal_position = -1;
      double off_diagonal_sum = 0.0;
      for (index_t candidate : chosen) {
        if (diagonal_position < 0 && candidate >= row) diagonal_position = position++;
        const double value = 2.0 * rng.uniform() - 1.0;
        off_diagonal_sum += std::abs(value);
        matrix.columns[position] = candidate >= row ? candidate + 1 : candidate;
        matrix.values[position] = value;
        ++position;
      }
      if (diagonal_position < 0) diagonal_position = position;
      matrix.columns[diagonal_position] = row;
      matrix.values[diagonal_position] = 1.0 + off_diagonal_sum;
    }
  }
  return matrix;
}

}  // namespace spk
