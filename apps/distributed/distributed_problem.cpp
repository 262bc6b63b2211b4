#include "distributed_problem.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "distributed/agreed_errors.hpp"
#include "distributed/device_binding.hpp"
#include "distributed/distributed_setup.hpp"
#include "distributed/host_blocks.hpp"
#include "distributed/mpi_check.hpp"
#include "frontend/problem.hpp"
#include "frontend/solve_steps.hpp"
#include "spmv/device/device_row_stats.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk::app {

namespace {

constexpr int scatter_tag = 23;

// Rank 0 sends every other process its part of `data` (counts[p] entries from offsets[p]);
// the others receive theirs. Returns this process's part.
template <class U>
std::vector<U> scatter_parts(const Communicator& communicator, const U* data,
                             const std::vector<std::int64_t>& offsets,
                             const std::vector<std::int64_t>& counts) {
  const int rank = communicator.rank();
  std::vector<U> mine(static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]));
  if (rank == 0) {
    for (int p = 1; p < communicator.size(); ++p)
      SPK_MPI_CHECK(MPI_Send(data + offsets[static_cast<std::size_t>(p)],
                             static_cast<int>(counts[static_cast<std::size_t>(p)]),
                             mpi_datatype<U>(), p, scatter_tag, communicator.get()));
    std::copy(data, data + mine.size(), mine.begin());
  } else {
    SPK_MPI_CHECK(MPI_Recv(mine.data(), static_cast<int>(mine.size()), mpi_datatype<U>(), 0,
                           scatter_tag, communicator.get(), MPI_STATUS_IGNORE));
  }
  return mine;
}

// Every process's rows of `whole` (held by rank 0 only; nullptr elsewhere).
RowBlock<double> scatter_rows(const Communicator& communicator, const CsrMatrix<double>* whole,
                              const RowPartition& partition) {
  const auto processes = static_cast<std::size_t>(communicator.size());
  std::vector<std::int64_t> row_offsets(processes), row_counts(processes);
  for (std::size_t p = 0; p < processes; ++p) {
    row_offsets[p] = partition.first_row(static_cast<int>(p));
    row_counts[p] = partition.rows(static_cast<int>(p)) + 1;  // with the end offset
  }
  RowBlock<double> rows;
  rows.global_rows = partition.global_rows();
  rows.first_row = partition.first_row(communicator.rank());
  rows.rows = static_cast<index_t>(partition.rows(communicator.rank()));
  rows.row_offsets = scatter_parts(communicator, whole ? whole->row_offsets.data() : nullptr,
                                   row_offsets, row_counts);
  // Entries [begin, end) of each process, and its offsets relative to begin.
  std::vector<std::int64_t> entry_offsets(processes), entry_counts(processes);
  if (whole)
    for (std::size_t p = 0; p < processes; ++p) {
      entry_offsets[p] = whole->row_offsets[static_cast<std::size_t>(row_offsets[p])];
      entry_counts[p] =
          whole->row_offsets[static_cast<std::size_t>(row_offsets[p] + row_counts[p] - 1)] -
          entry_offsets[p];
    }
  const index_t begin = rows.row_offsets.front();
  for (index_t& offset : rows.row_offsets) offset -= begin;
  entry_counts[static_cast<std::size_t>(communicator.rank())] = rows.row_offsets.back();
  const std::vector<index_t> columns = scatter_parts(
      communicator, whole ? whole->columns.data() : nullptr, entry_offsets, entry_counts);
  rows.columns.assign(columns.begin(), columns.end());
  rows.values = scatter_parts(communicator, whole ? whole->values.data() : nullptr, entry_offsets,
                              entry_counts);
  return rows;
}

// Every process's rows of a whole vector held by rank 0.
std::vector<double> scatter_vector(const Communicator& communicator,
                                   const std::vector<double>& whole,
                                   const RowPartition& partition) {
  std::vector<std::int64_t> offsets, counts;
  for (int p = 0; p < partition.processes(); ++p) {
    offsets.push_back(partition.first_row(p));
    counts.push_back(partition.rows(p));
  }
  return scatter_parts(communicator, whole.data(), offsets, counts);
}

