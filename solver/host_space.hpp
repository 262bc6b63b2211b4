#pragma once
// HostSpace<T>: the CPU reference vector space (solver/vector_space.hpp). Vectors are
// std::vector<T>, reductions are OpenMP loops in a fixed order, scalar steps run inline.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "solver/jacobi_entry.hpp"
#include "solver/krylov_scalars.hpp"
#include "solver/lanczos_start.hpp"
#include "solver/pipecg_pass.hpp"
#include "solver/vector_space.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class HostSpace {
 public:
  using value_type = T;
  template <class U>
  using Array = std::vector<U>;

  template <class U>
  Array<U> allocate(std::size_t count, const char* /*what*/) {
    return Array<U>(count);
  }
  template <class U>
  void upload(const std::vector<U>& host, U* destination) {
    std::copy(host.begin(), host.end(), destination);
  }
  template <class U>
  std::vector<U> download(const U* data, std::size_t count) {
    return std::vector<U>(data, data + count);
  }
  template <class U>
  void copy_within(const U* source, std::size_t count, U* destination) {
    std::copy(source, source + count, destination);
  }

  KrylovScalars<T>* scalars() { return &scalars_; }
  KrylovScalars<T> read_scalars() { return scalars_; }
  void write_scalars(const KrylovScalars<T>& values) { scalars_ = values; }
  template <class Step>
  void scalar_step(const Step& step) {
    step(scalars_);
  }
  void synchronize() {}
  template <class Body>
  void run_repeated(int count, bool /*use_graph*/, Body&& body) {
    for (int i = 0; i < count; ++i) body();
  }
  void invalidate_graph() noexcept {}
  bool any_process(bool flag) { return flag; }
  std::size_t first_global_index() const { return 0; }

  // Sum of term(i), i < n, in an order that depends on n only: fixed blocks summed in
  // parallel, then the block sums in sequence. An OpenMP `reduction` combines the threads'
  // partial sums in any order, so results would change from run to run and machine to
  // machine; the reference path must be reproducible.
  template <class Term>
  static T ordered_sum(std::size_t n, const Term& term) {
    constexpr std::size_t block = 4096;
    const std::int64_t blocks = static_cast<std::int64_t>((n + block - 1) / block);
    std::vector<T> partial(static_cast<std::size_t>(blocks), T(0));
#pragma omp parallel for schedule(static)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::size_t begin = static_cast<std::size_t>(b) * block;
      const std::size_t end = begin + block < n ? begin + block : n;
      T sum = T(0);
      for (std::size_t i = begin; i < end; ++i) sum += term(i);
      partial[static_cast<std::size_t>(b)] = sum;
    }
    T total = T(0);
    for (const T value : partial) total += value;
    return total;
  }

  // result = (x, y)
  void dot(std::size_t n, const T* x, const T* y, T* result) {
    *result = ordered_sum(n, [x, y](std::size_t i) { return x[i] * y[i]; });
  }
  // *value = sqrt(*value)
  void square_root(T* value) {
    *value = norm_from_square(*value);
  }
  // y += alpha x
  void axpy(std::size_t n, const T* alpha, const T* x, T* y) {
    const T a = *alpha;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) y[i] += a * x[i];
  }
  // x *= alpha
  void scal(std::size_t n, const T* alpha, T* x) {
    const T a = *alpha;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) x[i] *= a;
  }
  // y = x
  void copy(std::size_t n, const T* x, T* y) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) y[i] = x[i];
  }
  void fill_zero(std::size_t n, T* x) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) x[i] = T(0);
  }
  // positions[r] = where row r's diagonal entry sits in the CSR arrays, -1 where it has none.
  void find_diagonal_positions(index_t rows, const index_t* row_offsets, const index_t* columns,
                               index_t* positions) {
#pragma omp parallel for schedule(static)
    for (index_t row = 0; row < rows; ++row)
      positions[row] = last_diagonal_entry(row, row_offsets[row], row_offsets[row + 1], 1, columns);
  }
  // result[i] = 1 / values[positions[i]]; *fault = the first bad row's diagonal_fault code.
  void invert_entries(std::size_t n, const T* values, const index_t* positions, T* result,
                      std::uint64_t* fault) {
    *fault = diagonal_fault::no_fault;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t code = invert_entry(values, positions[i], result[i]);
      if (code != diagonal_fault::no_fault && *fault == diagonal_fault::no_fault)
        *fault = 4 * static_cast<std::uint64_t>(i) + code;
    }
  }
  // max_i sum_j |a_ij| / |a_ii| over rows with a nonzero a_ii (positions[i] >= 0): the
  // Gershgorin bound on lambda_max(D^-1 A), solver/eigen_estimate.hpp.
  double gershgorin_bound(std::size_t n, const index_t* row_offsets, const T* values,
                          const index_t* positions) {
    double bound = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      bound = std::max(bound, gershgorin_row_ratio(i, row_offsets, values, positions));
    return bound;
  }
  // One step of a polynomial smoother in one pass (solver/chebyshev.hpp), c = coefficients:
  //   d = c[1] D^-1 r + c[0] d   (first: d = c[1] D^-1 r, the old d unread)
  //   x = x + d                  (assign: x = d, the old x unread)
  void polynomial_step(std::size_t n, const T* inverse_diagonal, const T* r, const T* coefficients,
                       T* d, T* x, bool first, bool assign) {
    const T c_d = coefficients[0], c_z = coefficients[1];
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const T z = c_z * inverse_diagonal[i] * r[i];
      const T step = first ? z : c_d * d[i] + z;
      d[i] = step;
      x[i] = assign ? step : x[i] + step;
    }
  }
  // y = d .* x (Jacobi)
  // v[i] = lanczos_start_entry(first_index + i) (solver/lanczos_start.hpp)
  void fill_lanczos_start(std::size_t n, std::size_t first_index, T* v) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
      v[i] = static_cast<T>(lanczos_start_entry(first_index + static_cast<std::size_t>(i)));
  }
  template <class U>
  void convert(std::size_t n, const U* from, T* to) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) to[i] = static_cast<T>(from[i]);
  }
  template <class U>
  HostSpace<U> with_precision() {
    return HostSpace<U>();
  }
  std::tuple<> twin_arguments() {
    return {};
  }  // what constructs that space (none)
  // result[i] = values[positions[i]] (block Jacobi's block values out of the whole rows')
  void gather(std::size_t n, const T* values, const index_t* positions, T* result) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
      result[i] = values[positions[i]];
  }
  void multiply_elementwise(std::size_t n, const T* d, const T* x, T* y) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) y[i] = d[i] * x[i];
  }
  // CG's fused pass (vector_space.hpp). The CPU reference makes it of the plain operations, so
  // its sums are the same ordered sums as dot's.
  // Each fused reduction then runs `then`, the solver's next scalar step.
  template <class Step = NoScalarStep>
  void fused_dot(std::size_t n, const T* x, const T* y, T* result, const Step& then = {}) {
    dot(n, x, y, result);
    scalar_step(then);
  }
  // apply_dots (vector_space.hpp): the product, then the sums
  void apply_dots(const LinearOperator<T>& matrix, const T* x, T* y, const T* w, T* sums,
                  int count) {
    apply_then_dots(*this, matrix, x, y, w, sums, count);
  }
  // alpha: a CoefficientStep (krylov_scalars.hpp), run first; the pass uses what it made.
  template <class Coefficient, class Step = NoScalarStep>
  void cg_update(std::size_t n, const Coefficient& alpha, const T* p, const T* ap, T* x, T* r,
                 const T* inverse_diagonal, T* z, T* sums, const Step& then = {}) {
    scalar_step(alpha);
    const T a = scalars()->*alpha.coefficient;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      if (x != nullptr) x[i] += a * p[i];
      r[i] -= a * ap[i];
    }
    if (inverse_diagonal != nullptr) {
      if (z != nullptr) multiply_elementwise(n, inverse_diagonal, r, z);
      // (r, z) with z = dinv .* r, the same product as a stored z gives
      sums[0] = ordered_sum(
          n, [r, inverse_diagonal](std::size_t i) { return r[i] * (inverse_diagonal[i] * r[i]); });
    } else {
      dot(n, r, r, &sums[0]);  // (r, r)
    }
    dot(n, r, r, &sums[1]);  // (r, r)
    scalar_step(then);
  }
  // CG's second fused pass: x += alpha p, p = (dinv .* r or r) + beta p.
  void cg_direction(std::size_t n, const T* alpha, const T* beta, T* x, T* p, const T* r,
                    const T* inverse_diagonal) {
    const T a = *alpha, b = *beta;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      x[i] += a * p[i];
      p[i] = (inverse_diagonal != nullptr ? inverse_diagonal[i] * r[i] : r[i]) + b * p[i];
    }
  }
  // BiCGSTAB's fused passes (vector_space.hpp), of the plain operations as cg_update.
  void bicgstab_direction(std::size_t n, const T* r, const T* v, const T* beta, const T* omega,
                          T* p, const T* inverse_diagonal, T* p_hat) {
    const T b = *beta, w = *omega;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
      p[i] = r[i] + b * (p[i] - w * v[i]);
    if (inverse_diagonal != nullptr) multiply_elementwise(n, inverse_diagonal, p, p_hat);
  }
  template <class Coefficient, class Step = NoScalarStep>
  void bicgstab_update(std::size_t n, const Coefficient& coefficient, const T* u, const T* w, T* x,
                       T* r, const T* inverse_diagonal, T* z, const T* r_hat, T* sums,
                       const Step& then = {}) {
    scalar_step(coefficient);
    const T c = scalars()->*coefficient.coefficient;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      x[i] += c * u[i];
      r[i] -= c * w[i];
    }
    if (inverse_diagonal != nullptr) multiply_elementwise(n, inverse_diagonal, r, z);
    if (r_hat != nullptr) {
      dot(n, r_hat, r, &sums[0]);  // (r_hat, r)
      dot(n, r, r, &sums[1]);      // (r, r)
    } else {
      dot(n, r, r, &sums[0]);
    }
    scalar_step(then);
  }
  template <class Step = NoScalarStep>
  void dot_pair(std::size_t n, const T* t, const T* r, T* sums, const Step& then = {}) {
    dot(n, t, r, &sums[0]);  // (t, r)
    dot(n, t, t, &sums[1]);  // (t, t)
    scalar_step(then);
  }
  // Pipelined CG's pass (vector_space.hpp): the step, then the rows (solver/pipecg_pass.hpp)
  // in the blocks of ordered_sum, each block's three sums added in row order and the blocks'
  // in block order: the same sums as three ordered dots of the new vectors, in one pass.
  template <class Step>
  void pipecg_update(std::size_t n, const Step& step, const PipeCgVectors<T>& vectors, T* sums) {
    scalar_step(step);
    const bool moving = scalars_.running();  // a stopped solve leaves the vectors alone
    const T a = scalars_.alpha, b = scalars_.beta;
    constexpr std::size_t block = 4096;
    const std::int64_t blocks = static_cast<std::int64_t>((n + block - 1) / block);
    std::vector<T> partial(3 * static_cast<std::size_t>(blocks), T(0));
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < blocks; ++k) {
      const std::size_t begin = static_cast<std::size_t>(k) * block;
      const std::size_t end = begin + block < n ? begin + block : n;
      T r_u = T(0), r_r = T(0), w_u = T(0);
      if (moving)
        for (std::size_t i = begin; i < end; ++i) pipecg_row(vectors, i, a, b, r_u, r_r, w_u);
      partial[3 * static_cast<std::size_t>(k)] = r_u;
      partial[3 * static_cast<std::size_t>(k) + 1] = r_r;
      partial[3 * static_cast<std::size_t>(k) + 2] = w_u;
    }
    sums[0] = sums[1] = sums[2] = T(0);
    for (std::size_t k = 0; k < partial.size(); k += 3) {
      sums[0] += partial[k];      // (r, u)
      sums[1] += partial[k + 1];  // (r, r)
      sums[2] += partial[k + 2];  // (w, u)
    }
  }
  // A sum over processes, split (vector_space.hpp): nothing to sum on one process.
  void start_sums(T* /*sums*/, int /*count*/) {}
  void finish_sums() {}

  // GMRES's basis operations (vector_space.hpp). Each dot is the same ordered sum as dot's.
  void reserve_basis(int /*max_count*/) {}
  void require_free_memory(std::size_t /*bytes*/, const std::string& /*what*/) {}
  std::size_t global_count(std::size_t n) const {
    return n;
  }
  // result[k] = (V_k, w), k < *count; 0 up to max_count; with_norm: result[max_count] = (w, w);
  // then `then`
  template <class Step = NoScalarStep>
  void basis_dots(std::size_t n, const T* basis, std::size_t ld, const int* count, int max_count,
                  const T* w, T* result, bool with_norm = false, const Step& then = {}) {
    const int columns = *count;
    for (int k = 0; k < max_count; ++k) {
      const T* column = basis + static_cast<std::size_t>(k) * ld;
      result[k] = k < columns
                      ? ordered_sum(n, [column, w](std::size_t i) { return column[i] * w[i]; })
                      : T(0);
    }
    if (with_norm)
      result[max_count] =
          columns > 0 ? ordered_sum(n, [w](std::size_t i) { return w[i] * w[i]; }) : T(0);
    scalar_step(then);
  }
  // u = (assign ? 0 : y) + alpha sum_{k < *count} c[k] V_k into y, or *scale u into store.v and
  // store.basis's column *store.column (y unchanged) when that is >= 0; *norm_square = (u, u)
  // when given; then `then`. *count 0: y untouched, *norm_square = 0.
  template <class Step = NoScalarStep>
  void basis_combine(std::size_t n, const T* basis, std::size_t ld, const int* count,
                     const T* coefficients, T alpha, T* y, bool assign, T* norm_square,
                     const ColumnStore<T>& store = {}, const Step& then = {}) {
    const int columns = *count;
    if (columns == 0) {
      if (norm_square != nullptr) *norm_square = T(0);
      scalar_step(then);
      return;
    }
    const bool stored = store.column != nullptr && *store.column >= 0;
    T* result = y;
    if (stored) {
      combine_work_.resize(n);
      result = combine_work_.data();
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      T sum = T(0);
      for (int k = 0; k < columns; ++k)
        sum +=
            coefficients[k] * basis[static_cast<std::size_t>(k) * ld + static_cast<std::size_t>(i)];
      result[i] = (assign ? T(0) : y[i]) + alpha * sum;
    }
    if (norm_square != nullptr) dot(n, result, result, norm_square);
    if (stored) {
      const T scale = *store.scale;
      T* target = store.basis + static_cast<std::size_t>(*store.column) * ld;
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
        const T value = scale * result[i];
        store.v[i] = value;
        target[i] = value;
      }
    }
    scalar_step(then);
  }
  // V_column = *scale w (and v = the same when given), when *column >= 0
  void to_column(std::size_t n, const T* scale, const T* w, T* v, T* basis, std::size_t ld,
                 const int* column) {
    if (*column < 0) return;
    const T a = *scale;
    T* target = basis + static_cast<std::size_t>(*column) * ld;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const T value = a * w[i];
      if (v != nullptr) v[i] = value;
      target[i] = value;
    }
  }

 private:
  KrylovScalars<T> scalars_;
  std::vector<T> combine_work_;  // basis_combine's result before a ColumnStore scales it
};

}  // namespace spk
