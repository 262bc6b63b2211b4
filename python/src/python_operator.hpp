#pragma once
// PythonOperator: a spk::UserOperator<double> (include/spkrylov/user_operator.hpp) whose apply
// calls a Python function, for the module's user operators (a LinearOperator or any object
// with matvec as A, a LinearOperator or a callable as M; python/spkrylov/_operators.py makes
// the function). The function is called as f(x_address, y_address, stream, on_device) with
// addresses as ints:
//  - CPU solver: host addresses, on_device false, stream 0;
//  - GPU solver, device arrays wanted (CuPy present): the device addresses and the solver's
//    stream, on_device true; the function queues its work on that stream (nothing waits);
//  - GPU solver, host arrays wanted (no CuPy, or an operator of NumPy arrays, e.g. SciPy's
//    LinearOperator): x is copied to a host buffer (the stream synchronized), the function
//    called on host addresses, and y copied back on the stream: two copies of n doubles over
//    PCIe and one synchronization per application.
// The solve runs without the GIL; apply takes it for the call. A Python exception becomes a
// std::runtime_error with the exception's text, which the solver reports as one spk::BadInput
// naming the operator ("user operator A: ..."); the Python side keeps the original for the
// `raise ... from` chain.
#include <cuda_runtime.h>
#include <nanobind/nanobind.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "spkrylov/user_operator.hpp"

namespace spk::python {

class PythonOperator final : public UserOperator<double> {
 public:
  // host_arrays: the function takes host addresses even on a GPU solver.
  PythonOperator(nanobind::object function, std::size_t rows, bool host_arrays)
      : function_(std::move(function)), rows_(rows), host_arrays_(host_arrays) {}

  // Set once the solver is built and its device known (device = auto is resolved there).
  void set_gpu_solver(bool gpu) { gpu_ = gpu; }
  // For the garbage collector: the function, and dropping it (a later apply throws).
  nanobind::handle function() const { return function_; }
  void release() { function_ = nanobind::object(); }

  void apply(const double* x, double* y, cudaStream_t stream) override {
    const auto start = std::chrono::steady_clock::now();
    if (gpu_ && host_arrays_)
      staged_apply(x, y, stream);
    else
      call(x, y, stream, gpu_);
    ++calls_;
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  // Completed applications and the host time they took, the function's own included (the
  // Python side times that part, the difference is the callback's overhead).
  long long calls() const { return calls_; }
  double seconds() const { return seconds_; }

 private:
  // y = f(x) through host copies of x and y (a GPU solver, an operator of host arrays).
  void staged_apply(const double* x, double* y, cudaStream_t stream) {
    if (host_x_.size() != rows_) {
      host_x_.assign(rows_, 0.0);
      host_y_.assign(rows_, 0.0);
    }
    const std::size_t bytes = rows_ * sizeof(double);
    SPK_CUDA_CHECK(cudaMemcpyAsync(host_x_.data(), x, bytes, cudaMemcpyDeviceToHost, stream));
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
    call(host_x_.data(), host_y_.data(), nullptr, false);
    SPK_CUDA_CHECK(cudaMemcpyAsync(y, host_y_.data(), bytes, cudaMemcpyHostToDevice, stream));
    // host_y_ is rewritten only after the next application's synchronization, which orders
    // after this copy on the same stream.
  }

  void call(const double* x, double* y, cudaStream_t stream, bool on_device) {
    namespace nb = nanobind;
    nb::gil_scoped_acquire acquire;
    if (!function_.is_valid()) throw std::runtime_error("released by the garbage collector");
    try {
      function_(reinterpret_cast<std::uintptr_t>(x), reinterpret_cast<std::uintptr_t>(y),
                reinterpret_cast<std::uintptr_t>(stream), on_device);
    } catch (nb::python_error& error) {
      // The text only: the Python side (which recorded the exception) chains the original.
      std::string text = nb::str(error.value()).c_str();
      if (text.empty()) text = nb::type_name(error.type()).c_str();
      throw std::runtime_error(text);
    }
  }

  nanobind::object function_;
  std::size_t rows_;
  bool host_arrays_;
  bool gpu_ = false;
  long long calls_ = 0;
  double seconds_ = 0.0;
  std::vector<double> host_x_, host_y_;  // the staged copies (GPU solver, host arrays)
};

}  // namespace spk::python
