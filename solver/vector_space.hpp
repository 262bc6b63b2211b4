#pragma once
// What a Krylov method needs of the place its vectors live: a "vector space". The methods
// (solver/cg.hpp, solver/bicgstab.hpp), the driver (solver/krylov_driver.hpp) and the
// preconditioners (solver/preconditioner.hpp) are written once against it; HostSpace
// (solver/host_space.hpp, the CPU reference) and DeviceSpace (solver/device_space.hpp, cuBLAS
// on one stream) implement it, and a distributed space only has to sum `dot` across ranks.
//
//   value_type, Array<U>                 element type, owning array of U in the space
//   allocate<U>(count, what)             an Array<U> (what names it in allocation errors)
//   download(data, count)                a std::vector copy on the host (synchronizes)
//   copy_within(source, count, destination)   an array of the space copied to another
//   scalars(), read_scalars(), write_scalars(), scalar_step(step)   KrylovScalars<T> in the
//                                        space and the small functors that update them
//   run_repeated(count, use_graph, body), invalidate_graph(), synchronize()
//   dot(n, x, y, result)                 *result = (x, y), result in the space
//   axpy(n, alpha, x, y), scal(n, alpha, x), copy(n, x, y), fill_zero(n, x)
//   multiply_elementwise(n, d, x, y)     y = d .* x
//   polynomial_step(n, dinv, r, c, d, x, first, assign)   d = c[1] dinv .* r + c[0] d,
//                                        x += d: one Chebyshev step (solver/chebyshev.hpp)
//   square_root(value)                   *value = sqrt(*value) (NaN/Inf kept, -0 clamped)
//   fused_dot(n, x, y, result, then)     *result = (x, y) as a fused reduction (below)
//   apply_dots(matrix, x, y, w, sums, count)   y = A x, sums[0] = (w, y) and (count 2)
//                                        sums[1] = (y, y): sums the device space folds into the
//                                        SpMV's kernel where the operator can
//                                        (LinearOperator::apply_dots), and apply_then_dots
//                                        (below) makes everywhere else. No scalar step follows:
//                                        the next pass runs the method's (CoefficientStep)
//   cg_update(n, alpha, p, ap, x, r, dinv, z, sums, then)   CG's fused pass (vector_ops: fused):
//                                        alpha is a CoefficientStep (krylov_scalars.hpp): the
//                                        step that makes the coefficient runs inside the pass,
//                                        before its sums are written; then
//                                        x += alpha p (x given), r -= alpha ap, z = dinv .* r
//                                        (dinv given; stored when z is given), sums[0] =
//                                        (r, z) (z = r without dinv), sums[1] = (r, r); sums:
//                                        2 scalars in the space
//   cg_direction(n, alpha, beta, x, p, r, dinv)   CG's second fused pass: x += alpha p, then
//                                        p = (dinv .* r, or r without dinv) + beta p
//   bicgstab_direction(n, r, v, beta, omega, p, dinv, p_hat)   p = r + beta (p - omega v),
//                                        p_hat = dinv .* p (dinv given): one pass
//   bicgstab_update(n, c, u, w, x, r, dinv, z, r_hat, sums, then)   c: a CoefficientStep, as
//                                        cg_update's alpha; x += c u, r -= c w, z = dinv .*
//                                        r (dinv given), sums[0] = (r_hat, r) and sums[1] =
//                                        (r, r), or sums[0] = (r, r) without r_hat: one pass
//   dot_pair(n, t, r, sums, then)        sums[0] = (t, r), sums[1] = (t, t): one pass
//   The fused reductions (fused_dot, cg_update, bicgstab_update, dot_pair) end by running
//   `then` (default NoScalarStep), the method's next scalar step, once their sums are final:
//   the device space runs it in the reduction kernel's last block (no launch of its own), a
//   distributed space after the sum over processes.
//   pipecg_update(n, step, vectors, sums)   pipelined CG's pass (solver/pipecg.hpp,
//                                        solver/pipecg_pass.hpp): runs `step` (the iteration's
//                                        test and coefficients; in a device kernel every thread
//                                        on a private copy for alpha and beta, the last block
//                                        for real), updates the vectors, and writes the new
//                                        (r, u), (r, r), (w, u) of THIS process's rows into
//                                        sums[0..3): no sum over processes (a distributed space
//                                        takes Inner's), start_sums makes it
//   start_sums(sums, count), finish_sums()   sums[0..count) (this process's values, in the
//                                        space) summed over the processes, split in two so the
//                                        work queued between them overlaps the sum: one
//                                        nonblocking allreduce, one in flight at a time. Nothing
//                                        outside a distributed space
//   GMRES's basis operations (solver/gmres.hpp). V is `columns` vectors of n entries, column k
//   at V + k ld; `count` and `column` are ints in the space (device memory on the GPU), read by
//   the operation itself, so a CUDA graph that replays it follows where the cycle stands:
//   reserve_basis(max_count)             scratch for basis_dots of up to max_count columns
//                                        and the norm (call before the first solve, never
//                                        inside one)
//   basis_dots(n, V, ld, count, max_count, w, result, with_norm = false, then = NoScalarStep)
//                                        result[k] = (V_k, w) for k < *count, 0 up to max_count,
//                                        and with_norm result[max_count] = (w, w): one pass over
//                                        w and the columns; a distributed space sums all
//                                        max_count (+ 1) in one reduction. *count 0: result all
//                                        0, nothing read. Then `then`, a scalar step, after the
//                                        sums (on the device in the pass's last block; the
//                                        device space instantiates it for GMRES's steps only)
//   basis_combine(n, V, ld, count, c, alpha, y, assign, norm_square, store = {}, then =
//                 NoScalarStep)          u = (assign ? 0 : y) + alpha sum_{k < *count} c[k] V_k,
//                                        stored in y, or (store.column given and *column >= 0)
//                                        *store.scale u into store.v and V_{*column} (ColumnStore)
//                                        with y left as it was; *norm_square = (u, u) when given:
//                                        one pass;
//                                        then `then` as basis_dots. *count 0 (a skipped pass): y
//                                        untouched, *norm_square = 0, `then` still runs
//   to_column(n, scale, w, v, V, ld, column)   when *column >= 0: V_column = *scale w, and
//                                        v = the same when v is given; nothing when *column < 0
//   require_free_memory(bytes, what)     throws OutOfDeviceMemory, before anything is
//                                        allocated, when `bytes` do not fit (device space)
//   global_count(n)                      n summed over the processes (n outside a distributed
//                                        space): the whole vector's length
//   find_diagonal_positions(...), invert_entries(...)   the Jacobi setup and diagonal kernels
//                                        (solver/jacobi.hpp)
//   gershgorin_bound(...)                max_i sum_j |a_ij| / |a_ii| (a host double; syncs)
//   gather(n, values, positions, result) result[i] = values[positions[i]] (block Jacobi's
//                                        diagonal block's values out of the whole rows')
//   fill_lanczos_start(n, first, v)      the Lanczos start vector, made where v lives
//                                        (solver/lanczos_start.hpp)
//   convert(n, from, to), with_precision<U>()   another precision's values and space, for a
//                                        mixed-precision preconditioner (host and device
//                                        spaces; solver/single_precision_preconditioner.hpp)
//   any_process(flag)                    flag, or (distributed) whether any process's flag is
//                                        set: a host decision every process must share
//   first_global_index()                 where this space's vectors start in the whole
//                                        vector: 0, or (distributed) this process's first row
// Scalars (alpha, result) are pointers into the space: device pointers on the GPU, so no
// iteration waits for the host.
#include <cstddef>

