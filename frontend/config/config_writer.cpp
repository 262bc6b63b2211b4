// to_yaml: the fully resolved config (every key, defaults included) in the same schema the
// loader reads, so parse_run_config(to_yaml(c)) gives c back.
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <string>

#include "frontend/config/config_loader.hpp"
#include "frontend/config/config_names.hpp"

namespace spk {
namespace {

// The shortest decimal text that reads back as exactly `value` ("1e-08", "0.1", "10").
std::string shortest_round_trip(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}

void emit_generator(YAML::Emitter& out, const GeneratorSpec& spec) {
  out << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << spec.kind;
  out << YAML::Key << "n" << YAML::Value << spec.n;
  out << YAML::Key << "stencil" << YAML::Value << spec.stencil
      << YAML::Comment("used by poisson3d");
  out << YAML::Key << "peclet" << YAML::Value << shortest_round_trip(spec.peclet)
      << YAML::Comment("used by convdiff2d, convdiff3d");
  out << YAML::Key << "convection" << YAML::Value << spec.convection
      << YAML::Comment("used by convdiff2d, convdiff3d");
  out << YAML::Key << "avg_row_length" << YAML::Value << shortest_round_trip(spec.avg_row_length)
      << YAML::Comment("used by powerlaw");
  out << YAML::Key << "exponent" << YAML::Value << shortest_round_trip(spec.exponent)
      << YAML::Comment("used by powerlaw");
  out << YAML::Key << "scale" << YAML::Value << spec.scale << YAML::Comment("used by rmat");
  out << YAML::Key << "edge_factor" << YAML::Value << spec.edge_factor
      << YAML::Comment("used by rmat");
  out << YAML::Key << "dense_rows" << YAML::Value << spec.dense_rows
      << YAML::Comment("used by circuit");
  out << YAML::Key << "dense_fraction" << YAML::Value << shortest_round_trip(spec.dense_fraction)
      << YAML::Comment("used by circuit");
  out << YAML::Key << "poisson_ratio" << YAML::Value << shortest_round_trip(spec.poisson_ratio)
      << YAML::Comment("used by beam3d");
  out << YAML::Key << "seed" << YAML::Value << spec.seed;
  out << YAML::EndMap;
}

void emit_matrix(YAML::Emitter& out, const MatrixSpec& matrix) {
  out << YAML::Key << "matrix" << YAML::Value << YAML::BeginMap;
  if (!matrix.file.empty()) out << YAML::Key << "file" << YAML::Value << matrix.file;
  if (matrix.generate) {
    out << YAML::Key << "generate" << YAML::Value;
    emit_generator(out, *matrix.generate);
  }
  // A generator's block size is its own (the key may only repeat it): written for files only,
  // so that --set matrix.generate.kind=... on a resolved config takes the new kind's.
  if (!matrix.generate) out << YAML::Key << "block_size" << YAML::Value << matrix.block_size;
  if (!matrix.coordinates.empty())
    out << YAML::Key << "coordinates" << YAML::Value << matrix.coordinates;
  out << YAML::EndMap;
}

void emit_rhs(YAML::Emitter& out, const RhsSpec& rhs) {
  out << YAML::Key << "rhs" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << to_string(rhs.kind);
  if (rhs.kind == RhsSpec::Kind::file) out << YAML::Key << "file" << YAML::Value << rhs.file;
  if (rhs.kind == RhsSpec::Kind::from_solution)
    out << YAML::Key << "from_solution" << YAML::Value << rhs.solution;
  out << YAML::Key << "seed" << YAML::Value << rhs.seed;
  out << YAML::EndMap;
}

void emit_chebyshev(YAML::Emitter& out, const ChebyshevOptions& chebyshev, const char* degree_key) {
  out << YAML::Key << degree_key << YAML::Value << chebyshev.degree;
  out << YAML::Key << "eigen_estimate" << YAML::Value << to_string(chebyshev.eigen_estimate);
  out << YAML::Key << "estimate_iterations" << YAML::Value << chebyshev.estimate_iterations;
  out << YAML::Key << "upper_factor" << YAML::Value << shortest_round_trip(chebyshev.upper_factor);
  out << YAML::Key << "lower_ratio" << YAML::Value << shortest_round_trip(chebyshev.lower_ratio);
}

// The keys of preconditioner `kind`, every one (none and jacobi have none; block_jacobi's are
// `local` and its local kind's). `near_nullspace_file`: amg's near_nullspace when it names a
// file.
void emit_kind_options(YAML::Emitter& out, Preconditioner kind,
                       const PreconditionerOptions& options,
                       const std::string& near_nullspace_file) {
  switch (kind) {
    case Preconditioner::none:
    case Preconditioner::jacobi: return;
    case Preconditioner::block_jacobi:
      out << YAML::Key << "local" << YAML::Value << to_string(options.local);
      if (options.local != Preconditioner::block_jacobi)
        emit_kind_options(out, options.local, options, near_nullspace_file);
      return;
    case Preconditioner::chebyshev: emit_chebyshev(out, options.chebyshev, "degree"); return;
    case Preconditioner::ic0:
    case Preconditioner::ilu0:
      out << YAML::Key << "sweeps" << YAML::Value << options.factorization.sweeps;
      out << YAML::Key << "shift" << YAML::Value;
      if (options.factorization.shift == FactorShift::fixed)
        out << shortest_round_trip(options.factorization.shift_value);
      else
        out << to_string(options.factorization.shift);
      return;
    case Preconditioner::amg: {
      const AmgOptions& amg = options.amg;
      out << YAML::Key << "strength_threshold" << YAML::Value
          << shortest_round_trip(amg.strength_threshold);
      out << YAML::Key << "max_levels" << YAML::Value << amg.max_levels;
      out << YAML::Key << "max_coarse_rows" << YAML::Value << amg.max_coarse_rows;
      out << YAML::Key << "agglomerate_rows" << YAML::Value << amg.agglomerate_rows;
      out << YAML::Key << "resetup" << YAML::Value << to_string(amg.resetup);
      out << YAML::Key << "prolongator_weight" << YAML::Value
          << shortest_round_trip(amg.prolongator_weight);
      out << YAML::Key << "smoother" << YAML::Value << to_string(amg.smoother);
      out << YAML::Key << "sweeps" << YAML::Value << amg.sweeps;
      out << YAML::Key << "jacobi_weight" << YAML::Value << shortest_round_trip(amg.jacobi_weight);
      emit_chebyshev(out, amg.chebyshev, "smoother_degree");
      out << YAML::Key << "level_formats" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const Format format : amg.level_formats) out << to_string(format);
      out << YAML::EndSeq;
      out << YAML::Key << "precision" << YAML::Value << to_string(amg.precision);
      out << YAML::Key << "near_nullspace" << YAML::Value
          << (amg.near_nullspace == NearNullspace::vectors && !near_nullspace_file.empty()
                  ? near_nullspace_file
                  : std::string(to_string(amg.near_nullspace)));
      return;
    }
  }
}

// solver.preconditioner_options: the chosen kind's keys, when it has any.
void emit_preconditioner_options(YAML::Emitter& out, const SolverOptions& solver,
                                 const std::string& near_nullspace_file) {
  if (solver.preconditioner == Preconditioner::none ||
      solver.preconditioner == Preconditioner::jacobi)
    return;
  out << YAML::Key << "preconditioner_options" << YAML::Value << YAML::BeginMap;
  emit_kind_options(out, solver.preconditioner, solver.preconditioner_options,
                    near_nullspace_file);
  out << YAML::EndMap;
}

void emit_solver(YAML::Emitter& out, const SolverOptions& solver,
                 const std::string& near_nullspace_file) {
  out << YAML::Key << "solver" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "method" << YAML::Value << to_string(solver.method);
  out << YAML::Key << "tolerance" << YAML::Value << shortest_round_trip(solver.tolerance);
  out << YAML::Key << "tolerance_mode" << YAML::Value << to_string(solver.tolerance_mode);
  out << YAML::Key << "max_iterations" << YAML::Value << solver.max_iterations;
  out << YAML::Key << "preconditioner" << YAML::Value << to_string(solver.preconditioner);
  emit_preconditioner_options(out, solver, near_nullspace_file);
  out << YAML::Key << "divergence_factor" << YAML::Value
      << shortest_round_trip(solver.divergence_factor);
  out << YAML::Key << "time_limit_s" << YAML::Value << shortest_round_trip(solver.time_limit_s);
  out << YAML::Key << "check_every" << YAML::Value << solver.check_every;
  out << YAML::Key << "cuda_graph" << YAML::Value << solver.cuda_graph;
  out << YAML::Key << "keep_history" << YAML::Value << solver.keep_history;
  out << YAML::Key << "vector_ops" << YAML::Value << to_string(solver.vector_ops);
  out << YAML::Key << "breakdown_restarts" << YAML::Value << solver.breakdown_restarts;
  out << YAML::Key << "restart" << YAML::Value << solver.restart;
  out << YAML::Key << "orthogonalization" << YAML::Value << to_string(solver.orthogonalization);
  out << YAML::EndMap;
}

void emit_spmv_keys(YAML::Emitter& out, const SpmvOptions& spmv, bool open_map = true) {
  if (open_map) out << YAML::BeginMap;
  out << YAML::Key << "format" << YAML::Value << to_string(spmv.format);
  out << YAML::Key << "x_cache" << YAML::Value << to_string(spmv.x_cache);
  out << YAML::Key << "threads_per_row" << YAML::Value << spmv.threads_per_row;
  out << YAML::Key << "block_size" << YAML::Value << spmv.block_size;
  out << YAML::Key << "hyb_width" << YAML::Value << spmv.hyb_width;
  out << YAML::Key << "max_ell_fill" << YAML::Value << shortest_round_trip(spmv.max_ell_fill);
  out << YAML::Key << "sell_sigma" << YAML::Value << spmv.sell_sigma;
  out << YAML::Key << "cusparse_algorithm" << YAML::Value << spmv.cusparse_algorithm;
  out << YAML::Key << "grid" << YAML::Value << to_string(spmv.grid);
  out << YAML::Key << "tune_budget_ms" << YAML::Value << shortest_round_trip(spmv.tune_budget_ms);
  out << YAML::Key << "tune_cache" << YAML::Value << spmv.tune_cache;
  if (open_map) out << YAML::EndMap;
}

void emit_output(YAML::Emitter& out, const OutputSpec& output) {
  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "solution" << YAML::Value << output.solution;
  out << YAML::Key << "history" << YAML::Value << output.history;
  out << YAML::Key << "report" << YAML::Value << output.report;
  out << YAML::Key << "plot" << YAML::Value << output.plot;
  out << YAML::Key << "plot_residual" << YAML::Value << output.plot_residual;
  out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const RunConfig& config) {
  YAML::Emitter out;
  out.SetBoolFormat(YAML::TrueFalseBool);
  out << YAML::Comment("spkrylov run config from " + config.source +
                       ", fully resolved (every key, defaults included)");
  out << YAML::BeginMap;
  emit_matrix(out, config.matrix);
  emit_rhs(out, config.rhs);
  emit_solver(out, config.solver, config.near_nullspace_file);
  out << YAML::Key << "spmv" << YAML::Value;
  emit_spmv_keys(out, config.spmv);
  out << YAML::Key << "precision" << YAML::Value << to_string(config.precision);
  out << YAML::Key << "device" << YAML::Value << to_string(config.device);
  emit_output(out, config.output);
  out << YAML::Key << "compare" << YAML::Value << YAML::BeginSeq;
  for (const CompareEntry& entry : config.compare) {
    out << YAML::BeginMap;
    emit_spmv_keys(out, entry.spmv, false);
    out << YAML::Key << "vector_ops" << YAML::Value << to_string(entry.vector_ops);
    if (config.precision != Precision::single_precision)  // compare's double | mixed
      out << YAML::Key << "precision" << YAML::Value << to_string(entry.precision);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "distributed" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "partition" << YAML::Value << to_string(config.distributed.partition)
      << YAML::Comment("used by mpirun -np N");
  out << YAML::Key << "transport" << YAML::Value << to_string(config.distributed.transport);
  out << YAML::Key << "overlap" << YAML::Value << config.distributed.overlap;
  out << YAML::Key << "watch_faults" << YAML::Value << config.distributed.watch_faults;
  out << YAML::Key << "nccl_channels" << YAML::Value << config.distributed.nccl_channels
      << YAML::Comment("0: NCCL's own choice");
  out << YAML::EndMap;
  out << YAML::Key << "steps" << YAML::Value << config.steps
      << YAML::Comment("solves, each after new values and update_values");
  out << YAML::Key << "step_values" << YAML::Value
      << (config.step_values_on_device ? "device" : "host")
      << YAML::Comment("where update_values finds the steps' values");
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace spk
