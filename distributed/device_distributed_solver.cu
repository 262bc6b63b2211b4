// The GPU path of spk::DistributedSolver<T>: one GPU per process (or GPUs shared over the mpi
// transport), the same KrylovIteration as one GPU runs, on a DistributedSpace<DeviceSpace<T>>
// whose inner products are summed by NCCL on the stream (or host-staged MPI), and the
// overlapped DistributedOperator over two SpMV backends (local and halo blocks) and a
// DeviceHaloExchange. With NCCL nothing synchronizes the host inside an iteration block, and
// the block may be captured in a CUDA graph (solver.cuda_graph). With the fault watch on
// (fault_watch.hpp), the host's waits for the stream poll for a failure notice
// (watched_stream_wait.hpp), and the solver's death aborts NCCL.
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/device_kernels.cuh"
#include "core/event_timer.hpp"
#include "core/setup_memory_watch.hpp"
#include "core/staged_upload.hpp"
#include "core/step_trace.hpp"
#include "distributed/amg/device_distributed_amg_build.hpp"
#include "distributed/amg/device_distributed_level_operator.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_binding.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/device_split_rows.hpp"
#include "distributed/device_split_values.hpp"
#include "distributed/diagonal_block.hpp"
#include "distributed/distributed_solver_impl.hpp"
#include "distributed/distributed_space.hpp"
#include "distributed/mpi_check.hpp"
#include "distributed/nccl_communicator.hpp"
#include "distributed/watched_stream_wait.hpp"
#include "solver/amg/device_amg_build.hpp"
#include "solver/amg/device_level_operator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_factors.hpp"
#include "solver/device_space.cuh"
#include "solver/device_space.hpp"
#include "solver/jacobi.hpp"
#include "solver/jacobi_entry.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner_factory.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

// NCCL's in-place allreduce of device scalars on the solver's stream; split (start, finish:
// pipelined CG's sums), on a stream of its own that forks from the solver's stream when the
// sum starts and joins it when it finishes (two events: capturable in a CUDA graph), so that
// the product and preconditioner queued between them run beside it. NCCL runs one
// communicator's kernels in the order they were queued, whatever their streams: a halo
// exchange queued after the start waits for the allreduce; the local product does not.
template <class T>
class NcclScalarSum final : public InPlaceSum<T> {
 public:
  NcclScalarSum(const NcclCommunicator& nccl, cudaStream_t stream) : nccl_(nccl), stream_(stream) {
    SPK_CUDA_CHECK(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
    const cudaError_t status = cudaEventCreateWithFlags(&summed_, cudaEventDisableTiming);
    if (status != cudaSuccess) (void)cudaEventDestroy(forked_);
    SPK_CUDA_CHECK(status);
  }
  ~NcclScalarSum() override {
    (void)cudaEventDestroy(forked_);
    (void)cudaEventDestroy(summed_);
  }
  NcclScalarSum(const NcclScalarSum&) = delete;
  NcclScalarSum& operator=(const NcclScalarSum&) = delete;

  void sum(T* value, int count) override { all_reduce(value, count, stream_); }
  void start(T* value, int count) override {
    SPK_CUDA_CHECK(cudaEventRecord(forked_, stream_));  // the values are made
    SPK_CUDA_CHECK(cudaStreamWaitEvent(side_.get(), forked_, 0));
    all_reduce(value, count, side_.get());
    SPK_CUDA_CHECK(cudaEventRecord(summed_, side_.get()));
  }
  void finish() override { SPK_CUDA_CHECK(cudaStreamWaitEvent(stream_, summed_, 0)); }

 private:
  void all_reduce(T* value, int count, cudaStream_t stream) {
    SPK_NCCL_CHECK(nccl_.library().all_reduce(value, value, static_cast<std::size_t>(count),
                                              nccl_datatype<T>(), ncclSum, nccl_.get(), stream));
  }

  const NcclCommunicator& nccl_;
  cudaStream_t stream_;
  CudaStream side_;  // the split sums' stream
  cudaEvent_t forked_ = nullptr;
  cudaEvent_t summed_ = nullptr;
};

// Whether NCCL carries this solve: every process must agree (the same inputs everywhere).
bool uses_nccl(MPI_Comm comm, Transport transport, const DeviceBinding& binding) {
  if (transport == Transport::mpi) return false;
  if (transport == Transport::nccl) {
    on_every_process(comm, [&] {
      if (binding.gpu_shared())
        throw NotSupported("distributed.transport nccl needs a GPU per process, but ranks " +
                           std::to_string(binding.shared_first) + " and " +
                           std::to_string(binding.shared_second) +
                           " share one (NCCL refuses that); use transport: mpi or fewer processes");
    });
    return true;
  }
  if (binding.gpu_shared()) return false;
  int loads = 1;
  try {
    (void)NcclLibrary::get();
  } catch (const std::exception&) {
    loads = 0;
  }
  int everywhere = 0;
  SPK_MPI_CHECK(MPI_Allreduce(&loads, &everywhere, 1, MPI_INT, MPI_MIN, comm));
  return everywhere == 1;
}

// One block's backend; a halo block the format refuses (ellpack past max_ell_fill: most of
// its rows are empty) is stored as csr instead.
template <class T>
std::unique_ptr<SpmvBackend<T>> make_block_backend(const DeviceCsr<T>& block,
                                                   const SpmvOptions& spmv, cudaStream_t stream,
                                                   TuningReport* tuning, bool is_halo) {
  if (!is_halo) return make_spmv_backend(block, spmv, stream, tuning);
  try {
    return make_spmv_backend(block, spmv, stream, tuning);
  } catch (const BadInput&) {
    SpmvOptions fallback = spmv;
    fallback.format = Format::csr;
    return make_spmv_backend(block, fallback, stream, tuning);
  }
}

template <class T>
class DeviceDistributedSolver final : public DistributedSolver<T>::Impl {
 public:
  using Space = DistributedSpace<DeviceSpace<T>>;

