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
/// The public headers (the only ones installed):
///  - <spkrylov/solver.hpp>      spk::Solver<T>: setup once, solve many times, update_values
///  - <spkrylov/options.hpp>     spk::Options = SolverOptions + SpmvOptions (Format, x_cache,
///                               kernel shape) + Device
///  - <spkrylov/csr_arrays.hpp>  spk::CsrArrays<T>: the caller's CSR arrays (host or device)
///  - <spkrylov/result.hpp>      spk::SolveResult: status, message, residuals, history
///  - <spkrylov/setup_info.hpp>  spk::SetupInfo: device, format, memory, the auto tuning
///  - <spkrylov/errors.hpp>      spk::Error and subclasses: BadInput (BadDiagonal),
///                               NotSupported, CudaError, OutOfDeviceMemory, NoDevice
#include <spkrylov/csr_arrays.hpp>
#include <spkrylov/errors.hpp>
#include <spkrylov/options.hpp>
#include <spkrylov/result.hpp>
#include <spkrylov/setup_info.hpp>
#include <spkrylov/solver.hpp>
