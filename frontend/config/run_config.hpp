#pragma once
// RunConfig: a whole `spkrylov solve` run, parsed once from YAML into typed structs
// (frontend/config/config_loader.hpp). Every field matches one YAML key;
// docs/config.md documents them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "distributed/row_partition.hpp"
#include "spkrylov/options.hpp"
#include "spmv/host/generator_spec.hpp"

namespace spk {

// matrix: {file: PATH} or matrix: {generate: {kind: ..., n: ..., ...}}, with optional
// block_size and coordinates
struct MatrixSpec {
  std::string file;                       // set when reading a Matrix Market file
  std::optional<GeneratorSpec> generate;  // set when generating
  // Unknowns per node (1..6), interleaved (x, y, z of node 0, then node 1, ...): the key, or
  // the generator's own (generator_block_size) when the key is absent.
  int block_size = 1;
  std::string coordinates;  // Matrix Market array file, nodes x dimension; empty: none given
};

// rhs: ones | random | load | {file: b.mtx} | {from_solution: random|ones}
struct RhsSpec {
  enum class Kind { ones, random, file, from_solution, load };  // load: the generator's own
  Kind kind = Kind::ones;
  std::string file;                 // Kind::file
  std::string solution = "random";  // Kind::from_solution: random | ones
  std::uint64_t seed = 42;
};

// precision: single | double | mixed. mixed is a double solver whose SpMV stores the matrix
// values in fp32 (spmv.matrix_values single; see spmv_for below).
enum class Precision { single_precision, double_precision, mixed_precision };

struct OutputSpec {
  std::string solution;  // Matrix Market array file for x
  std::string history;   // CSV: iteration, residual, elapsed_s (per format when comparing)
  std::string report;    // JSON report
  std::string plot;      // SVG convergence plot
  // The plot's residual axis: "relative" (||r|| / ||b||, comparable across problems) or
  // "absolute" (||r||).
  std::string plot_residual = "relative";
};

// compare: [{format: csr-scalar}, {format: ellpack-r, x_cache: texture}, {vector_ops: fused},
// {precision: mixed}, ...]. Each entry overrides `spmv:` keys, solver.vector_ops and (between
// double and mixed) precision for one run of the same system.
struct CompareEntry {
  SpmvOptions spmv;
  VectorOps vector_ops = VectorOps::cublas;
  Precision precision = Precision::double_precision;
};

// distributed: how `mpirun -np N spkrylov solve` splits the rows into contiguous blocks, one
// per process (distributed/row_partition.hpp). One process ignores it.
struct DistributedSpec {
  RowBalance partition = RowBalance::nonzeros;  // nnz | rows
  Transport transport = Transport::automatic;   // auto | nccl | mpi (the GPU path)
  bool overlap = true;       // the halo exchange runs while the local block multiplies
  bool watch_faults = true;  // a process failing mid-solve ends the solve on every process
  int nccl_channels = 8;     // NCCL's channels (maxCTAs); 0: NCCL's own choice
};

struct RunConfig {
  std::string source = "<built-in default>";  // where it came from, for messages
  MatrixSpec matrix;
  RhsSpec rhs;
  SolverOptions solver;
  // solver.preconditioner_options.near_nullspace given as a Matrix Market array file (n x k;
  // solver.preconditioner_options.amg.near_nullspace is then vectors); empty otherwise.
  std::string near_nullspace_file;
  SpmvOptions spmv;
  Precision precision = Precision::double_precision;
  Device device = Device::automatic;
  OutputSpec output;
  std::vector<CompareEntry> compare;
  DistributedSpec distributed;
  // A time loop (frontend/time_steps.hpp): the solve and steps - 1 more, each after new values
  // of the matrix (same pattern) and update_values. 1: the solve alone.
  int steps = 1;
  // Where the loop's new values are when update_values takes them: the host (the default: the
  // update's time holds their checks and upload) or the device (step_values: device, a GPU
  // simulation's values: each step's values are copied to the device before the update, that
  // copy timed apart as the simulation's, and update_values takes the device array).
  bool step_values_on_device = false;
};

// The SpMV options a run gets: `spmv` with matrix_values from the precision (fp32 values for
// mixed).
inline SpmvOptions spmv_for(SpmvOptions spmv, Precision precision) {
  spmv.matrix_values =
      precision == Precision::mixed_precision ? MatrixValues::single : MatrixValues::solver;
  return spmv;
}

}  // namespace spk
