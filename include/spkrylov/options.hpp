#pragma once
/// @file
/// The library's options: one field per key of the YAML config (docs/config.md),
/// `solver.*` -> Options::solver, `spmv.*` -> Options::spmv, `device` -> Options::device.
/// Plain structs and enums; `precision` is the Solver's template parameter.
///
/// @code
///   spk::Options options;
///   options.solver.method = spk::Method::bicgstab;     // solver: {method: bicgstab, ...}
///   options.solver.tolerance = 1e-10;                  // ||r|| <= 1e-10 ||b|| (mode rhs)
///   options.solver.preconditioner = spk::Preconditioner::jacobi;
///   options.spmv.format = spk::Format::ellpack_r;      // spmv: {format: ellpack-r}
///   options.device = spk::Device::gpu;                 // device: gpu
/// @endcode
#include <string>
#include <vector>

namespace spk {

// ---- solver.* -------------------------------------------------------------------------

// gmres: restarted GMRES(restart), right-preconditioned; fgmres: flexible GMRES (Z = M^-1 V
// stored), for a preconditioner that changes between iterations (solver/gmres.hpp). pipecg:
// pipelined CG (Ghysels & Vanroose 2014), CG's iterates with one sum over processes an
// iteration, overlapped with the product and the preconditioner (solver/pipecg.hpp).
enum class Method { cg, bicgstab, gmres, fgmres, pipecg };
enum class ToleranceMode {
  rhs,       // stop when ||r|| <= tolerance * ||b||
  initial,   // stop when ||r|| <= tolerance * ||r0||
  absolute,  // stop when ||r|| <= tolerance
};
// block_jacobi: each process preconditions its rows with PreconditionerOptions::local built
// on its own diagonal block (no overlap; PETSc's PCBJACOBI; solver/block_jacobi.hpp); on one
// process the block is the whole matrix.
enum class Preconditioner { none, jacobi, chebyshev, ic0, ilu0, amg, block_jacobi };
// How an iteration's vector work runs (solver.vector_ops).
enum class VectorOps {
  cublas,  // one library call per operation (the reference path)
  fused,   // CG: x += alpha p, r -= alpha Ap, (r, r) and Jacobi's z = D^-1 r, (r, z) in one
           // pass; p = z + beta p in one; the two sums in one reduction over processes
};
// How GMRES and FGMRES orthogonalise a new Arnoldi vector (solver.orthogonalization;
// solver/gmres.hpp): classical Gram-Schmidt, with a second pass either always or only where the
// first removed more than half of ||w||^2 (the "twice is enough" test).
enum class Orthogonalization { cgs2, selective };

enum class Format;  // spmv.* below

// How a preconditioner bounds the largest eigenvalue of D^-1 A (D = diag(A)).
enum class EigenEstimate {
  lanczos,     // a few Jacobi-PCG (Lanczos) steps on a fixed random vector: tight, SPD only
  gershgorin,  // max_i sum_j |a_ij| / |a_ii|: a safe upper bound, often loose
};

// solver.preconditioner_options for chebyshev, and the AMG smoother's polynomial: z = p(D^-1 A)
// D^-1 r with p the degree-k Chebyshev polynomial on [lower_ratio, 1] * lambda_max(D^-1 A).
struct ChebyshevOptions {
  int degree = 3;  // 1..10 SpMVs per apply
  EigenEstimate eigen_estimate = EigenEstimate::lanczos;
  int estimate_iterations = 10;     // lanczos steps (1..100)
  double upper_factor = 1.1;        // lambda_max = upper_factor * estimate
  double lower_ratio = 1.0 / 30.0;  // lambda_min = lower_ratio * lambda_max
};

// What update_values recomputes of an AMG hierarchy (full and galerkin keep the aggregates).
enum class AmgResetup {
  full,      // every level's lambda_max, P = (I - w/lambda D^-1 A) T, R and A_{l+1}
  galerkin,  // P and R kept; lambda_max and A_{l+1} = R A P only (hypre's and AmgX's
             // interpolation reuse): cheaper, for matrices that change little step to step
  rebuild,   // nothing kept for a re-setup: each level's product state is freed as soon as
             // the level is built, and the whole hierarchy once the cycle's operators are made
             // (A_0 stays); update_values builds the hierarchy again, aggregates included. The
             // least device memory (the largest problems); a re-setup costs a setup.
};

enum class AmgSmoother {
  chebyshev,  // AmgOptions::chebyshev on each level
  jacobi,     // damped Jacobi, weight jacobi_weight / lambda_max(D^-1 A)
};

// The precision of the AMG V-cycle: the solver's, or fp32 under an fp64 Krylov method (the
// level matrices and vectors in fp32: half the bytes per cycle; the outer method, its
// residuals and its stopping test stay fp64). A Solver<float> is fp32 either way.
enum class AmgPrecision {
  solver,  // the solver's precision
  single,  // fp32 cycle
};

// The near-null space smoothed aggregation's tentative prolongator reproduces (k vectors;
// coarse levels get k dofs per aggregate).
enum class NearNullspace {
  constant,    // the constant vector per dof (k = block_size): scalar problems, the default
  rigid_body,  // the rigid-body modes from AmgOptions::coordinates (k = 3 in 2-D, 6 in 3-D)
  vectors,     // AmgOptions::near_nullspace_vectors, given (PyAMG's B)
};

// solver.preconditioner_options for amg: smoothed aggregation, V-cycle (solver/amg/).
struct AmgOptions {
  // Unknowns per node (matrix.block_size, 1..6), interleaved: rows b*i .. b*i + b - 1 are the
  // dofs of node i (x, y, z of node 0, then node 1, ...). With b > 1 the strength of
  // connection and the aggregates are computed between nodes, and every dof of a node goes to
  // its node's aggregate.
  int block_size = 1;
  NearNullspace near_nullspace = NearNullspace::constant;
  // rigid_body: the nodes' coordinates, row-major (nodes x dimension), nodes = rows /
  // block_size, dimension = block_size (2 or 3).
  std::vector<double> coordinates;
  // vectors: B, row-major (rows x near_nullspace_count).
  std::vector<double> near_nullspace_vectors;
  int near_nullspace_count = 0;

