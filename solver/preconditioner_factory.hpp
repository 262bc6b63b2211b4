#pragma once
// make_preconditioner: the preconditioner SolverOptions::preconditioner names, on any vector
// space. Both solvers (solver/host_solver.cpp, solver/device_solver.cu) call it with their
// operator, so a preconditioner is added here once for every path. They include the
// FactorsOf and AmgBuildOf specializations of their space (host_factors.hpp and
// amg/host_amg_build.hpp, device_factors.hpp and amg/device_amg_build.hpp) first.
#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "solver/amg/amg_preconditioner.hpp"
#include "solver/amg/level_operator.hpp"
#include "solver/chebyshev.hpp"
#include "solver/incomplete_factorization.hpp"
#include "solver/jacobi.hpp"
#include "solver/preconditioner.hpp"
#include "solver/single_precision_preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

// Whether Space can make a space of another precision (HostSpace, DeviceSpace; not the
// distributed space, where AMG is refused before it gets here).
template <class Space, class = void>
struct has_precision_spaces : std::false_type {};
template <class Space>
struct has_precision_spaces<
    Space, std::void_t<decltype(std::declval<Space&>().template with_precision<float>())>>
    : std::true_type {};

// matrix: the solver's operator; pattern and csr_values: the same matrix's pattern and values
// in the space (read during setup only); level_operators: how the solver builds an operator
// of another matrix (the AMG levels), in either precision. nullptr for Preconditioner::none.
template <class Space>
std::unique_ptr<KrylovPreconditioner<Space>> make_preconditioner(
    const SolverOptions& options, Space& space,
    const LinearOperator<typename Space::value_type>& matrix, const SpacePattern& pattern,
    const typename Space::value_type* csr_values,
    const LevelOperatorFactories<typename AmgBuildOf<Space>::type::Matrix>& level_operators) {
  using T = typename Space::value_type;
  switch (options.preconditioner) {
    case Preconditioner::none: return nullptr;
    case Preconditioner::jacobi:
      return std::make_unique<JacobiPreconditioner<Space>>(space, pattern, csr_values);
    case Preconditioner::chebyshev:
      return std::make_unique<ChebyshevPreconditioner<Space>>(
          space, matrix, pattern, csr_values, options.preconditioner_options.chebyshev);
    case Preconditioner::amg: {
      const AmgOptions& amg = options.preconditioner_options.amg;
      if constexpr (std::is_same_v<T, double> && has_precision_spaces<Space>::value) {
        if (amg.precision == AmgPrecision::single) {
          // The fp32 cycle gets its own finest operator (the solver's is fp64).
          return std::make_unique<SinglePrecisionPreconditioner<Space>>(
              space, static_cast<std::size_t>(pattern.rows),
              static_cast<std::size_t>(space.download(pattern.row_offsets + pattern.rows, 1)[0]),
              csr_values, [&](auto& inner_space, const float* values) {
                using Inner = std::remove_reference_t<decltype(inner_space)>;
                return std::make_unique<AmgPreconditioner<Inner>>(
                    inner_space, nullptr, pattern, values, amg,
                    level_operators.template of<float>());
              });
        }
      }
      return std::make_unique<AmgPreconditioner<Space>>(space, &matrix, pattern, csr_values, amg,
                                                        level_operators.template of<T>());
    }
    case Preconditioner::ic0:
      return std::make_unique<IncompleteFactorizationPreconditioner<Space>>(
          space, FactorKind::ic0, pattern, csr_values,
          options.preconditioner_options.factorization);
    case Preconditioner::ilu0:
      return std::make_unique<IncompleteFactorizationPreconditioner<Space>>(
          space, FactorKind::ilu0, pattern, csr_values,
          options.preconditioner_options.factorization);
  }
  // Every kind has its case above (-Wswitch): only a value outside the enum gets here.
  throw BadInput("solver.preconditioner: no preconditioner for kind number " +
                 std::to_string(static_cast<int>(options.preconditioner)));
}

// What make_preconditioner built, with its setup time: SetupInfo::preconditioner.
template <class Space, class Make>
std::unique_ptr<KrylovPreconditioner<Space>> timed_preconditioner(PreconditionerInfo& info,
                                                                  Make&& make) {
  const auto start = std::chrono::steady_clock::now();
  auto preconditioner = make();
  info = preconditioner ? preconditioner->info() : PreconditionerInfo{};
  info.setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return preconditioner;
}

}  // namespace spk
