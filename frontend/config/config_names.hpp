#pragma once
// The YAML spelling of the RunConfig enums and the fixed value sets of the config schema
// (shared by the loader, which checks them, and the writer, which prints them).
#include <string>
#include <utility>
#include <vector>

#include "frontend/config/run_config.hpp"
#include "spkrylov/options.hpp"

namespace spk {

const char* to_string(Precision precision);  // "single" | "double" | "mixed"
const char* to_string(RhsSpec::Kind kind);   // "ones" | "random" | "file" | "from_solution"
                                             // | "load"

// Name/value tables for ConfigValue::as_enum, in the order docs/config.md lists them.
const std::vector<std::pair<std::string, Method>>& method_names();
const std::vector<std::pair<std::string, ToleranceMode>>& tolerance_mode_names();
const std::vector<std::pair<std::string, Preconditioner>>& preconditioner_names();
const std::vector<std::pair<std::string, VectorOps>>& vector_ops_names();  // cublas, fused
const std::vector<std::pair<std::string, Orthogonalization>>&
orthogonalization_names();  // cgs2, selective
const std::vector<std::pair<std::string, EigenEstimate>>& eigen_estimate_names();
const std::vector<std::pair<std::string, AmgSmoother>>& amg_smoother_names();
const std::vector<std::pair<std::string, AmgResetup>>& amg_resetup_names();
const std::vector<std::pair<std::string, AmgPrecision>>& amg_precision_names();
const std::vector<std::pair<std::string, Precision>>& precision_names();
const std::vector<std::pair<std::string, Device>>& device_names();
// spmv.format: every format of the registry's table, in its order (<spkrylov/options.hpp>).
const std::vector<std::pair<std::string, Format>>& format_names();
const std::vector<std::pair<std::string, RhsSpec::Kind>>& rhs_kind_names();
// The keys of solver: and spmv: (every valid key, in the order errors list them); the Python
// module maps its keyword arguments through them.
const std::vector<std::string>& solver_key_names();
const std::vector<std::string>& spmv_key_names();
// distributed.partition
const std::vector<std::pair<std::string, RowBalance>>& row_balance_names();  // nnz, rows
// distributed.transport
const std::vector<std::pair<std::string, Transport>>& transport_names();  // auto, nccl, mpi

// rhs.from_solution: the manufactured solution x* (b = A x*).
const std::vector<std::string>& rhs_solution_names();  // random, ones
// spmv.cusparse_algorithm
const std::vector<std::string>& cusparse_algorithm_names();  // alg1, alg2, default
// spmv.threads_per_row: 0 picks from the row statistics.
const std::vector<int>& threads_per_row_choices();  // 0, 2, 4, 8, 16, 32
// matrix.generate.stencil (poisson3d).
const std::vector<int>& poisson3d_stencil_choices();  // 7, 27

}  // namespace spk