  double strength_threshold = 0.0;        // |a_ij| >= theta sqrt(|a_ii a_jj|) is strong; 0 = all
  int max_levels = 10;                    // levels including the finest
  int max_coarse_rows = 500;              // stop coarsening at or below this; dense solve there
  // Several processes (mpirun, the CPU path): a coarse level with fewer rows per process than
  // this moves onto fewer processes (consecutive ranks' rows onto the first of each group, as
  // AmgX consolidates and PETSc GAMG reduces processes), down to one; the levels below it run
  // there. 0: never.
  int agglomerate_rows = 0;
  double prolongator_weight = 4.0 / 3.0;  // P = (I - w / lambda_max D^-1 A) T
  AmgSmoother smoother = AmgSmoother::chebyshev;
  AmgResetup resetup = AmgResetup::full;
  int sweeps = 1;  // pre- and post-smoothing sweeps (equal: a symmetric cycle)
  // The chebyshev smoother's polynomial (key smoother_degree sets its degree) and how every
  // level bounds lambda_max(D^-1 A), which the jacobi smoother and P's smoothing use too.
  ChebyshevOptions chebyshev;
  double jacobi_weight = 4.0 / 3.0;  // jacobi smoother: damping w / lambda_max(D^-1 A)
  AmgPrecision precision = AmgPrecision::solver;
  // The SpMV format of each level, finest first; levels past the list use spmv.format.
  std::vector<Format> level_formats;
};

// How IC(0)/ILU(0) get past a pivot that breaks them (preconditioner_options.shift):
// factor A + alpha diag(A) (Manteuffel 1980; PETSc's shift_type positive_definite) and, for
// ILU(0), replace a zero or tiny pivot (solver/incomplete_factorization.hpp says the rules).
enum class FactorShift {
  automatic,  // "auto": IC(0) tries alpha = 0, then 1e-3 doubling up to 1e3 until every
              // pivot is > 0; ILU(0): alpha = 0 with tiny pivots replaced
  none,       // "none": no shift, no replacement: a bad pivot is BadDiagonal
  fixed,      // a number: that alpha only (ILU(0): with tiny pivots replaced)
};

// solver.preconditioner_options for ic0 and ilu0: the fine-grained iterative factorization.
struct FactorizationOptions {
  int sweeps = 5;  // ParIC/ParILU fixed-point sweeps (Chow & Patel 2015)
  FactorShift shift = FactorShift::automatic;
  double shift_value = 0.0;  // fixed: alpha >= 0
};

struct PreconditionerOptions {
  ChebyshevOptions chebyshev;
  AmgOptions amg;
  FactorizationOptions factorization;
  // block_jacobi: the kind on each diagonal block (ilu0, ic0, amg, chebyshev or jacobi; PETSc's
  // default sub-preconditioner is ILU(0)); it reads its own options above.
  Preconditioner local = Preconditioner::ilu0;
};

struct SolverOptions {
  Method method = Method::cg;
  double tolerance = 1e-8;
  ToleranceMode tolerance_mode = ToleranceMode::rhs;
  int max_iterations = 10000;
  Preconditioner preconditioner = Preconditioner::none;
  // The keys of the chosen preconditioner (only that kind's are read and reported).
  PreconditionerOptions preconditioner_options;
  // Stop with status `diverged` when ||r|| > divergence_factor * ||r0||. 0 (the default)
  // disables the test. BiCGSTAB's residual is not monotone, and with residual replacement
  // (krylov_driver.hpp) a solve whose residual peaked far above ||r0|| still reaches the
  // true tolerance: convdiff2d n=128 upwind Peclet 10 peaks at 7e29 x ||r0|| and converges
  // (true residual 1.9e-9) in 714 iterations; a factor of 1e10 stopped it at iteration 31
  // as `diverged` (BENCHMARKS.md, "Divergence test"). A hopeless solve still ends honestly:
  // `non_finite` on overflow, `stagnated`, `breakdown` or `max_iterations`.
  double divergence_factor = 0.0;
  // Stop with status `max_iterations`-like `time_limit` after this many seconds. 0 disables.
  double time_limit_s = 0.0;
  // GPU: read the residual back after at most check_every iterations (the device decides
  // convergence every iteration; this only bounds wasted iterations and history latency).
  // After the first block, a block is as long as the residual's rate says it still needs
  // (solver/check_schedule.hpp), so a solve runs fewer iterations past convergence.
  int check_every = 16;
  // GPU: capture a full block of check_every iterations as a CUDA graph and replay it (a
  // shorter block runs as plain launches; measured on an H100:
  // 5-10% less time per iteration; BENCHMARKS.md). Re-captured when b or x pointers change.
  bool cuda_graph = true;
  // Keep the per-iteration residual history (needed for output.history and plots).
  bool keep_history = true;
  // cublas (default) or fused (CG and BiCGSTAB: fewer passes over the vectors, Jacobi folded in).
  VectorOps vector_ops = VectorOps::cublas;
  // BiCGSTAB: when rho, (r_hat, v) or omega vanishes (status breakdown), restart from x with
  // r_hat = r = b - A x, at most this many times in a solve, before reporting the breakdown
  // (SolveResult::breakdown_restarts counts them). 0: stop at the first breakdown.
  int breakdown_restarts = 3;
  // GMRES and FGMRES: Arnoldi steps per cycle (m, >= 1; PETSc's default 30), clipped to the
  // number of rows. The basis holds m + 1 vectors (FGMRES: 2m + 1).
  int restart = 30;
  // GMRES and FGMRES: Gram-Schmidt's second pass only where needed (selective) or always.
  Orthogonalization orthogonalization = Orthogonalization::selective;
};

// SpMV calls one iteration of the method makes (CG 1, BiCGSTAB 2, GMRES and FGMRES 1,
// pipelined CG 1).
inline int spmv_per_iteration(Method method) {
  return method == Method::bicgstab ? 2 : 1;
}

// Throws spk::BadInput when the tolerance is not a positive finite number or max_iterations is
// negative. Every solver checks its options with it.
void validate_solver_options(const SolverOptions& options);

const char* to_string(Method method);
const char* to_string(ToleranceMode mode);
const char* to_string(Preconditioner preconditioner);
const char* to_string(EigenEstimate estimate);
const char* to_string(AmgSmoother smoother);
const char* to_string(AmgResetup resetup);
const char* to_string(AmgPrecision precision);  // "solver" | "single"
const char* to_string(NearNullspace space);      // "constant" | "rigid_body" | "vectors"
const char* to_string(VectorOps ops);           // "cublas" | "fused"
const char* to_string(FactorShift shift);       // "auto" | "none" | "fixed"
// "cgs2" | "selective" (solver.orthogonalization)
const char* to_string(Orthogonalization orthogonalization);

// ---- spmv.* ---------------------------------------------------------------------------

// The storage formats spmv.format names. spmv/format_names.cpp holds their one list: per
// format its name and a one-line doc (spmv/registry.cpp: its factory); the functions below
// read it.
enum class Format {
  csr,          // "csr": alias of csr-vector, the default
  csr_scalar,   // "csr-scalar"
  csr_vector,   // "csr-vector"
  aligned_csr,  // "aligned-csr"
  ellpack,      // "ellpack"
  ellpack_r,    // "ellpack-r"
  hyb,          // "hyb"
  csr_merge,    // "csr-merge"
  sell,         // "sell"
  cusparse,     // "cusparse"
  automatic,    // "auto": measured choice among the others
};

// The spmv.format spelling, e.g. "ellpack-r", "auto".
const char* to_string(Format format);
// One line on the format (layout and thread mapping), e.g. for help texts.
const char* format_doc(Format format);
// The format spelled `text`. Throws BadInput "unknown spmv.format 'coo' (valid: csr,
// csr-scalar, ...)".
Format parse_format(const std::string& text);
// Every format, in table order (the order errors, configs and the bench list them).
const std::vector<Format>& all_formats();

// How a kernel reads the input vector x.
enum class XCache {
  none,     // plain global loads
  ldg,      // read-only data cache: const __restrict__ + __ldg
  texture,  // cudaTextureObject_t over x
  shared,   // csr and csr-vector only: each warp stages the slice of x its rows touch (when it
            // spans at most 1024 values) in shared memory, else __ldg (Mazzucchi's Algorithm 4)
};

// How many blocks a hand-written kernel is launched with.
enum class GridShape {
  exact,   // one block per group of rows: every thread (sub-warp) gets one row
  capped,  // one full wave (multiprocessors x resident blocks per SM); a grid-stride loop
           // walks the remaining rows
};

// How the SpMV stores the matrix values (a config's `precision: mixed`).
enum class MatrixValues {
  solver,  // in the solver's precision
  single,  // fp32 values under an fp64 solver: half the value bytes; each fp32 value times the
           // fp64 x is computed and summed in fp64. True residuals use an fp64 copy (csr-vector)
};

struct SpmvOptions {
  // csr (alias of csr-vector) | csr-scalar | csr-vector | aligned-csr | ellpack | ellpack-r
  // | hyb | csr-merge | sell | cusparse | auto (measured choice, spmv/tuning/auto_backend.hpp);
  // Format above
  Format format = Format::csr;
  XCache x_cache = XCache::ldg;
  int threads_per_row = 0;    // csr-vector, aligned-csr: 2,4,8,16,32; 0 = from row statistics
  int block_size = 256;       // threads per block for hand-written kernels
  int hyb_width = -1;         // hyb: ELL width; -1 = histogram rule
  double max_ell_fill = 3.0;  // ellpack: refuse when padded entries > max_ell_fill * nnz
  int sell_sigma = 1024;      // sell: rows sorted by length within windows of this many rows
                              // (a multiple of 32, the chunk height)
  std::string cusparse_algorithm = "alg1";            // cusparse: alg1 | alg2 | default
  GridShape grid = GridShape::exact;                  // hand-written kernels: exact | capped
  MatrixValues matrix_values = MatrixValues::solver;  // single: Solver<double> only
  double tune_budget_ms = 2000.0;  // auto: wall-clock bound on tuning (conversions included)
  std::string tune_cache;          // auto: cache file; "" = default location, "off" = none
};

const char* to_string(XCache cache);
const char* to_string(GridShape grid);
const char* to_string(MatrixValues values);  // "solver" | "single"
// Throws spk::BadInput naming the accepted values.
GridShape parse_grid_shape(const std::string& text);
// Throws spk::BadInput naming the accepted values.
XCache parse_x_cache(const std::string& text);
// Why `format` cannot read x through `cache`, e.g. "shared is not supported by format
// 'ellpack' (...)"; empty when it can. Only x_cache: shared is format-specific: csr,
// csr-vector and auto (which picks its own x_cache) take it, every other format refuses it.
std::string x_cache_refusal(Format format, XCache cache);
// Throws spk::BadInput naming the first key out of range (a Format outside the enum, a block
// size that is not a multiple of 32 in [32, 1024], x_cache: shared with a format that has no
// shared-memory path, ...). Solver checks every option with it
// on every device, the CPU path included, where the SpMV keys are otherwise unused.
void validate_spmv_options(const SpmvOptions& options);

// ---- device ---------------------------------------------------------------------------

// Where a solver runs. As an option (the `device:` key): automatic uses the GPU when one is
// usable, else the CPU reference path. As a result (SetupInfo::device): gpu or cpu.
enum class Device { automatic, gpu, cpu };
const char* to_string(Device device);  // "auto" | "gpu" | "cpu"
// automatic -> gpu when a usable GPU exists, else cpu; gpu throws spk::NoDevice (with the
// reason) when there is none; cpu -> cpu.
Device resolve_device(Device device);

struct Options {
  SolverOptions solver;
  SpmvOptions spmv;
  Device device = Device::automatic;
};

}  // namespace spk