  // The rows: the caller's host arrays (`arrays`: uploaded and split on the device) or rows
  // already split on this process's GPU (`given`: generated there, device_grid_rows.hpp);
  // exactly one is given.
  DeviceDistributedSolver(MPI_Comm comm, const DistributedCsrArrays<T>* arrays,
                          DeviceSplitRows<T>* given, const Options& all_options,
                          const DistributedOptions& distributed)
      : DistributedSolver<T>::Impl(comm, all_options.solver, distributed.watch_faults) {
    const Options& options = all_options;
    const auto start = std::chrono::steady_clock::now();
    PhaseClock clock;  // each phase's device work is finished (settled) before its lap
    SetupPhases& phases = this->setup.phases;
    const MPI_Comm c = this->communicator.get();
    // The GPU is chosen first, and its context (cudaSetDevice creates it: 0.2 s on one H200,
    // 0.9 s when 4 processes create theirs at once) is created on a thread of its own while
    // this one splits the rows (the host's work and MPI).
    const DeviceBinding binding = bind_device(c, distributed.bind_device_by_local_rank, false);
    this->device = binding.device;
    std::future<void> context_made = std::async(std::launch::async, [device = binding.device] {
      SPK_CUDA_CHECK(cudaSetDevice(device));
      SPK_CUDA_CHECK(cudaFree(nullptr));  // the context exists
    });
    // (a failure here leaves through the future's destructor, which waits for the thread)
    // SPK_TRACE=1: the steps within the phases (each phase's device work settled first)
    StepTrace setup_trace = StepTrace::when_enabled(
        [&] { return "setup (rank " + std::to_string(this->communicator.rank()) + ")"; });
    const RowPartition partition =
        given ? partition_device_rows(this->communicator, given->rows, given->first_row, options)
              : partition_caller_rows(this->communicator, *arrays, options);
    clock.lap(phases.partition_s);
    setup_trace.lap("partition: checks (finite values) and row counts");
    on_every_process(c, [&] {
      context_made.get();
      SPK_CUDA_CHECK(cudaSetDevice(binding.device));  // this thread's current device
    });
    const SetupMemoryWatch memory;  // the device's memory from here to the end of setup
    clock.lap(phases.context_s);
    setup_trace.lap("context: waited for its thread");
    const bool nccl = uses_nccl(c, distributed.transport, binding);
    clock.lap(phases.communicator_s);
    setup_trace.lap("communicator: transport agreed");
    context_ = std::make_unique<DeviceContext>();
    const cudaStream_t stream = context_->stream();
    clock.lap(phases.context_s);
    setup_trace.lap("context: stream and libraries");
    // The rows split on the device (device_split_rows.hpp): nothing of them is copied on the
    // host; the host keeps the sizes and the halo column list (SplitRows without entries).
    DeviceSplitRows<T> rows;
    SplitRows<T> shape;
    const bool positions = options.solver.preconditioner == Preconditioner::block_jacobi;
    on_every_process(c, [&] {
      if (given) {
        check_given_rows(*given, binding.device, positions);
        rows = std::move(*given);
      } else {
        rows =
            split_rows_on_device(*arrays, partition, this->communicator.rank(), positions, stream);
      }
      shape = split_shape(rows, partition);
    });
    clock.lap(phases.partition_s);
    setup_trace.lap("partition: device split");
    if (nccl) {
      nccl_ = std::make_unique<NcclCommunicator>(c, distributed.nccl_channels);
      local_stream_ = std::make_unique<CudaStream>();  // the local product beside NCCL's
      if (this->watch.enabled()) {
        // A stream waiting in a collective for a failed process never finishes: poll it, and
        // abort NCCL when the solver dies (here or elsewhere), which releases its kernels.
        stream_wait_ = std::make_unique<WatchedStreamWait>(this->watch);
        context_->set_stream_wait(stream_wait_.get());
        this->watch.on_death([this] { nccl_->abort(); });
      }
    }
    const cudaStream_t local_stream = nccl ? local_stream_->get() : stream;
    clock.lap(phases.communicator_s);
    setup_trace.lap("communicator: NCCL id (the init runs on a thread of its own)");

    // Both blocks' backends, agreed: a format that refuses a block on one process fails all.
    // A halo block whose rows are mostly empty keeps its non-empty rows only
    // (compressed_rows_operator.hpp); one with entries in half its rows or more (a power-law
    // graph's) is stored whole: the row map would cost more than the empty rows.
    std::unique_ptr<SpmvBackend<T>> local;
    std::unique_ptr<LinearOperator<T>> halo;
    TuningReport halo_tuning;
    StepTrace trace = StepTrace::when_enabled(
        [&] { return "layouts (rank " + std::to_string(this->communicator.rank()) + ")"; },
        [this] { settle(); });
    on_every_process(c, [&] {
      local = make_block_backend(describe_device_csr(rows.local, local_stream), options.spmv,
                                 local_stream, &this->setup.tuning, false);
      trace.lap("local block's backend");
      if (rows.halo_entries() > 0) {
        if (2 * static_cast<std::size_t>(rows.halo.rows) < static_cast<std::size_t>(rows.rows)) {
          auto compressed = std::make_unique<CompressedRowsOperator<T>>(
              make_block_backend(describe_device_csr(rows.halo, stream), options.spmv, stream,
                                 &halo_tuning, true),
              std::move(rows.halo_rows), rows.rows);
          halo_backend_ = &compressed->backend();
          halo = std::move(compressed);
          halo_rows_note_ = " (non-empty rows)";
        } else {  // the whole form: every row's offsets over the same entries
          const DeviceCsr<T> whole_rows =
              describe_device_csr(rows.rows, rows.halo.cols, rows.halo_starts.data(),
                                  rows.halo.columns.data(), rows.halo.values.data(), stream);
          auto whole = make_block_backend(whole_rows, options.spmv, stream, &halo_tuning, true);
          halo_backend_ = whole.get();
          halo = std::move(whole);
        }
      }
      trace.lap("halo block's backend");
      keep_split_arrays(rows);
    });
    local_backend_ = local.get();
    settle();
    clock.lap(phases.layouts_s);
    this->matrix = std::make_unique<DistributedMatrix<T>>(
        c, std::move(shape),
        [&](const SplitRows<T>&, HaloPlan plan) {
          clock.lap(phases.partition_s);  // the halo plan
          setup_trace.lap("partition: halo plan");
          DistributedBlocks<T> blocks;
          blocks.local = std::move(local);
          blocks.halo = std::move(halo);
          blocks.exchange = std::make_unique<DeviceHaloExchange<T>>(
              c, nccl_.get(), std::move(plan), stream, local_stream, &this->watch);
          return blocks;
        },
        distributed.overlap);

    space_ = std::make_unique<Space>(this->watch, this->first_row(), *context_);
    space_->watch_products(&this->matrix->exchange().times().exchanges);
    fine_rows_.partition = partition;
    fine_rows_.agglomerate_rows = options.solver.preconditioner_options.amg.agglomerate_rows;
    fine_rows_.halo_columns = this->matrix->split().halo_columns;
    fine_rows_.nccl = nccl_.get();
    space_->set_fine_rows(&fine_rows_);
    if (nccl_) {
      scalar_sum_ = std::make_unique<NcclScalarSum<T>>(*nccl_, stream);
      space_->use_in_place_sum(scalar_sum_.get());
      space_->allow_graphs(this->matrix->exchange().capturable());
    }
    const SplitRows<T>& split = this->matrix->split();
    // Jacobi's and Chebyshev's diagonal, checked as the host path checks it (agreed)
    on_every_process(c, [&] { check_device_diagonal(pattern_values_.data()); });
    settle();
    clock.lap(phases.layouts_s);  // the exchange's buffers, the space, the diagonal check
    setup_trace.lap("layouts: exchange buffers, space, diagonal check");
    const LocalBlock<DeviceSpace<T>> block =
        diagonal_block(split, std::move(rows), options.spmv, stream);
    // AMG's A_0 takes the whole rows' values (read by the setup only) rather than a copy
    if constexpr (std::is_same_v<T, double>) fine_rows_.adoptable_values = &pattern_values_;
    iteration_ = std::make_unique<KrylovIteration<Space>>(
        *space_, this->matrix->op(), this->options,
        agreed_setup(this->watch, this->options.preconditioner, [&] {
          return timed_preconditioner<Space>(this->setup.preconditioner, [&] {
            return make_preconditioner(
                this->options, *space_, this->matrix->op(),
                SpacePattern{split.pattern.rows, split.pattern.cols, pattern_offsets_.data(),
                             pattern_columns_.data()},
                pattern_values_.data(), distributed_level_operators(options.spmv, stream), &block);
          });
        }));
    settle();
    block_arrays_ = {};  // read by the setup only (block Jacobi keeps its own copies)
    // The whole rows' values were read by the setup only: an update_values brings its own
    // (device values read where they are, host values staged for that call).
    pattern_values_ = DeviceBuffer<T>();
    fine_rows_.adoptable_values = nullptr;
    clock.lap(phases.preconditioner_s);
    const auto n = static_cast<std::size_t>(split.local.rows);
    b_ = DeviceBuffer<T>(n, "right-hand side b (this process's rows)");
    x_ = DeviceBuffer<T>(n, "solution x (this process's rows)");
    scalar_ = DeviceBuffer<T>(1, "phase timing scalar");
    describe(binding);
    this->global_rows = partition.global_rows();
    clock.lap(phases.layouts_s);  // b, x
    warm_up();
    context_->synchronize();
    clock.lap(phases.warm_up_s);
    if (nccl_) {
      setup_trace.note("communicator: NCCL init on its thread", 1e3 * nccl_->init_seconds());
      setup_trace.note("communicator: NCCL init waited for at its first use",
                       1e3 * nccl_->waited_seconds());
    }
    this->setup.setup_s = seconds_since(start);
    this->setup.memory = memory.finish();
  }

