#pragma once
/// @file
/// spkrylov: sparse Krylov solvers (CG, BiCGSTAB) on NVIDIA GPUs, with a CPU reference path.
/// This is the one header an embedding program includes; link spkrylov::spkrylov.
///
/// @code
///   #include <spkrylov/spkrylov.hpp>
///   spk::CsrArrays<double> a{n, n, row_offsets, columns, values};  // host or device arrays
///   spk::Options options;                 // fields = YAML keys: solver.*, spmv.*, device
///   options.solver.preconditioner = spk::Preconditioner::jacobi;
///   spk::Solver<double> solver(a, options);
///   spk::SolveResult result = solver.solve(b, x);  // x: initial guess in, solution out
///   if (!result.converged()) std::cerr << result.message << "\n";
/// @endcode
///
/// What each piece is:
///  - spk::Solver<T>             solver/solver.hpp: setup once, solve many times, update_values
///  - spk::Options               solver/solver.hpp: SolverOptions + SpmvOptions + Device
///  - spk::SolverOptions         solver/solver_options.hpp: method, tolerance, stopping, Jacobi
///  - spk::SpmvOptions           spmv/spmv_options.hpp: storage format, x_cache, kernel shape
///  - spk::SolveResult           solver/solve_result.hpp: status, message, residuals, history
///  - spk::Error and subclasses  <spkrylov/errors.hpp>: BadInput, NotSupported, CudaError,
///                               OutOfDeviceMemory, NoDevice
///  - spk::CsrMatrix<T>          spmv/host/csr_matrix.hpp: an owning host CSR matrix
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/result.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/csr_matrix.hpp"
