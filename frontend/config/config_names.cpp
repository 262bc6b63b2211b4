#include "frontend/config/config_names.hpp"

namespace spk {

const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::single_precision: return "single";
    case Precision::double_precision: return "double";
    case Precision::mixed_precision: return "mixed";
  }
  return "?";
}

const char* to_string(RhsSpec::Kind kind) {
  switch (kind) {
    case RhsSpec::Kind::ones: return "ones";
    case RhsSpec::Kind::random: return "random";
    case RhsSpec::Kind::file: return "file";
    case RhsSpec::Kind::from_solution: return "from_solution";
    case RhsSpec::Kind::load: return "load";
  }
  return "?";
}

namespace {

// {to_string(v), v} for each value, so the YAML spelling is written down once.
template <class Values>
auto name_table_of(const Values& values) {
  std::vector<std::pair<std::string, typename Values::value_type>> table;
  for (const auto value : values) table.emplace_back(to_string(value), value);
  return table;
}
template <class Enum>
std::vector<std::pair<std::string, Enum>> name_table(std::initializer_list<Enum> values) {
  return name_table_of(values);
}

}  // namespace

const std::vector<std::string>& solver_key_names() {
  static const std::vector<std::string> keys = {"method",
                                                "tolerance",
                                                "tolerance_mode",
                                                "max_iterations",
                                                "preconditioner",
                                                "preconditioner_options",
                                                "divergence_factor",
                                                "time_limit_s",
                                                "check_every",
                                                "cuda_graph",
                                                "keep_history",
                                                "vector_ops",
                                                "breakdown_restarts",
                                                "restart",
                                                "orthogonalization"};
  return keys;
}

const std::vector<std::string>& spmv_key_names() {
  static const std::vector<std::string> keys = {
      "format",    "x_cache",        "threads_per_row", "block_size",
      "hyb_width", "max_ell_fill",   "sell_sigma",      "cusparse_algorithm",
      "grid",      "tune_budget_ms", "tune_cache"};
  return keys;
}

const std::vector<std::pair<std::string, RowBalance>>& row_balance_names() {
  static const auto table = name_table({RowBalance::nonzeros, RowBalance::rows});
  return table;
}

const std::vector<std::pair<std::string, Transport>>& transport_names() {
  static const auto table = name_table({Transport::automatic, Transport::nccl, Transport::mpi});
  return table;
}

const std::vector<std::pair<std::string, Method>>& method_names() {
  static const auto table =
      name_table({Method::cg, Method::bicgstab, Method::gmres, Method::fgmres, Method::pipecg});
  return table;
}

const std::vector<std::pair<std::string, VectorOps>>& vector_ops_names() {
  static const auto table = name_table({VectorOps::cublas, VectorOps::fused});
  return table;
}

const std::vector<std::pair<std::string, Orthogonalization>>& orthogonalization_names() {
  static const auto table = name_table({Orthogonalization::cgs2, Orthogonalization::selective});
  return table;
}

const std::vector<std::pair<std::string, ToleranceMode>>& tolerance_mode_names() {
  static const auto table =
      name_table({ToleranceMode::rhs, ToleranceMode::initial, ToleranceMode::absolute});
  return table;
}

const std::vector<std::pair<std::string, Preconditioner>>& preconditioner_names() {
  static const auto table =
      name_table({Preconditioner::none, Preconditioner::jacobi, Preconditioner::chebyshev,
                  Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg,
                  Preconditioner::block_jacobi});
  return table;
}

const std::vector<std::pair<std::string, EigenEstimate>>& eigen_estimate_names() {
  static const auto table = name_table({EigenEstimate::lanczos, EigenEstimate::gershgorin});
  return table;
}

const std::vector<std::pair<std::string, AmgResetup>>& amg_resetup_names() {
  static const auto table = name_table({AmgResetup::full, AmgResetup::galerkin, AmgResetup::rebuild});
  return table;
}

const std::vector<std::pair<std::string, AmgSmoother>>& amg_smoother_names() {
  static const auto table = name_table({AmgSmoother::chebyshev, AmgSmoother::jacobi});
  return table;
}

const std::vector<std::pair<std::string, AmgPrecision>>& amg_precision_names() {
  static const auto table = name_table({AmgPrecision::solver, AmgPrecision::single});
  return table;
}

const std::vector<std::pair<std::string, Precision>>& precision_names() {
  static const auto table = name_table(
      {Precision::double_precision, Precision::single_precision, Precision::mixed_precision});
  return table;
}

const std::vector<std::pair<std::string, Device>>& device_names() {
  static const auto table = name_table({Device::automatic, Device::gpu, Device::cpu});
  return table;
}

const std::vector<std::pair<std::string, Format>>& format_names() {
  static const auto table = name_table_of(all_formats());  // spmv/format_names.cpp's list
  return table;
}

const std::vector<std::pair<std::string, RhsSpec::Kind>>& rhs_kind_names() {
  static const auto table =
      name_table({RhsSpec::Kind::ones, RhsSpec::Kind::random, RhsSpec::Kind::file,
                  RhsSpec::Kind::from_solution, RhsSpec::Kind::load});
  return table;
}

const std::vector<std::string>& rhs_solution_names() {
  static const std::vector<std::string> names = {"random", "ones"};
  return names;
}

const std::vector<std::string>& cusparse_algorithm_names() {
  static const std::vector<std::string> names = {"alg1", "alg2", "default"};
  return names;
}

const std::vector<int>& threads_per_row_choices() {
  static const std::vector<int> choices = {0, 2, 4, 8, 16, 32};
  return choices;
}

const std::vector<int>& poisson3d_stencil_choices() {
  static const std::vector<int> choices = {7, 27};
  return choices;
}

}  // namespace spk
