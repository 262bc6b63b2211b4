#pragma once
// DeviceSpace<T>: the GPU vector space (solver/vector_space.hpp). Vectors are DeviceBuffers,
// reductions and updates are cuBLAS calls in device pointer mode (results land in the
// device-resident KrylovScalars), and scalar steps run as a one-thread kernel, all on the
// context's stream. Nothing here synchronizes except read_scalars(), write_scalars(),
// upload() and download(), which run at setup, at convergence checks and at the end.
//
// scalar_step() and the fused reductions are defined in solver/device_space.cuh: only .cu
// files can instantiate them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "core/device_buffer.hpp"
#include "solver/device_context.hpp"
#include "solver/krylov_scalars.hpp"
#include "solver/pipecg_pass.hpp"
#include "solver/vector_space.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/csr_matrix.hpp"
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
  template <class U>
  void upload(const std::vector<U>& host, U* destination) {
    if (host.empty()) return;
    context_.wait_before_host_copy();
    SPK_CUDA_CHECK(cudaMemcpyAsync(destination, host.data(), host.size() * sizeof(U),
                                   cudaMemcpyHostToDevice, context_.stream()));
    context_.synchronize();  // `host` may be a temporary
  }
  template <class U>
  std::vector<U> download(const U* data, std::size_t count) {
    std::vector<U> host(count);
    if (count > 0) {
      context_.wait_before_host_copy();
      SPK_CUDA_CHECK(cudaMemcpyAsync(host.data(), data, count * sizeof(U), cudaMemcpyDeviceToHost,
                                     context_.stream()));
      context_.synchronize();
    }
    return host;
  }

  // Device to device, on the stream: `source` must stay valid until the stream has run it.
  template <class U>
  void copy_within(const U* source, std::size_t count, U* destination) {
    if (count == 0) return;
    SPK_CUDA_CHECK(cudaMemcpyAsync(destination, source, count * sizeof(U), cudaMemcpyDeviceToDevice,
                                   context_.stream()));
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
  bool any_process(bool flag) { return flag; }
  std::size_t first_global_index() const { return 0; }

  void dot(std::size_t n, const T* x, const T* y, T* result);
  void square_root(T* value);
  void axpy(std::size_t n, const T* alpha, const T* x, T* y);
  void scal(std::size_t n, const T* alpha, T* x);
  void copy(std::size_t n, const T* x, T* y);
  void fill_zero(std::size_t n, T* x);
  void multiply_elementwise(std::size_t n, const T* d, const T* x, T* y);
  // result[i] = values[positions[i]] (block Jacobi's block values out of the whole rows')
  void gather(std::size_t n, const T* values, const index_t* positions, T* result);
  // to[i] = T(from[i]): between the precisions of a mixed-precision preconditioner
  // (instantiated for float -> double and double -> float).
  template <class U>
  void convert(std::size_t n, const U* from, T* to);
  // v[i] = lanczos_start_entry(first_index + i) (solver/lanczos_start.hpp), on the device.
  void fill_lanczos_start(std::size_t n, std::size_t first_index, T* v);
  // A space of precision U on the same stream and handles (a mixed-precision preconditioner's
  // inner space).
  template <class U>
  DeviceSpace<U> with_precision() {
    return DeviceSpace<U>(context_);
  }
  // What constructs that space (a DistributedSpace builds its twin over it in place).
  std::tuple<DeviceContext&> twin_arguments() { return {context_}; }
  // The fused vector operations (vector_space.hpp), one kernel each. A reduction's totals are
  // per-block sums added in block order by the last block to finish, which then runs `then`,
  // the solver's next scalar step (solver/device_reductions.cuh: no atomics in any sum, so a
  // solve gives the same bits run to run, and no extra launch). The reductions are defined in
  // solver/device_space.cuh (templates on the step: .cu files only).
  template <class Step = NoScalarStep>
  void fused_dot(std::size_t n, const T* x, const T* y, T* result, const Step& then = {});
  // apply_dots (vector_space.hpp): folded into the SpMV's kernel where the operator can
  void apply_dots(const LinearOperator<T>& matrix, const T* x, T* y, const T* w, T* sums,
                  int count) {
    if (!matrix.apply_dots(x, y, w, sums, count))
      apply_then_dots(*this, matrix, x, y, w, sums, count);
  }
  template <class Coefficient, class Step = NoScalarStep>
  void cg_update(std::size_t n, const Coefficient& alpha, const T* p, const T* ap, T* x, T* r,
                 const T* inverse_diagonal, T* z, T* sums, const Step& then = {});
  void cg_direction(std::size_t n, const T* alpha, const T* beta, T* x, T* p, const T* r,
                    const T* inverse_diagonal);
  void bicgstab_direction(std::size_t n, const T* r, const T* v, const T* beta, const T* omega,
                          T* p, const T* inverse_diagonal, T* p_hat);
  template <class Coefficient, class Step = NoScalarStep>
  void bicgstab_update(std::size_t n, const Coefficient& coefficient, const T* u, const T* w, T* x,
                       T* r, const T* inverse_diagonal, T* z, const T* r_hat, T* sums,
                       const Step& then = {});
  template <class Step = NoScalarStep>
  void dot_pair(std::size_t n, const T* t, const T* r, T* sums, const Step& then = {});
  // Pipelined CG's pass (vector_space.hpp; solver/pipecg_kernels.cuh): one kernel, its three
  // sums added as the fused reductions add theirs; the step runs inside it (no launch).
  template <class Step>
  void pipecg_update(std::size_t n, const Step& step, const PipeCgVectors<T>& vectors, T* sums);
  // A sum over processes, split (vector_space.hpp): nothing to sum on one GPU.
  void start_sums(T* /*sums*/, int /*count*/) {}
  void finish_sums() {}
  void polynomial_step(std::size_t n, const T* inverse_diagonal, const T* r, const T* coefficients,
                       T* d, T* x, bool first, bool assign);
  // GMRES's basis operations (vector_space.hpp; solver/device_basis.cu): counts and columns
  // are ints in device memory, read by the kernels, so a replayed graph follows the cycle.
  // basis_dots: each block sums a contiguous slice of rows for every column (w read once per
  // four columns), the last block adds the blocks' sums in block order (no atomics in a sum).
  // basis_dots and basis_combine run `then` in their last block; they are instantiated for
  // NoScalarStep and GMRES's steps (gmres_steps.hpp) only.
  void reserve_basis(int max_count);
  void require_free_memory(std::size_t bytes, const std::string& what);
  std::size_t global_count(std::size_t n) const { return n; }
  template <class Step = NoScalarStep>
  void basis_dots(std::size_t n, const T* basis, std::size_t ld, const int* count, int max_count,
                  const T* w, T* result, bool with_norm = false, const Step& then = {});
  template <class Step = NoScalarStep>
  void basis_combine(std::size_t n, const T* basis, std::size_t ld, const int* count,
                     const T* coefficients, T alpha, T* y, bool assign, T* norm_square,
                     const ColumnStore<T>& store = {}, const Step& then = {});
  void to_column(std::size_t n, const T* scale, const T* w, T* v, T* basis, std::size_t ld,
                 const int* column);
  // positions[r] = where row r's diagonal entry sits in the device CSR arrays (-1: none); a
  // warp per row.
  void find_diagonal_positions(index_t rows, const index_t* row_offsets, const index_t* columns,
                               index_t* positions);
  void invert_entries(std::size_t n, const T* values, const index_t* positions, T* result,
                      std::uint64_t* fault);
  // The Gershgorin bound on lambda_max(D^-1 A) (HostSpace::gershgorin_bound); synchronizes.
  double gershgorin_bound(std::size_t n, const index_t* row_offsets, const T* values,
                          const index_t* positions);

  // The AMG setup (solver/amg/device_amg_build.hpp): the solver's own double CSR copy of the
  // matrix (the upload of host arrays), which it reads no more once setup is done: the AMG's
  // A_0 takes its arrays instead of copying them (one copy of the matrix less at the setup's
  // peak). Null: nothing offered.
  void offer_fine_matrix(DeviceCsrMatrix<double>* matrix) { offered_fine_matrix_ = matrix; }
  DeviceCsrMatrix<double>* offered_fine_matrix() const { return offered_fine_matrix_; }

 private:
  // A graph per block length, up to graph_slots of them (GMRES alternates a full block and
  // the block cut at its cycle's end); a new length replaces the oldest.
  template <class Record>
  void replay_graph(int count, Record&& record) {
    CapturedGraph* slot = nullptr;
    for (CapturedGraph& graph : graphs_)
      if (graph.exec != nullptr && graph.count == count) slot = &graph;
    if (slot == nullptr) {
      slot = &graphs_[next_slot_];
      next_slot_ = (next_slot_ + 1) % graph_slots;
      destroy(*slot);
      SPK_CUDA_CHECK(cudaStreamBeginCapture(context_.stream(), cudaStreamCaptureModeThreadLocal));
      try {
        record();
      } catch (...) {
        cudaGraph_t abandoned = nullptr;
        (void)cudaStreamEndCapture(context_.stream(), &abandoned);
        if (abandoned != nullptr) (void)cudaGraphDestroy(abandoned);
        throw;
      }
      SPK_CUDA_CHECK(cudaStreamEndCapture(context_.stream(), &slot->graph));
      SPK_CUDA_CHECK(cudaGraphInstantiate(&slot->exec, slot->graph, 0));
      slot->count = count;
    }
    SPK_CUDA_CHECK(cudaGraphLaunch(slot->exec, context_.stream()));
  }
  struct CapturedGraph {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    int count = 0;
  };
  static void destroy(CapturedGraph& graph) noexcept;
  void destroy_graph() noexcept;  // all of them

  DeviceContext& context_;
  DeviceCsrMatrix<double>* offered_fine_matrix_ = nullptr;
  DeviceBuffer<KrylovScalars<T>> scalars_;
  // The fused reductions' per-block sums (2 per block, pipelined CG's 3) and their last-block
  // ticket
  DeviceBuffer<T> partial_sums_;
  DeviceBuffer<unsigned int> last_block_ticket_;
  // basis_dots' per-block sums (basis_max_count_ + 1 per block: the norm) and its ticket
  DeviceBuffer<T> basis_partials_;
  DeviceBuffer<unsigned int> basis_ticket_;
  int basis_max_count_ = 0;
  bool warmed_up_ = false;
  static constexpr int graph_slots = 4;
  CapturedGraph graphs_[graph_slots];
  int next_slot_ = 0;
};

}  // namespace spk