  // The blocks and exchange (in the base) use the stream and the NCCL communicator: they go
  // first.
  ~DeviceDistributedSolver() override {
    iteration_.reset();
    space_.reset();
    this->matrix.reset();
  }
  DeviceDistributedSolver(const DeviceDistributedSolver&) = delete;
  DeviceDistributedSolver& operator=(const DeviceDistributedSolver&) = delete;

  const char* transport() const override { return nccl_ ? "nccl" : "mpi (host-staged)"; }

 protected:
  void run_multiply(const T* x, T* y) override {
    const auto n = static_cast<std::size_t>(this->rows());
    upload(x, x_.data(), n);
    this->matrix->op().apply(x_.data(), b_.data());
    download(b_.data(), y, n);
  }

  double run_time_spmv(int repetitions) override {
    fill_ones(x_);
    return time_on_stream(context_->stream(), 3, repetitions,
                          [&] { this->matrix->op().apply(x_.data(), b_.data()); })
        .median_ms;
  }

  void check_preconditioner() override { iteration_->check_preconditioner(); }
  void reset_space_times() override { space_->reset_times(); }

  // b and x host arrays (uploaded, x downloaded) or device arrays (a GPU simulation's: copied
  // on the device, 0.1 ms for 16M rows against 40-80 ms of host copies a solve).
  SolveResult run_solve(const T* b, T* x, const ProgressCallback& progress) override {
    const auto n = static_cast<std::size_t>(this->rows());
    const bool on_device = n > 0 && host_cannot_read(b);
    if (on_device) {
      copy_on_device(b, b_.data(), n);
      copy_on_device(x, x_.data(), n);
    } else {
      upload(b, b_.data(), n);
      upload(x, x_.data(), n);
    }
    SolveResult result = iteration_->solve(b_.data(), x_.data(), progress);
    if (on_device) {
      copy_on_device(x_.data(), x, n);
      context_->synchronize();
    } else {
      download(x_.data(), x, n);
    }
    return result;
  }

