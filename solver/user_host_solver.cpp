// The CPU path of a system given by user operators (solver/user_system_solver.hpp): the host
// space, a null stream, host vectors used in place.
#include <memory>

#include "solver/host_space.hpp"
#include "solver/host_threads.hpp"
#include "solver/user_system_solver.hpp"

namespace spk {

namespace {

template <class T>
struct HostPlace {
  using Space = HostSpace<T>;
  explicit HostPlace(cudaStream_t) {}
  cudaStream_t stream() const { return nullptr; }
  template <class Solve>
  SolveResult with_host_vectors(const std::vector<T>& b, std::vector<T>& x, Solve&& solve) {
    return solve(b.data(), x.data());
  }
  Space space;
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_user_host_solver(const UserSystem<T>& system,
                                                                const SolverOptions& options) {
  auto solver = std::make_unique<UserSystemSolver<HostPlace<T>>>(system, options, nullptr);
  solver->setup.device_name = describe_host_threads(host_threads_for(system.rows));
  return solver;
}

template std::unique_ptr<Solver<float>::Impl> make_user_host_solver<float>(
    const UserSystem<float>&, const SolverOptions&);
template std::unique_ptr<Solver<double>::Impl> make_user_host_solver<double>(
    const UserSystem<double>&, const SolverOptions&);

}  // namespace spk