RowPartition broadcast_partition(const Communicator& communicator, RowPartition partition) {
  partition.offsets.resize(static_cast<std::size_t>(communicator.size()) + 1);
  SPK_MPI_CHECK(MPI_Bcast(partition.offsets.data(), static_cast<int>(partition.offsets.size()),
                          MPI_INT64_T, 0, communicator.get()));
  return partition;
}

// The rows on this process's GPU (bound as the solver binds it: local rank % devices), in the
// run's precision, with b when it is ones or A 1; the statistics the report reads from them.
template <class T>
void generate_on_device(const GridStencil& stencil, const RunConfig& config,
                        const Communicator& communicator, DistributedProblem& problem) {
  const int rank = communicator.rank();
  const GeneratorSpec& spec = *config.matrix.generate;
  const bool ones_solution =
      config.rhs.kind == RhsSpec::Kind::from_solution && config.rhs.solution == "ones";
  DeviceGridRowsRequest request;
  request.pattern = true;
  request.local_positions = config.solver.preconditioner == Preconditioner::block_jacobi;
  request.rhs = config.rhs.kind == RhsSpec::Kind::ones ? DeviceRhs::ones
                : ones_solution                        ? DeviceRhs::row_sums
                                                       : DeviceRhs::none;
  (void)bind_device(communicator.get(), true);  // the solver's GPU, made current
  DeviceProblemRows device_rows;
  on_every_process(communicator.get(), [&] {
    DeviceGridRows<T> rows = generate_device_grid_rows<T>(
        stencil, spec.n, problem.partition.first_row(rank), problem.partition.end_row(rank),
        request, problem.name + " (rank " + std::to_string(rank) + ")", nullptr);
    device_rows.stats =
        device_block_stats(rows.rows, rows.pattern.row_offsets.data(), rows.pattern.columns.data(),
                           rows.pattern.values.data(), nullptr);
    device_rows.of<T>() = std::move(rows);
  });
  problem.device_rows = std::move(device_rows);
}

// Whether a grid kind's rows are generated on the GPU: the solve runs there (agreed) and
// reads no host rows after setup (steps <= 1: a time loop's values come from the host rows).
bool generates_on_device(const RunConfig& config, const Communicator& communicator) {
  return config.steps <= 1 && config.rhs.kind != RhsSpec::Kind::load &&
         solves_on_gpu(communicator.get(), config.device);
}

// A grid kind: every process builds its own rows, on its GPU or on the host.
void build_grid_rows(const RunConfig& config, const Communicator& communicator,
                     DistributedProblem& problem) {
  const GeneratorSpec& spec = *config.matrix.generate;
  const RowBalance balance = config.distributed.partition;
  GridStencil stencil;
  std::int64_t rows = 0;
  on_every_process(communicator.get(), [&] {
    stencil = *grid_stencil_of(spec);
    if (spec.n < 1)
      throw BadInput(problem.name + ": n = " + std::to_string(spec.n) + " must be at least 1");
    rows = grid_operator_rows(stencil, spec.n);
    if (rows == std::numeric_limits<std::int64_t>::max())
      throw BadInput(problem.name + ": rows exceed the 64-bit index range");
  });
  const auto entries_before = [&](global_index_t row) {
    return grid_entries_before(stencil, spec.n, row);
  };
  problem.partition = partition_rows(rows, communicator.size(), balance, entries_before);
  const int rank = communicator.rank();
  if (generates_on_device(config, communicator)) {
    problem.rows.global_rows = problem.partition.global_rows();
    problem.rows.first_row = problem.partition.first_row(rank);
    problem.rows.rows = static_cast<index_t>(problem.partition.rows(rank));
    if (config.precision == Precision::single_precision)
      generate_on_device<float>(stencil, config, communicator, problem);
    else
      generate_on_device<double>(stencil, config, communicator, problem);
    return;
  }
  on_every_process(communicator.get(), [&] {
    problem.rows = assemble_grid_rows(stencil, spec.n, problem.partition.first_row(rank),
                                      problem.partition.end_row(rank), problem.name);
  });
}