#include "spmv/linear_operator.hpp"

namespace spk {

// Where basis_combine stores its result instead of in y: *scale times it into v and into
// column *column of `basis` (the combination's V, same ld: a column it does not read), when
// column is given and *column >= 0 (pointers into the space).
template <class T>
struct ColumnStore {
  const int* column = nullptr;
  const T* scale = nullptr;
  T* v = nullptr;
  T* basis = nullptr;
};

// *result = ||x||_2, as the dot product (x, x) followed by a square root, so that a
// distributed space, whose dot sums over ranks, gets the global norm with no extra code.
// (x, x) overflows where ||x|| > sqrt(max of T): 1e154 in double, 1e19 in float.
template <class Space, class T>
void norm(Space& space, std::size_t n, const T* x, T* result) {
  space.dot(n, x, x, result);  // (x, x)
  space.square_root(result);   // sqrt((x, x))
}

// apply_dots as a space makes it where the operator folds no dots: y = A x, then sums[0] =
// (w, y) (fused_dot) or, count 2, sums[0] = (y, w) and sums[1] = (y, y) (dot_pair).
template <class Space, class T>
void apply_then_dots(Space& space, const LinearOperator<T>& matrix, const T* x, T* y, const T* w,
                     T* sums, int count) {
  matrix.apply(x, y);
  const auto n = static_cast<std::size_t>(matrix.rows());
  if (count == 2)
    space.dot_pair(n, y, w, sums);
  else
    space.fused_dot(n, w, y, sums);
}

}  // namespace spk
