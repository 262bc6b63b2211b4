// The GPU path of a system given by user operators (solver/user_system_solver.hpp): the device
// space on the solver's stream, which the user's operators are given; host vectors are copied
// to the device and back, device vectors used in place.
#include <memory>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.cuh"
#include "solver/device_space.hpp"
#include "solver/user_system_solver.hpp"

namespace spk {

namespace {

template <class T>
struct DevicePlace {
  using Space = DeviceSpace<T>;
  explicit DevicePlace(cudaStream_t stream) : context(stream), space(context) {}
  cudaStream_t stream() const { return context.stream(); }
  template <class Solve>
  SolveResult with_host_vectors(const std::vector<T>& b, std::vector<T>& x, Solve&& solve) {
    if (b_.size() != b.size()) {
      b_ = DeviceBuffer<T>(b.size(), "right-hand side b");
      x_ = DeviceBuffer<T>(b.size(), "solution x");
    }
    const std::size_t bytes = b.size() * sizeof(T);
    SPK_CUDA_CHECK(cudaMemcpyAsync(b_.data(), b.data(), bytes, cudaMemcpyHostToDevice, stream()));
    SPK_CUDA_CHECK(cudaMemcpyAsync(x_.data(), x.data(), bytes, cudaMemcpyHostToDevice, stream()));
    SolveResult result = solve(b_.data(), x_.data());
    SPK_CUDA_CHECK(cudaMemcpyAsync(x.data(), x_.data(), bytes, cudaMemcpyDeviceToHost, stream()));
    context.synchronize();
    return result;
  }
  DeviceContext context;
  Space space;

 private:
  DeviceBuffer<T> b_, x_;
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_user_device_solver(const UserSystem<T>& system,
                                                                  const SolverOptions& options,
                                                                  cudaStream_t stream) {
  auto solver = std::make_unique<UserSystemSolver<DevicePlace<T>>>(system, options, stream);
  const DeviceInfo device = current_device_info();
  solver->setup.device_name = device.name + " (sm_" + std::to_string(device.compute_major) +
                              std::to_string(device.compute_minor) + ")";
  return solver;
}

template std::unique_ptr<Solver<float>::Impl> make_user_device_solver<float>(
    const UserSystem<float>&, const SolverOptions&, cudaStream_t);
template std::unique_ptr<Solver<double>::Impl> make_user_device_solver<double>(
    const UserSystem<double>&, const SolverOptions&, cudaStream_t);

}  // namespace spk