// A file or a generator built whole (powerlaw, rmat, circuit, beam3d): rank 0 builds the whole
// matrix and sends the rows. Returns the generator's load vector on rank 0 (beam3d; empty
// elsewhere), for rhs: load.
std::vector<double> scatter_whole_matrix(const RunConfig& config, const Communicator& communicator,
                                         DistributedProblem& problem) {
  CsrMatrix<double> whole;
  std::vector<double> whole_load;
  on_every_process(communicator.get(), [&] {
    if (communicator.rank() != 0) return;
    Problem loaded = load_matrix(config.matrix);
    whole = std::move(loaded.matrix);
    whole_load = std::move(loaded.load);
    check_solvable(problem.name, whole.rows, whole.cols, whole.nnz());
    problem.partition =
        partition_rows(whole.rows, communicator.size(), config.distributed.partition,
                       [&](global_index_t row) { return whole.row_offsets[row]; });
  });
  problem.partition = broadcast_partition(communicator, problem.partition);
  problem.rows =
      scatter_rows(communicator, communicator.rank() == 0 ? &whole : nullptr, problem.partition);
  return whole_load;
}

// This process's rows of b (and of x* for from_solution). `whole_load`: the generator's load
// vector on rank 0 (rhs: load).
void build_rhs(const RunConfig& config, const Communicator& communicator,
               DistributedProblem& problem, const std::vector<double>& whole_load) {
  const RowBlock<double>& rows = problem.rows;
  const auto n = static_cast<std::size_t>(rows.rows);
  switch (config.rhs.kind) {
    case RhsSpec::Kind::ones:
      if (!problem.device_rows) problem.rhs.assign(n, 1.0);  // else made with the rows
      return;
    case RhsSpec::Kind::random:
      problem.rhs = random_entries(config.rhs.seed, rows.first_row, n);
      return;
    case RhsSpec::Kind::file: {
      std::vector<double> whole;
      on_every_process(communicator.get(), [&] {
        if (communicator.rank() != 0) return;
        whole = read_vector_market(config.rhs.file);
        check_rhs_length(config.rhs.file, static_cast<std::int64_t>(whole.size()),
                         rows.global_rows);
      });
      problem.rhs = scatter_vector(communicator, whole, problem.partition);
      return;
    }
    case RhsSpec::Kind::from_solution: {
      std::vector<double> exact = config.rhs.solution == "random"
                                      ? random_entries(config.rhs.seed, rows.first_row, n)
                                      : std::vector<double>(n, 1.0);
      if (problem.device_rows) {  // b made with the rows (x* ones) or A x* by the solver
        problem.exact_solution = std::move(exact);
        return;
      }
      SplitRows<double> split;
      on_every_process(communicator.get(), [&] {
        split = split_local_and_halo(rows, problem.partition, communicator.rank());
      });
      const DistributedMatrix<double> a(communicator.get(), std::move(split),
                                        host_blocks<double>(communicator.get()));
      problem.rhs.resize(n);
      a.op().apply(exact.data(), problem.rhs.data());  // b = A x*
      problem.exact_solution = std::move(exact);
      return;
    }
    case RhsSpec::Kind::load: {
      on_every_process(communicator.get(), [&] {
        if (communicator.rank() == 0 && whole_load.empty())
          throw BadInput("rhs: load: " + problem.name + " has no load vector (beam3d has)");
      });
      problem.rhs = scatter_vector(communicator, whole_load, problem.partition);
      return;
    }
  }
}

// One process with amg: the single-process problem, and the AMG's inputs in the options.
void build_whole_problem(const RunConfig& config, const Communicator& communicator,
                         DistributedProblem& problem) {
  on_every_process(communicator.get(), [&] {
    Problem whole = build_problem(config);
    problem.partition =
        partition_rows(whole.matrix.rows, 1, config.distributed.partition,
                       [&](global_index_t row) { return whole.matrix.row_offsets[row]; });
    problem.rows = rows_of(whole.matrix, 0, whole.matrix.rows);
    problem.rhs = std::move(whole.rhs);
    problem.exact_solution = std::move(whole.exact_solution);
    set_amg_inputs(whole, problem.solver);
  });
}

// AMG for systems over several processes: whether the run needs node-aligned blocks and its
// near-null-space inputs sliced (a block size > 1, or a near-null space other than constant).
bool is_systems_run(const RunConfig& config) {
  if (config.solver.preconditioner != Preconditioner::amg) return false;
  const int block_size = config.matrix.generate ? generator_block_size(config.matrix.generate->kind)
                                                : config.matrix.block_size;
  return block_size > 1 ||
         config.solver.preconditioner_options.amg.near_nullspace != NearNullspace::constant;
}

