#include "baseline_solvers.hpp"

#include <cublas_v2.h>

#include <chrono>
#include <cmath>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace spk::app {

namespace {

// A cuBLAS handle in host pointer mode on the given stream.
class HostScalarBlas {
 public:
  explicit HostScalarBlas(cudaStream_t stream) {
    SPK_CUBLAS_CHECK(cublasCreate(&handle_));
    SPK_CUBLAS_CHECK(cublasSetStream(handle_, stream));
    SPK_CUBLAS_CHECK(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST));
  }
  ~HostScalarBlas() { (void)cublasDestroy(handle_); }
  HostScalarBlas(const HostScalarBlas&) = delete;
  HostScalarBlas& operator=(const HostScalarBlas&) = delete;

  double dot(int n, const double* x, const double* y) const {
    double result = 0.0;
    SPK_CUBLAS_CHECK(cublasDdot(handle_, n, x, 1, y, 1, &result));
    return result;
  }
  double dot(int n, const float* x, const float* y) const {
    float result = 0.0f;
    SPK_CUBLAS_CHECK(cublasSdot(handle_, n, x, 1, y, 1, &result));
    return result;
  }
  void axpy(int n, double a, const double* x, double* y) const {
    SPK_CUBLAS_CHECK(cublasDaxpy(handle_, n, &a, x, 1, y, 1));
  }
  void axpy(int n, double a, const float* x, float* y) const {
    const float alpha = static_cast<float>(a);
    SPK_CUBLAS_CHECK(cublasSaxpy(handle_, n, &alpha, x, 1, y, 1));
  }
  void scal(int n, double a, double* x) const {
    SPK_CUBLAS_CHECK(cublasDscal(handle_, n, &a, x, 1));
  }
  void scal(int n, double a, float* x) const {
    const float alpha = static_cast<float>(a);
    SPK_CUBLAS_CHECK(cublasSscal(handle_, n, &alpha, x, 1));
  }
  void copy(int n, const double* x, double* y) const {
    SPK_CUBLAS_CHECK(cublasDcopy(handle_, n, x, 1, y, 1));
  }
  void copy(int n, const float* x, float* y) const {
    SPK_CUBLAS_CHECK(cublasScopy(handle_, n, x, 1, y, 1));
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The sample's CG: r = b, p = r; per iteration one SpMV and two host-synchronous dots.
template <class T>
BaselineResult sample_cg(const HostScalarBlas& blas, const SpmvBackend<T>& matrix, const T* b, T* x,
                         int n, double tolerance, int max_iterations, cudaStream_t stream) {
  DeviceBuffer<T> r(static_cast<std::size_t>(n), "baseline r");
  DeviceBuffer<T> p(static_cast<std::size_t>(n), "baseline p");
  DeviceBuffer<T> ap(static_cast<std::size_t>(n), "baseline Ap");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto start = Clock::now();
  SPK_CUDA_CHECK(cudaMemsetAsync(x, 0, static_cast<std::size_t>(n) * sizeof(T), stream));
  blas.copy(n, b, r.data());
  const double target = tolerance * tolerance * blas.dot(n, b, b);
  double r1 = blas.dot(n, r.data(), r.data());
  double r0 = 0.0;
  BaselineResult result;
  int k = 1;
  while (r1 > target && k <= max_iterations) {
    if (k > 1) {
      blas.scal(n, r1 / r0, p.data());        // p = beta p
      blas.axpy(n, 1.0, r.data(), p.data());  // p = r + beta p
    } else {
      blas.copy(n, r.data(), p.data());
    }
    matrix.apply(p.data(), ap.data());                     // Ap = A p
    const double p_ap = blas.dot(n, p.data(), ap.data());  // host sync
    if (!(p_ap > 0.0)) {
      result.breakdown = true;
      break;
    }
    const double alpha = r1 / p_ap;
    blas.axpy(n, alpha, p.data(), x);
    blas.axpy(n, -alpha, ap.data(), r.data());
    r0 = r1;
    r1 = blas.dot(n, r.data(), r.data());  // host sync
    ++k;
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  result.solve_s = seconds_since(start);
  result.iterations = k - 1;
  result.residual = std::sqrt(r1);
  return result;
}

// BiCGSTAB in the same style: six host-synchronous reductions per iteration.
template <class T>
BaselineResult sample_bicgstab(const HostScalarBlas& blas, const SpmvBackend<T>& matrix, const T* b,
                               T* x, int n, double tolerance, int max_iterations,
                               cudaStream_t stream) {
  const std::size_t size = static_cast<std::size_t>(n);
  DeviceBuffer<T> r(size, "baseline r"), r_hat(size, "baseline r_hat"), p(size, "baseline p"),
      v(size, "baseline v"), t(size, "baseline t");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto start = Clock::now();
  SPK_CUDA_CHECK(cudaMemsetAsync(x, 0, size * sizeof(T), stream));
  SPK_CUDA_CHECK(cudaMemsetAsync(p.data(), 0, size * sizeof(T), stream));
  SPK_CUDA_CHECK(cudaMemsetAsync(v.data(), 0, size * sizeof(T), stream));
  blas.copy(n, b, r.data());
  blas.copy(n, b, r_hat.data());
  const double target = tolerance * std::sqrt(blas.dot(n, b, b));
  double residual = std::sqrt(blas.dot(n, r.data(), r.data()));
  double rho_old = 1.0, alpha = 1.0, omega = 1.0;
  BaselineResult result;
  int k = 0;
  while (residual > target && k < max_iterations) {
    const double rho = blas.dot(n, r_hat.data(), r.data());
    const double beta = (rho / rho_old) * (alpha / omega);
    blas.axpy(n, -omega, v.data(), p.data());
    blas.scal(n, beta, p.data());
    blas.axpy(n, 1.0, r.data(), p.data());
    matrix.apply(p.data(), v.data());
    const double rhat_v = blas.dot(n, r_hat.data(), v.data());
    if (rho == 0.0 || rhat_v == 0.0) {
      result.breakdown = true;
      break;
    }
    alpha = rho / rhat_v;
    blas.axpy(n, -alpha, v.data(), r.data());  // s (in r)
    blas.axpy(n, alpha, p.data(), x);
    ++k;
    residual = std::sqrt(blas.dot(n, r.data(), r.data()));
    if (residual <= target) break;
    matrix.apply(r.data(), t.data());
    const double t_s = blas.dot(n, t.data(), r.data());
    const double t_t = blas.dot(n, t.data(), t.data());
    if (t_t == 0.0 || t_s == 0.0) {
      result.breakdown = true;
      break;
    }
    omega = t_s / t_t;
    blas.axpy(n, omega, r.data(), x);
    blas.axpy(n, -omega, t.data(), r.data());
    residual = std::sqrt(blas.dot(n, r.data(), r.data()));
    rho_old = rho;
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  result.solve_s = seconds_since(start);
  result.iterations = k;
  result.residual = residual;
  return result;
}

}  // namespace

template <class T>
BaselineResult baseline_solve(Method method, const SpmvBackend<T>& matrix, const T* b, T* x,
                              double tolerance, int max_iterations, cudaStream_t stream) {
  const HostScalarBlas blas(stream);
  const int n = static_cast<int>(matrix.rows());
  return method == Method::cg
             ? sample_cg(blas, matrix, b, x, n, tolerance, max_iterations, stream)
             : sample_bicgstab(blas, matrix, b, x, n, tolerance, max_iterations, stream);
}

template BaselineResult baseline_solve<float>(Method, const SpmvBackend<float>&, const float*,
                                              float*, double, int, cudaStream_t);
template BaselineResult baseline_solve<double>(Method, const SpmvBackend<double>&, const double*,
                                               double*, double, int, cudaStream_t);

}  // namespace spk::app