  CommunicationTimes collect_times() const override {
    const ExchangeTimes& exchange = this->matrix->exchange().times();
    CommunicationTimes solve_times;
    solve_times.halo_start_s = exchange.start_s;
    solve_times.halo_wait_s = exchange.wait_s;
    solve_times.reduction_s = space_->reduction_seconds();
    solve_times.exchanges = space_->products();
    solve_times.reductions = space_->reductions();
    solve_times.on_device = true;
    return solve_times;
  }

  void check_device_finite(const T* vector, std::size_t n, const char* what) override {
    if (first_bad_.size() == 0) first_bad_ = DeviceBuffer<index_t>(1, "solve's finite check");
    const auto count = static_cast<index_t>(n);
    find_first_non_finite(count, vector, first_bad_.data(), context_->stream());
    const index_t bad = space_->template download<index_t>(first_bad_.data(), 1)[0];
    if (bad < count)  // worded as check_finite words it
      throw BadInput(std::string(what) + " has a non-finite value at entry " +
                     std::to_string(this->first_row() + bad) + " (0-based)");
  }

  // The host path's checks (check_finite, check_diagonal) on the device, one download each.
  void check_device_values(const T* values) override {
    const auto count = this->matrix->split().entries();
    if (first_bad_.size() == 0) first_bad_ = DeviceBuffer<index_t>(1, "update_values check");
    find_first_non_finite(count, values, first_bad_.data(), context_->stream());
    const index_t bad = space_->template download<index_t>(first_bad_.data(), 1)[0];
    if (bad < count)
      throw BadInput("update_values: this process's values has a non-finite value at entry " +
                     std::to_string(bad) + " (0-based)");
    check_device_diagonal(values);
  }