// Rank 0 builds the whole system (build_problem: matrix, right-hand side, coordinates or
// near-null-space vectors) and sends each process its rows. The partition cuts at node
// boundaries: the nodes (rows / block_size) are partitioned, balanced by the entries of their
// rows (distributed.partition: nnz) or by their count (rows), and scaled by block_size. Each
// process gets its nodes' coordinates or its rows' vectors (set_amg_inputs).
void build_systems_problem(const RunConfig& config, const Communicator& communicator,
                           DistributedProblem& problem) {
  Problem whole;
  std::int64_t sizes[4] = {0, 0, 0, 0};  // block size, dimension, vector count, has x*
  on_every_process(communicator.get(), [&] {
    if (communicator.rank() != 0) return;
    whole = build_problem(config);
    const int block_size = std::max(1, whole.block_size);
    const global_index_t nodes = whole.matrix.rows / block_size;
    RowPartition by_nodes = partition_rows(
        nodes, communicator.size(), config.distributed.partition,
        [&](global_index_t node) { return whole.matrix.row_offsets[node * block_size]; });
    for (global_index_t& offset : by_nodes.offsets) offset *= block_size;
    problem.partition = std::move(by_nodes);
    sizes[0] = block_size;
    sizes[1] = whole.coordinates.empty() ? 0 : whole.dimension;
    sizes[2] = whole.near_nullspace_count;
    sizes[3] = whole.exact_solution ? 1 : 0;
  });
  SPK_MPI_CHECK(MPI_Bcast(sizes, 4, MPI_INT64_T, 0, communicator.get()));
  problem.partition = broadcast_partition(communicator, problem.partition);
  const bool root = communicator.rank() == 0;
  problem.rows = scatter_rows(communicator, root ? &whole.matrix : nullptr, problem.partition);
  problem.rhs = scatter_vector(communicator, whole.rhs, problem.partition);
  if (sizes[3] != 0)
    problem.exact_solution = scatter_vector(communicator, *whole.exact_solution, problem.partition);
  // This process's slice: per node (coordinates, dimension each) or per row (k vectors).
  const auto slice = [&](const std::vector<double>& data, std::int64_t per, std::int64_t width) {
    std::vector<std::int64_t> offsets, counts;
    for (int p = 0; p < problem.partition.processes(); ++p) {
      offsets.push_back(problem.partition.first_row(p) / per * width);
      counts.push_back(problem.partition.rows(p) / per * width);
    }
    return scatter_parts(communicator, data.data(), offsets, counts);
  };
  Problem mine;
  mine.block_size = static_cast<int>(sizes[0]);
  mine.dimension = static_cast<int>(sizes[1]);
  if (sizes[1] > 0) mine.coordinates = slice(whole.coordinates, sizes[0], sizes[1]);
  mine.near_nullspace_count = static_cast<int>(sizes[2]);
  if (sizes[2] > 0) mine.near_nullspace_vectors = slice(whole.near_nullspace_vectors, 1, sizes[2]);
  set_amg_inputs(mine, problem.solver);
}

}  // namespace

DistributedProblem build_distributed_problem(const RunConfig& config,
                                             const Communicator& communicator) {
  const auto start = std::chrono::steady_clock::now();
  DistributedProblem problem;
  problem.name = config.matrix.generate ? describe(*config.matrix.generate) : config.matrix.file;
  problem.solver = solver_options_of_run(config);
  if (communicator.size() == 1 && config.solver.preconditioner == Preconditioner::amg) {
    build_whole_problem(config, communicator, problem);
    problem.load_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return problem;
  }
  if (is_systems_run(config)) {
    build_systems_problem(config, communicator, problem);
    problem.load_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return problem;
  }
  std::vector<double> whole_load;  // rank 0, rhs: load
  if (config.matrix.generate && is_grid_kind(config.matrix.generate->kind))
    build_grid_rows(config, communicator, problem);
  else
    whole_load = scatter_whole_matrix(config, communicator, problem);
  build_rhs(config, communicator, problem, whole_load);
  problem.load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return problem;
}

}  // namespace spk::app
