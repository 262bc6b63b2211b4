#pragma once
// make_preconditioner: the preconditioner SolverOptions::preconditioner names, on any vector
// space. Both solvers (solver/host_solver.cpp, solver/device_solver.cu) call it with their
// operator, so a preconditioner is added here once for every path. They include the
// FactorsOf and AmgBuildOf specializations of their space (host_factors.hpp and
// amg/host_amg_build.hpp, device_factors.hpp and amg/device_amg_build.hpp) first. block_jacobi
// builds its local kind here too, on the local space: the distributed solvers pass this
// process's diagonal block (LocalBlock, solver/local_block.hpp); without one the block is the
// whole matrix.
#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "solver/amg/amg_preconditioner.hpp"
#include "solver/amg/level_operator.hpp"
#include "solver/amg/near_nullspace.hpp"
#include "solver/block_jacobi.hpp"
#include "solver/chebyshev.hpp"
#include "solver/incomplete_factorization.hpp"
#include "solver/jacobi.hpp"
#include "solver/local_block.hpp"
#include "solver/preconditioner.hpp"
#include "solver/single_precision_preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

// Whether Space can make a space of another precision (HostSpace, DeviceSpace, and the
// distributed space over either).
template <class Space, class = void>
struct has_precision_spaces : std::false_type {};
template <class Space>
struct has_precision_spaces<
    Space, std::void_t<decltype(std::declval<Space&>().template with_precision<float>())>>
    : std::true_type {};

template <class Space>
std::unique_ptr<KrylovPreconditioner<Space>> make_block_jacobi(
    const SolverOptions& options, Space& space,
    const LinearOperator<typename Space::value_type>& matrix, const SpacePattern& pattern,
    const typename Space::value_type* csr_values,
    const LevelOperatorFactories<typename AmgBuildOf<Space>::type::Matrix>& level_operators,
    const LocalBlock<typename LocalSpaceOf<Space>::type>* block);

// matrix: the solver's operator; pattern and csr_values: the same matrix's pattern and values
// in the space (read during setup only); level_operators: how the solver builds an operator
// of another matrix (the AMG levels), in either precision; block: block_jacobi's diagonal block
// of this process (the distributed solvers'; nullptr: the whole matrix, and ignored by every
// other kind). nullptr for Preconditioner::none.
template <class Space>
std::unique_ptr<KrylovPreconditioner<Space>> make_preconditioner(
    const SolverOptions& options, Space& space,
    const LinearOperator<typename Space::value_type>& matrix, const SpacePattern& pattern,
    const typename Space::value_type* csr_values,
    const LevelOperatorFactories<typename AmgBuildOf<Space>::type::Matrix>& level_operators,
    const LocalBlock<typename LocalSpaceOf<Space>::type>* block = nullptr) {
  using T = typename Space::value_type;
  switch (options.preconditioner) {
    case Preconditioner::none: return nullptr;
    case Preconditioner::block_jacobi:
      return make_block_jacobi(options, space, matrix, pattern, csr_values, level_operators, block);
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

// block_jacobi: the local kind (PreconditionerOptions::local, with its own options) on the
// block, in the local space, or on the whole matrix in the solver's space without a block.
template <class Space>
std::unique_ptr<KrylovPreconditioner<Space>> make_block_jacobi(
    const SolverOptions& options, Space& space,
    const LinearOperator<typename Space::value_type>& matrix, const SpacePattern& pattern,
    const typename Space::value_type* csr_values,
    const LevelOperatorFactories<typename AmgBuildOf<Space>::type::Matrix>& level_operators,
    const LocalBlock<typename LocalSpaceOf<Space>::type>* block) {
  using Local = typename LocalSpaceOf<Space>::type;
  SolverOptions local_options = options;
  const Preconditioner kind = options.preconditioner_options.local;
  local_options.preconditioner = kind;
  if (kind == Preconditioner::none || kind == Preconditioner::block_jacobi)
    throw BadInput(std::string("solver.preconditioner_options.local must be ilu0, ic0, amg, "
                               "chebyshev or jacobi, not ") +
                   to_string(kind));
  if (block != nullptr && block->rank >= 0 && kind == Preconditioner::amg &&
      is_systems_amg(options.preconditioner_options.amg))
    throw NotSupported(
        "block_jacobi with local amg for systems (block_size > 1 or a near_nullspace other than "
        "constant) runs on one process only for now: the blocks' near-null spaces are not split");
  if (block != nullptr && block->matrix == nullptr)
    throw BadInput("block_jacobi: the diagonal block has no operator");
  return std::make_unique<BlockJacobiPreconditioner<Space>>(
      space, kind, block, [&]() -> std::unique_ptr<KrylovPreconditioner<Local>> {
        Local& local_space = space;
        if (block != nullptr)
          return make_preconditioner(local_options, local_space, *block->matrix, block->pattern,
                                     block->values, block->level_operators);
        if constexpr (std::is_same_v<Local, Space>) {
          return make_preconditioner(local_options, local_space, matrix, pattern, csr_values,
                                     level_operators);
        } else {
          throw BadInput("block_jacobi on a distributed space needs this process's diagonal block");
        }
      });
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