  // Jacobi and Chebyshev divide by a_ii: every diagonal entry of `values` (the whole rows, on
  // the device) usable, or BadDiagonal naming the global row as the host check does.
  void check_device_diagonal(const T* values) {
    if (!divides_by_diagonal()) return;
    const auto rows = static_cast<std::size_t>(this->rows());
    DeviceBuffer<T> inverse(rows, "diagonal check");
    DeviceBuffer<std::uint64_t> fault(1, "diagonal check fault");
    space_->invert_entries(rows, values, diagonal_positions().data(), inverse.data(), fault.data());
    const std::uint64_t code = space_->template download<std::uint64_t>(fault.data(), 1)[0];
    if (code != diagonal_fault::no_fault)  // named as the host check names it
      throw_diagonal_fault("jacobi", code + 4 * static_cast<std::uint64_t>(this->first_row()));
  }

  // The same for host values: the positions read back once, the check on the host.
  void check_host_diagonal(const T* values) override {
    if (!divides_by_diagonal()) return;
    if (host_diagonal_positions_.empty())
      host_diagonal_positions_ = space_->template download<index_t>(
          diagonal_positions().data(), static_cast<std::size_t>(this->rows()));
    check_diagonal_at(host_diagonal_positions_, values, this->first_row());
  }

  // Device values, read where they are (for this update_values call): split into both blocks.
  void update_device_values(const T* values) override {
    wait_for_backends();
    update_source_ = values;
    split_into_blocks(this->matrix->split());
  }

  // Host values: uploaded once into a staging array kept for this call, then split.
  void update_host_values(const T* values) override {
    wait_for_backends();
    context_->wait_before_host_copy();
    const auto entries = static_cast<std::size_t>(this->matrix->split().entries());
    staged_values_ = DeviceBuffer<T>(entries, "update_values: this process's values");
    upload_staged(staged_values_.data(), values, entries * sizeof(T), context_->stream());
    update_source_ = staged_values_.data();
    split_into_blocks(this->matrix->split());
  }

  void refresh_preconditioner() override {
    iteration_->update_preconditioner(update_source_);
    context_->synchronize();  // the re-setup's reads of the staged values have run
    update_source_ = nullptr;
    staged_values_ = DeviceBuffer<T>();
    iteration_->check_preconditioner();
    // the report's preconditioner (resetup_ms and the re-setup phases), as on one GPU
    iteration_->refresh_preconditioner_info(this->setup.preconditioner);
  }

  CommunicationPhases run_time_phases(int repetitions) override {
    fill_ones(x_);
    const cudaStream_t stream = context_->stream();
    return measure_phases<T>(
        this->watch, *this->matrix, x_.data(), b_.data(),
        [&] { space_->sum_over_processes(scalar_.data()); },
        [stream](int runs, const std::function<void()>& work) {
          return time_on_stream(stream, 2, runs, work).median_ms;
        },
        repetitions);
  }

 private:
  // Rows made by the caller on the device hold what the solver reads: the whole rows (pattern),
  // block Jacobi's positions, all on this process's GPU.
  static void check_given_rows(const DeviceSplitRows<T>& rows, int device, bool positions) {
    const auto rows_plus_one = static_cast<std::size_t>(rows.rows) + 1;
    if (rows.pattern.row_offsets.size() != rows_plus_one ||
        rows.halo_starts.size() != rows_plus_one || rows.own_columns != rows.rows ||
        (positions && rows.local_positions.size() != rows.local.columns.size()))
      throw Error(
          "DistributedSolver: device rows without their pattern, halo starts or block "
          "positions (internal error)");
    cudaPointerAttributes attributes{};
    SPK_CUDA_CHECK(cudaPointerGetAttributes(&attributes, rows.pattern.row_offsets.data()));
    if (attributes.type != cudaMemoryTypeDevice || attributes.device != device)
      throw Error("DistributedSolver: the device rows are not on this process's GPU " +
                  std::to_string(device) + " (internal error)");
  }

