#pragma once
// DeviceSpace<T>: the GPU "vector space" of the Krylov drivers. Vectors are DeviceBuffers,
// reductions and updates are cuBLAS calls in device pointer mode (results land in the
// device-resident KrylovScalars), and scalar steps run as a one-thread kernel. Nothing
// here synchronizes except read_scalars() and download(), which the driver calls only at
// convergence checks and at the end.
//
// scalar_step() is defined in solver/device_space.cuh: only .cu files can instantiate it.
#include <cstddef>
#include <vector>

#include "solver/device_context.hpp"
#include "solver/krylov_scalars.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class DeviceSpace {
 public:
  using value_type = T;
  template <class U>
  using Array = DeviceBuffer<U>;

  explicit DeviceSpace(DeviceContext& context);
  ~DeviceSpace() { destroy_graph(); }
  DeviceSpace(const DeviceSpace&) = delete;
  DeviceSpace& operator=(const DeviceSpace&) = delete;

  template <class U>
  Array<U> allocate(std::size_t count, const char* what) {
    return Array<U>(count, what);
  }
  Array<T> upload(const std::vector<T>& host) { return Array<T>(host, "uploaded vector"); }
  template <class U>
  std::vector<U> download(const U* data, std::size_t count) {
    std::vector<U> host(count);
    if (count > 0) {
      SPK_CUDA_CHECK(cudaMemcpyAsync(host.data(), data, count * sizeof(U), cudaMemcpyDeviceToHost,
                                     context_.stream()));
      context_.synchronize();
    }
    return host;
  }

  KrylovScalars<T>* scalars() { return scalars_.data(); }
  KrylovScalars<T> read_scalars();
  void write_scalars(const KrylovScalars<T>& values);
  template <class Step>
  void scalar_step(const Step& step);
  void synchronize() { context_.synchronize(); }

  // Runs `body` `count` times. With use_graph, the `count` iterations are captured once as a
  // CUDA graph (per distinct count) and replayed; the first call always runs uncaptured so
  // lazily created resources (texture objects, cuSPARSE buffers) exist before capture.
  template <class Body>
  void run_repeated(int count, bool use_graph, Body&& body) {
    if (!use_graph || !warmed_up_) {
      for (int i = 0; i < count; ++i) body();
      warmed_up_ = true;
      return;
    }
    replay_graph(count, [&] {
      for (int i = 0; i < count; ++i) body();
    });
  }
  cudaStream_t stream() const { return context_.stream(); }
  // Drops the captured graph: the next graph run records again (new b or x pointers).
  void invalidate_graph() noexcept { destroy_graph(); }

  void dot(std::size_t n, const T* x, const T* y, T* result);
  void nrm2(std::size_t n, const T* x, T* result);
  void axpy(std::size_t n, const T* alpha, const T* x, T* y);
  void scal(std::size_t n, const T* alpha, T* x);
  void copy(std::size_t n, const T* x, T* y);
  void fill_zero(std::size_t n, T* x);
  void multiply_elementwise(std::size_t n, const T* d, const T* x, T* y);

 private:
  template <class Record>
  void replay_graph(int count, Record&& record) {
    if (graph_exec_ == nullptr || graph_count_ != count) {
      destroy_graph();
      SPK_CUDA_CHECK(cudaStreamBeginCapture(context_.stream(), cudaStreamCaptureModeThreadLocal));
      try {
        record();
      } catch (...) {
        cudaGraph_t abandoned = nullptr;
        (void)cudaStreamEndCapture(context_.stream(), &abandoned);
        if (abandoned != nullptr) (void)cudaGraphDestroy(abandoned);
        throw;
      }
      SPK_CUDA_CHECK(cudaStreamEndCapture(context_.stream(), &graph_));
      SPK_CUDA_CHECK(cudaGraphInstantiate(&graph_exec_, graph_, 0));
      graph_count_ = count;
    }
    SPK_CUDA_CHECK(cudaGraphLaunch(graph_exec_, context_.stream()));
  }
  void destroy_graph() noexcept;

  DeviceContext& context_;
  DeviceBuffer<KrylovScalars<T>> scalars_;
  bool warmed_up_ = false;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t graph_exec_ = nullptr;
  int graph_count_ = 0;
};

}  // namespace spk