  void upload(const T* host, T* device, std::size_t n) {
    if (n == 0) return;
    context_->wait_before_host_copy();  // a pageable copy may wait for the stream itself
    upload_staged(device, host, n * sizeof(T), context_->stream());
  }
  void copy_on_device(const T* from, T* to, std::size_t n) {
    if (n > 0)
      SPK_CUDA_CHECK(
          cudaMemcpyAsync(to, from, n * sizeof(T), cudaMemcpyDeviceToDevice, context_->stream()));
  }
  void download(const T* device, T* host, std::size_t n) {
    context_->wait_before_host_copy();  // a pageable copy may wait for the stream itself
    if (n > 0)
      SPK_CUDA_CHECK(
          cudaMemcpyAsync(host, device, n * sizeof(T), cudaMemcpyDeviceToHost, context_->stream()));
    context_->synchronize();
  }
  // The setup work queued on both streams finished, so that a phase's lap holds it (the
  // solver's stream through the watched wait: a preconditioner's sums may be NCCL's).
  void settle() {
    context_->synchronize();
    if (local_stream_) SPK_CUDA_CHECK(cudaStreamSynchronize(local_stream_->get()));
  }
  // On the device: a host array of ones uploaded cost 1.3-2 s at 250M rows a process (the
  // host pages and the copy), most of the warm-up at 1000^3.
  void fill_ones(DeviceBuffer<T>& buffer) {
    fill_on_stream(static_cast<std::int64_t>(buffer.size()), T(1), buffer.data(),
                   context_->stream());
  }

  // The device split's arrays the solver keeps: the whole rows (own columns, then halo slots:
  // the preconditioners' diagonal and Gershgorin sums, and update_values' input) and the
  // blocks' row offsets (update_values splits new values with them on the device:
  // device_split_values.hpp). The blocks' entries go: the backends hold their own copies
  // (block Jacobi keeps the local block: diagonal_block).
  void keep_split_arrays(DeviceSplitRows<T>& rows) {
    pattern_offsets_ = std::move(rows.pattern.row_offsets);
    pattern_columns_ = std::move(rows.pattern.columns);
    pattern_values_ = std::move(rows.pattern.values);
    halo_offsets_ = std::move(rows.halo_starts);
    rows.halo = DeviceCsrMatrix<T>();
    if (this->options.preconditioner == Preconditioner::block_jacobi) {
      local_offsets_ =
          DeviceBuffer<index_t>(rows.local.row_offsets.size(), "local block row offsets");
      SPK_CUDA_CHECK(cudaMemcpyAsync(local_offsets_.data(), rows.local.row_offsets.data(),
                                     local_offsets_.bytes(), cudaMemcpyDeviceToDevice,
                                     context_->stream()));
    } else {
      local_offsets_ = std::move(rows.local.row_offsets);
      rows.local = DeviceCsrMatrix<T>();
    }
    settle();
  }

  bool divides_by_diagonal() const {
    return this->options.preconditioner == Preconditioner::jacobi ||
           this->options.preconditioner == Preconditioner::chebyshev;
  }
  // Where each row's a_ii sits in the pattern (found once, on the device).
  const DeviceBuffer<index_t>& diagonal_positions() {
    const auto rows = static_cast<std::size_t>(this->rows());
    if (diagonal_positions_.size() != rows) {
      diagonal_positions_ = DeviceBuffer<index_t>(rows, "diagonal positions");
      space_->find_diagonal_positions(this->rows(), pattern_offsets_.data(),
                                      pattern_columns_.data(), diagonal_positions_.data());
    }
    return diagonal_positions_;
  }

  void wait_for_backends() {  // they read the last split's values
    for (SpmvBackend<T>* backend : {local_backend_, halo_backend_})
      if (backend != nullptr) SPK_CUDA_CHECK(cudaStreamSynchronize(backend->stream()));
  }

  // update_source_ (the whole rows' values, on the device) split into the local and halo
  // blocks' values, and those into their backends; the split arrays are freed after.
  void split_into_blocks(const SplitRows<T>& split) {
    StepTrace trace = StepTrace::when_enabled(
        [&] {
          return "update_values blocks (rank " + std::to_string(this->communicator.rank()) + ")";
        },
        [this] { settle(); });
    if (local_values_.size() != static_cast<std::size_t>(split.local_entries))
      local_values_ =
          DeviceBuffer<T>(static_cast<std::size_t>(split.local_entries), "update_values local");
    if (halo_values_.size() != static_cast<std::size_t>(split.halo_entries))
      halo_values_ =
          DeviceBuffer<T>(static_cast<std::size_t>(split.halo_entries), "update_values halo");
    split_values_on_device(split.local.rows, split.local.cols, pattern_offsets_.data(),
                           pattern_columns_.data(), update_source_, local_offsets_.data(),
                           halo_offsets_.data(), local_values_.data(), halo_values_.data(),
                           context_->stream());
    context_->synchronize();  // the backends run on their own streams
    if (local_backend_ != nullptr && local_values_.size() > 0)
      local_backend_->update_values(local_values_.data(), nullptr);
    if (halo_backend_ != nullptr && halo_values_.size() > 0)
      halo_backend_->update_values(halo_values_.data(), nullptr);
    wait_for_backends();  // they have copied the values into their formats
    local_values_ = DeviceBuffer<T>();
    halo_values_ = DeviceBuffer<T>();
    trace.lap("split on the device, the backends' values");
  }

  // NCCL connects to each peer at its first call (the send/recv channels and the allreduce's
  // ring: about 0.35 s for two H200s): one product and one sum here put that in the setup,
  // not in the first solve.
  void warm_up() {
    StepTrace trace = StepTrace::when_enabled(
        [&] { return "warm-up (rank " + std::to_string(this->communicator.rank()) + ")"; },
        [this] { settle(); });
    SPK_CUDA_CHECK(cudaMemsetAsync(scalar_.data(), 0, sizeof(T), context_->stream()));
    fill_ones(x_);
    if (trace.enabled()) {  // the local block's first product alone: the rest is the exchange's
      this->matrix->local().apply(x_.data(), b_.data());
      trace.lap("local block's product (first)");
    }
    this->matrix->op().apply(x_.data(), b_.data());
    trace.lap("product");
    if (trace.enabled()) {  // what a product costs once connected
      this->matrix->op().apply(x_.data(), b_.data());
      trace.lap("product again");
    }
    space_->sum_over_processes(scalar_.data());
    trace.lap("sum");
    // the preconditioner's own exchanges too (a distributed AMG's coarse levels reach
    // processes the matrix's halo does not: 0.5 s of connections at 4 GPUs in the first solve)
    iteration_->apply_preconditioner_once(x_.data(), b_.data());
    trace.lap("preconditioner once");
    if (trace.enabled()) {  // what a cycle costs once connected
      iteration_->apply_preconditioner_once(x_.data(), b_.data());
      trace.lap("preconditioner again (connected)");
    }
    space_->reset_times();
  }

  void describe(const DeviceBinding& binding) {
    const DeviceInfo info = current_device_info();
    const int processes = this->communicator.size();
    this->setup.device = Device::gpu;
    this->setup.device_name = info.name + " (sm_" + std::to_string(info.compute_major) +
                              std::to_string(info.compute_minor) + "), " +
                              std::to_string(processes) + " process" + (processes > 1 ? "es" : "") +
                              " over " + transport() +
                              (nccl_ ? " " + nccl_->library().version_text() : "") +
                              (binding.gpu_shared() ? ", GPUs shared" : "");
    this->setup.operator_name = local_backend_->name() + " local";
    if (halo_backend_ != nullptr)
      this->setup.operator_name += " + " + halo_backend_->name() + " halo" + halo_rows_note_;
    this->setup.format_details = local_backend_->details();
    this->setup.device_bytes =
        local_backend_->device_bytes() + (halo_backend_ ? halo_backend_->device_bytes() : 0);
    this->setup.bytes_per_spmv =
        local_backend_->bytes_per_spmv() + (halo_backend_ ? halo_backend_->bytes_per_spmv() : 0);
  }

  // block_jacobi: this process's diagonal block (the split's local block, kept on the device,
  // with each entry's pattern position), its product the local backend's forked from the
  // solver's stream and joined back (JoinedLocalOperator: with NCCL the backend runs on the
  // local stream), the local AMG's levels on the solver's stream.
  LocalBlock<DeviceSpace<T>> diagonal_block(const SplitRows<T>& split, DeviceSplitRows<T> rows,
                                            const SpmvOptions& spmv, cudaStream_t stream) {
    LocalBlock<DeviceSpace<T>> block;
    if (this->options.preconditioner != Preconditioner::block_jacobi) return block;
    BlockArrays& arrays = block_arrays_;
    arrays.offsets = std::move(rows.local.row_offsets);
    arrays.columns = std::move(rows.local.columns);
    arrays.values = std::move(rows.local.values);
    arrays.positions = std::move(rows.local_positions);
    block_operator_ =
        std::make_unique<JoinedLocalOperator<T>>(this->matrix->local(), this->matrix->exchange());
    block.matrix = block_operator_.get();
    block.pattern = SpacePattern{split.local.rows, split.local.cols, arrays.offsets.data(),
                                 arrays.columns.data()};
    block.values = arrays.values.data();
    block.nnz = split.local_entries;
    block.positions = arrays.positions.data();
    block.first_row = split.first_row;
    block.rank = this->communicator.size() > 1 ? this->communicator.rank() : -1;
    block.level_operators = device_level_operator_factories(spmv, stream);
    return block;
  }

  // The distributed AMG's level operators (its levels built on the device: AmgBuildOf of this
  // space is DeviceDistributedAmgBuild): each level's blocks split on the device as SpMV
  // backends in the level's format on the solver's stream, exchanged as the solver's matrix is.
  LevelOperatorFactories<DeviceDistributedLevel> distributed_level_operators(
      const SpmvOptions& spmv, cudaStream_t stream) {
    return device_distributed_level_operator_factories(this->communicator.get(), nccl_.get(),
                                                       stream, &this->watch, spmv);
  }

  FineRows fine_rows_;  // the matrix's distribution, for the distributed AMG setup
  std::unique_ptr<WatchedStreamWait> stream_wait_;  // nccl with the watch: context_'s waits
  std::unique_ptr<DeviceContext> context_;
  std::unique_ptr<NcclCommunicator> nccl_;
  std::unique_ptr<CudaStream> local_stream_;  // nccl: the local block's stream
  SpmvBackend<T>* local_backend_ = nullptr;   // owned by the matrix's blocks
  SpmvBackend<T>* halo_backend_ = nullptr;    // the halo block's backend, if any
  std::string halo_rows_note_;
  DeviceBuffer<index_t> pattern_offsets_, pattern_columns_;
  DeviceBuffer<T> pattern_values_;              // the whole rows' values during setup (freed after)
  DeviceBuffer<T> local_values_, halo_values_;  // an update's split values (freed after)
  DeviceBuffer<T> staged_values_;               // an update's host values, uploaded
  const T* update_source_ = nullptr;            // an update's whole rows' values, on the device
  DeviceBuffer<index_t> local_offsets_, halo_offsets_;  // the blocks' CSR row offsets
  DeviceBuffer<index_t> first_bad_;  // update_values from device values: the checks
  DeviceBuffer<index_t> diagonal_positions_;
  std::vector<index_t> host_diagonal_positions_;  // update_values from host values
  std::unique_ptr<Space> space_;
  std::unique_ptr<NcclScalarSum<T>> scalar_sum_;
  struct BlockArrays {  // block_jacobi's diagonal block, during setup
    DeviceBuffer<index_t> offsets, columns, positions;
    DeviceBuffer<T> values;
  };
  BlockArrays block_arrays_;
  std::unique_ptr<JoinedLocalOperator<T>> block_operator_;  // block_jacobi: A_local
  std::unique_ptr<KrylovIteration<Space>> iteration_;
  DeviceBuffer<T> b_, x_, scalar_;
};

}  // namespace

template <class T>
std::unique_ptr<typename DistributedSolver<T>::Impl> make_device_distributed_solver(
    MPI_Comm comm, const DistributedCsrArrays<T>& arrays, const Options& options,
    const DistributedOptions& distributed) {
  return std::make_unique<DeviceDistributedSolver<T>>(comm, &arrays, nullptr, options, distributed);
}

template <class T>
std::unique_ptr<typename DistributedSolver<T>::Impl> make_device_distributed_solver(
    MPI_Comm comm, DeviceSplitRows<T>&& rows, const Options& options,
    const DistributedOptions& distributed) {
  return std::make_unique<DeviceDistributedSolver<T>>(comm, nullptr, &rows, options, distributed);
}

template std::unique_ptr<DistributedSolver<float>::Impl> make_device_distributed_solver<float>(
    MPI_Comm, const DistributedCsrArrays<float>&, const Options&, const DistributedOptions&);
template std::unique_ptr<DistributedSolver<double>::Impl> make_device_distributed_solver<double>(
    MPI_Comm, const DistributedCsrArrays<double>&, const Options&, const DistributedOptions&);
template std::unique_ptr<DistributedSolver<float>::Impl> make_device_distributed_solver<float>(
    MPI_Comm, DeviceSplitRows<float>&&, const Options&, const DistributedOptions&);
template std::unique_ptr<DistributedSolver<double>::Impl> make_device_distributed_solver<double>(
    MPI_Comm, DeviceSplitRows<double>&&, const Options&, const DistributedOptions&);

}  // namespace spk
