// The config schema: which keys exist, what each must hold, and which struct field it sets.
// docs/config.md documents the same schema; python/tests/test_docs.py keeps them in step.
#include "frontend/config/config_loader.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/input_file.hpp"
#include "core/printable_text.hpp"
#include "frontend/config/config_names.hpp"
#include "frontend/config/config_overrides.hpp"
#include "frontend/config/config_paths.hpp"
#include "frontend/config/yaml_reader.hpp"
#include "spkrylov/errors.hpp"

namespace spk {
namespace {

// Fails with "must be RULE, got 'VALUE'" unless `ok`.
void require(const ConfigValue& value, bool ok, const std::string& rule) {
  if (!ok) value.fail("must be " + rule + ", got " + value.describe());
}

int read_int_choice(const ConfigValue& value, const std::vector<int>& choices) {
  const int chosen = value.as_int();
  std::vector<std::string> names;
  for (int choice : choices) {
    if (choice == chosen) return chosen;
    names.push_back(std::to_string(choice));
  }
  value.fail("must be one of " + join_names(names) + ", got " + value.describe());
}

GeneratorSpec read_generator(const ConfigValue& value) {
  const ConfigMap map(
      value, {"kind", "n", "stencil", "peclet", "convection", "avg_row_length", "exponent", "scale",
              "edge_factor", "dense_rows", "dense_fraction", "poisson_ratio", "seed"});
  GeneratorSpec spec;
  map.if_present("kind", [&](const ConfigValue& v) { spec.kind = v.as_choice(generator_kinds()); });
  map.if_present("n", [&](const ConfigValue& v) {
    spec.n = v.as_int();
    require(v, spec.n >= 1, "an integer >= 1");
  });
  map.if_present("stencil", [&](const ConfigValue& v) {
    spec.stencil = read_int_choice(v, poisson3d_stencil_choices());
  });
  map.if_present("peclet", [&](const ConfigValue& v) {
    spec.peclet = v.as_double();
    require(v, spec.peclet >= 0.0, ">= 0");
  });
  map.if_present("convection", [&](const ConfigValue& v) {
    spec.convection = v.as_choice(convection_schemes());
  });
  map.if_present("avg_row_length", [&](const ConfigValue& v) {
    spec.avg_row_length = v.as_double();
    require(v, spec.avg_row_length >= 1.0, ">= 1");
  });
  map.if_present("exponent", [&](const ConfigValue& v) {
    spec.exponent = v.as_double();
    require(v, spec.exponent > 1.0, "> 1");
  });
  map.if_present("scale", [&](const ConfigValue& v) {
    spec.scale = v.as_int();
    require(v, spec.scale >= 0 && spec.scale <= 30, "an integer from 0 to 30");
  });
  map.if_present("edge_factor", [&](const ConfigValue& v) {
    spec.edge_factor = v.as_int();
    require(v, spec.edge_factor >= 1, "an integer >= 1");
  });
  map.if_present("dense_rows", [&](const ConfigValue& v) {
    spec.dense_rows = v.as_int();
    require(v, spec.dense_rows >= 0, "an integer >= 0");
  });
  map.if_present("dense_fraction", [&](const ConfigValue& v) {
    spec.dense_fraction = v.as_double();
    require(v, spec.dense_fraction >= 0.0 && spec.dense_fraction <= 1.0, "from 0 to 1");
  });
  map.if_present("poisson_ratio", [&](const ConfigValue& v) {
    spec.poisson_ratio = v.as_double();
    require(v, spec.poisson_ratio > 0.0 && spec.poisson_ratio <= 0.45, "> 0 and <= 0.45");
  });
  map.if_present("seed", [&](const ConfigValue& v) { spec.seed = v.as_uint64(); });
  if (spec.kind == "circuit" && spec.dense_rows > spec.n) {
    const ConfigValue where = map.has("dense_rows") ? map.at("dense_rows")
                              : map.has("n")        ? map.at("n")
                                                    : value;
    where.fail("circuit needs dense_rows (" + std::to_string(spec.dense_rows) + ") <= n (" +
               std::to_string(spec.n) + ")");
  }
  if (spec.kind == "powerlaw" && spec.avg_row_length > spec.n) {
    const ConfigValue where = map.has("avg_row_length") ? map.at("avg_row_length")
                              : map.has("n")            ? map.at("n")
                                                        : value;
    std::ostringstream message;
    message << "powerlaw needs avg_row_length (" << spec.avg_row_length << ") <= n (" << spec.n
            << ")";
    where.fail(message.str());
  }
  return spec;
}

MatrixSpec read_matrix(const ConfigValue& value, const std::string& config_directory) {
  const ConfigMap map(value, {"file", "generate", "block_size", "coordinates"});
  if (map.has("file") == map.has("generate"))
    value.fail(map.has("file") ? "give either file or generate, not both"
                               : "give exactly one of file (a Matrix Market file) or generate "
                                 "(a built-in generator)");
  MatrixSpec spec;
  if (map.has("file")) spec.file = resolve_input_file(map.at("file"), config_directory);
  if (map.has("generate")) spec.generate = read_generator(map.at("generate"));
  // A generator knows its own block size: the key may only repeat it.
  if (spec.generate) spec.block_size = generator_block_size(spec.generate->kind);
  map.if_present("block_size", [&](const ConfigValue& v) {
    const int given = v.as_int();
    require(v, given >= 1 && given <= 6, "an integer from 1 to 6");
    if (spec.generate && given != spec.block_size)
      v.fail("generator " + spec.generate->kind + " has " + std::to_string(spec.block_size) +
             " unknown(s) per node, not " + std::to_string(given) + " (leave block_size out)");
    spec.block_size = given;
  });
  map.if_present("coordinates", [&](const ConfigValue& v) {
    spec.coordinates = resolve_input_file(v, config_directory);
  });
  return spec;
}

RhsSpec read_rhs(const ConfigValue& value, const std::string& config_directory) {
  RhsSpec spec;
  if (value.is_scalar()) {
    const std::string text = value.as_string();
    if (text == to_string(RhsSpec::Kind::ones)) return spec;
    if (text == to_string(RhsSpec::Kind::random)) {
      spec.kind = RhsSpec::Kind::random;
      return spec;
    }
    if (text == to_string(RhsSpec::Kind::load)) {
      spec.kind = RhsSpec::Kind::load;
      return spec;
    }
    value.fail("unknown value " + quoted_input(text) +
               " (valid: ones, random, load, or a map such as {file: b.mtx}, "
               "{from_solution: random} or {kind: random, seed: 7})");
  }
  const ConfigMap map(value, {"kind", "file", "from_solution", "seed"});
  if (map.has("kind")) {
    spec.kind = map.at("kind").as_enum(rhs_kind_names());
  } else if (map.has("file") && map.has("from_solution")) {
    value.fail("give either file or from_solution, not both");
  } else if (map.has("file")) {
    spec.kind = RhsSpec::Kind::file;
  } else if (map.has("from_solution")) {
    spec.kind = RhsSpec::Kind::from_solution;
  } else {
    value.fail("give kind (ones, random, file, from_solution, load), file or from_solution");
  }
  if (spec.kind == RhsSpec::Kind::file && !map.has("file"))
    value.fail("kind: file needs file: PATH");
  map.if_present("file", [&](const ConfigValue& v) {
    if (spec.kind != RhsSpec::Kind::file)
      v.fail(std::string("only valid with kind: file (kind is ") + to_string(spec.kind) + ")");
    spec.file = resolve_input_file(v, config_directory);
  });
  map.if_present("from_solution", [&](const ConfigValue& v) {
    if (spec.kind != RhsSpec::Kind::from_solution)
      v.fail(std::string("only valid with kind: from_solution (kind is ") + to_string(spec.kind) +
             ")");
    spec.solution = v.as_choice(rhs_solution_names());
  });
  map.if_present("seed", [&](const ConfigValue& v) { spec.seed = v.as_uint64(); });
  return spec;
}

void read_chebyshev(const ConfigMap& map, ChebyshevOptions& options, const char* degree_key) {
  map.if_present(degree_key, [&](const ConfigValue& v) {
    options.degree = v.as_int();
    require(v, options.degree >= 1 && options.degree <= 10, "an integer from 1 to 10");
  });
  map.if_present("eigen_estimate", [&](const ConfigValue& v) {
    options.eigen_estimate = v.as_enum(eigen_estimate_names());
  });
  map.if_present("estimate_iterations", [&](const ConfigValue& v) {
    options.estimate_iterations = v.as_int();
    require(v, options.estimate_iterations >= 1 && options.estimate_iterations <= 100,
            "an integer from 1 to 100");
  });
  map.if_present("upper_factor", [&](const ConfigValue& v) {
    options.upper_factor = v.as_double();
    require(v, options.upper_factor >= 1.0 && options.upper_factor <= 10.0, "from 1 to 10");
  });
  map.if_present("lower_ratio", [&](const ConfigValue& v) {
    options.lower_ratio = v.as_double();
    require(v, options.lower_ratio > 0.0 && options.lower_ratio < 1.0, "> 0 and < 1");
  });
}

// What solver.preconditioner_options.near_nullspace needs besides its own value: where its file
// is looked for, the matrix (rigid_body needs coordinates and a block size of 2 or 3), and
// where the file's path goes.
struct NearNullspaceContext {
  const std::string& config_directory;
  const MatrixSpec& matrix;
  std::string& file;
};

// near_nullspace: constant | rigid_body | PATH (a Matrix Market array file, n x k). The
// messages name near_nullspace themselves: the key path before them is cut at 40 characters.
void read_near_nullspace(const ConfigValue& value, AmgOptions& amg,
                         const NearNullspaceContext& context) {
  const std::string text = value.as_string();
  context.file.clear();
  if (text == to_string(NearNullspace::constant)) {
    amg.near_nullspace = NearNullspace::constant;
    return;
  }
  if (text == to_string(NearNullspace::rigid_body)) {
    const MatrixSpec& matrix = context.matrix;
    if (matrix.block_size != 2 && matrix.block_size != 3)
      value.fail(
          "near_nullspace rigid_body needs matrix.block_size 2 or 3 (unknowns per node "
          "in 2-D or 3-D), got " +
          std::to_string(matrix.block_size));
    const bool generated = matrix.generate && generator_has_coordinates(matrix.generate->kind);
    if (matrix.coordinates.empty() && !generated)
      value.fail(
          "near_nullspace rigid_body needs the nodes' coordinates: give "
          "matrix.coordinates (a Matrix Market array file, nodes x " +
          std::to_string(matrix.block_size) + ")");
    amg.near_nullspace = NearNullspace::rigid_body;
    return;
  }
  if (text == to_string(NearNullspace::vectors))
    value.fail(
        "near_nullspace takes the vectors' file itself (a Matrix Market array file, n x k), "
        "not 'vectors'");
  // Any other value is a file; a missing one is named with the two words it could have been.
  try {
    context.file = resolve_input_file(value, context.config_directory);
  } catch (const BadInput& error) {
    throw BadInput(std::string(error.what()) +
                   " (near_nullspace: constant, rigid_body or a Matrix Market file)");
  }
  amg.near_nullspace = NearNullspace::vectors;
}

// block_jacobi's `local` (the kind on each diagonal block), read before the map is checked:
// the keys valid beside it are that kind's. Not none, not block_jacobi.
Preconditioner read_block_local(const ConfigValue& value, Preconditioner local) {
  if (!value.is_map()) return local;  // ConfigMap names what it got
  for (const auto& entry : value.node()) {
    if (!entry.first.IsScalar() || entry.first.Scalar() != "local") continue;
    const ConfigValue v(value.origins(), entry.first, entry.second,
                        child_key_path(value.key_path(), "local"));
    local = v.as_enum(preconditioner_names());
    if (local == Preconditioner::none || local == Preconditioner::block_jacobi)
      v.fail(std::string("must be ilu0, ic0, amg, chebyshev or jacobi (the kind on each "
                         "process's diagonal block), got '") +
             to_string(local) + "'");
  }
  return local;
}

// solver.preconditioner_options: the keys of the chosen kind only, and `also` (block_jacobi's
// `local`, beside its local kind's keys).
void read_preconditioner_options(const ConfigValue& value, Preconditioner kind,
                                 PreconditionerOptions& options,
                                 const NearNullspaceContext& near_nullspace,
                                 const std::vector<std::string>& also = {}) {
  const auto keys = [&also](std::vector<std::string> own) {
    own.insert(own.end(), also.begin(), also.end());
    return own;
  };
  switch (kind) {
    case Preconditioner::block_jacobi:
      options.local = read_block_local(value, options.local);
      read_preconditioner_options(value, options.local, options, near_nullspace, {"local"});
      return;
    case Preconditioner::none:
    case Preconditioner::jacobi:
      if (!also.empty()) {
        const ConfigMap map(value, also);  // block_jacobi's local: jacobi
        return;
      }
      value.fail(std::string("preconditioner ") + to_string(kind) + " has no options");
    case Preconditioner::chebyshev: {
      const ConfigMap map(value, keys({"degree", "eigen_estimate", "estimate_iterations",
                                       "upper_factor", "lower_ratio"}));
      read_chebyshev(map, options.chebyshev, "degree");
      return;
    }
    case Preconditioner::ic0:
    case Preconditioner::ilu0: {
      const ConfigMap map(value, keys({"sweeps", "shift"}));
      map.if_present("sweeps", [&](const ConfigValue& v) {
        options.factorization.sweeps = v.as_int();
        require(v, options.factorization.sweeps >= 1 && options.factorization.sweeps <= 100,
                "an integer from 1 to 100");
      });
      map.if_present("shift", [&](const ConfigValue& v) {
        const char* const rule = "auto, none or a number >= 0";
        require(v, v.is_scalar(), rule);
        const std::string text = v.as_optional_string();
        if (text == to_string(FactorShift::automatic) || text == to_string(FactorShift::none)) {
          options.factorization.shift =
              text == to_string(FactorShift::none) ? FactorShift::none : FactorShift::automatic;
          return;
        }
        double shift = -1.0;
        try {
          shift = v.as_double();
        } catch (const BadInput&) {
          require(v, false, rule);
        }
        require(v, shift >= 0.0, rule);
        options.factorization.shift = FactorShift::fixed;
        options.factorization.shift_value = shift;
      });
      return;
    }
    case Preconditioner::amg: {
      AmgOptions& amg = options.amg;
      const ConfigMap map(
          value, keys({"strength_threshold", "max_levels", "max_coarse_rows", "agglomerate_rows",
                       "resetup", "prolongator_weight", "smoother", "sweeps", "smoother_degree",
                       "jacobi_weight", "level_formats", "precision", "eigen_estimate",
                       "estimate_iterations", "upper_factor", "lower_ratio", "near_nullspace"}));
      map.if_present("strength_threshold", [&](const ConfigValue& v) {
        amg.strength_threshold = v.as_double();
        require(v, amg.strength_threshold >= 0.0 && amg.strength_threshold < 1.0, ">= 0 and < 1");
      });
      map.if_present("max_levels", [&](const ConfigValue& v) {
        amg.max_levels = v.as_int();
        require(v, amg.max_levels >= 1 && amg.max_levels <= 50, "an integer from 1 to 50");
      });
      map.if_present("max_coarse_rows", [&](const ConfigValue& v) {
        amg.max_coarse_rows = v.as_int();
        require(v, amg.max_coarse_rows >= 1 && amg.max_coarse_rows <= 20000,
                "an integer from 1 to 20000");
      });
      map.if_present("resetup",
                     [&](const ConfigValue& v) { amg.resetup = v.as_enum(amg_resetup_names()); });
      map.if_present("agglomerate_rows", [&](const ConfigValue& v) {
        amg.agglomerate_rows = v.as_int();
        require(v, amg.agglomerate_rows >= 0, "an integer >= 0 (0: never)");
      });
      map.if_present("prolongator_weight", [&](const ConfigValue& v) {
        amg.prolongator_weight = v.as_double();
        require(v, amg.prolongator_weight >= 0.0 && amg.prolongator_weight <= 2.0,
                "from 0 (unsmoothed) to 2");
      });
      map.if_present("smoother",
                     [&](const ConfigValue& v) { amg.smoother = v.as_enum(amg_smoother_names()); });
      map.if_present("sweeps", [&](const ConfigValue& v) {
        amg.sweeps = v.as_int();
        require(v, amg.sweeps >= 1 && amg.sweeps <= 10, "an integer from 1 to 10");
      });
      map.if_present("jacobi_weight", [&](const ConfigValue& v) {
        amg.jacobi_weight = v.as_double();
        require(v, amg.jacobi_weight > 0.0 && amg.jacobi_weight < 2.0, "> 0 and < 2");
      });
      map.if_present("precision", [&](const ConfigValue& v) {
        amg.precision = v.as_enum(amg_precision_names());
      });
      map.if_present("level_formats", [&](const ConfigValue& v) {
        amg.level_formats.clear();
        for (const ConfigValue& entry : v.as_list())
          amg.level_formats.push_back(entry.as_enum(format_names()));
      });
      map.if_present("near_nullspace",
                     [&](const ConfigValue& v) { read_near_nullspace(v, amg, near_nullspace); });
      // The smoother's Chebyshev polynomial (and every level's eigenvalue bound).
      read_chebyshev(map, amg.chebyshev, "smoother_degree");
      return;
    }
  }
}

SolverOptions read_solver(const ConfigValue& value, SolverOptions options,
                          const NearNullspaceContext& near_nullspace) {
  const ConfigMap map(value, solver_key_names());
  map.if_present("method",
                 [&](const ConfigValue& v) { options.method = v.as_enum(method_names()); });
  map.if_present("tolerance", [&](const ConfigValue& v) {
    options.tolerance = v.as_double();
    require(v, options.tolerance > 0.0, "> 0");
  });
  map.if_present("tolerance_mode", [&](const ConfigValue& v) {
    options.tolerance_mode = v.as_enum(tolerance_mode_names());
  });
  map.if_present("max_iterations", [&](const ConfigValue& v) {
    options.max_iterations = v.as_int();
    require(v, options.max_iterations >= 1, "an integer >= 1");
  });
  map.if_present("preconditioner", [&](const ConfigValue& v) {
    options.preconditioner = v.as_enum(preconditioner_names());
  });
  map.if_present("preconditioner_options", [&](const ConfigValue& v) {
    read_preconditioner_options(v, options.preconditioner, options.preconditioner_options,
                                near_nullspace);
  });
  map.if_present("divergence_factor", [&](const ConfigValue& v) {
    options.divergence_factor = v.as_double();
    require(v, options.divergence_factor == 0.0 || options.divergence_factor > 1.0,
            "0 (off) or > 1");
  });
  map.if_present("time_limit_s", [&](const ConfigValue& v) {
    options.time_limit_s = v.as_double();
    require(v, options.time_limit_s >= 0.0, ">= 0 (0 = no limit)");
  });
  map.if_present("check_every", [&](const ConfigValue& v) {
    options.check_every = v.as_int();
    require(v, options.check_every >= 1, "an integer >= 1");
  });
  map.if_present("cuda_graph", [&](const ConfigValue& v) { options.cuda_graph = v.as_bool(); });
  map.if_present("keep_history", [&](const ConfigValue& v) { options.keep_history = v.as_bool(); });
  map.if_present("vector_ops",
                 [&](const ConfigValue& v) { options.vector_ops = v.as_enum(vector_ops_names()); });
  map.if_present("breakdown_restarts", [&](const ConfigValue& v) {
    options.breakdown_restarts = v.as_int();
    require(v, options.breakdown_restarts >= 0, "an integer >= 0");
  });
  map.if_present("restart", [&](const ConfigValue& v) {
    options.restart = v.as_int();
    require(v, options.restart >= 1, "an integer >= 1 (GMRES steps per cycle)");
  });
  map.if_present("orthogonalization", [&](const ConfigValue& v) {
    options.orthogonalization = v.as_enum(orthogonalization_names());
  });
  return options;
}

// `options` holds the values keys not given keep (the defaults, or `spmv:` for compare);
// `keys`, the map's valid keys (compare's add its own).
SpmvOptions read_spmv(const ConfigValue& value, SpmvOptions options,
                      const std::vector<std::string>& keys = spmv_key_names()) {
  const ConfigMap map(value, keys);
  map.if_present("format",
                 [&](const ConfigValue& v) { options.format = v.as_enum(format_names()); });
  map.if_present("x_cache", [&](const ConfigValue& v) {
    // as_enum quotes a bad value capped, like every other key (parse_x_cache would not).
    options.x_cache = v.as_enum(
        std::vector<std::pair<std::string, XCache>>{{to_string(XCache::none), XCache::none},
                                                    {to_string(XCache::ldg), XCache::ldg},
                                                    {to_string(XCache::texture), XCache::texture},
                                                    {to_string(XCache::shared), XCache::shared}});
  });
  map.if_present("threads_per_row", [&](const ConfigValue& v) {
    options.threads_per_row = read_int_choice(v, threads_per_row_choices());
  });
  map.if_present("block_size", [&](const ConfigValue& v) {
    options.block_size = v.as_int();
    require(v,
            options.block_size >= 32 && options.block_size <= 1024 && options.block_size % 32 == 0,
            "a multiple of 32 from 32 to 1024");
  });
  map.if_present("hyb_width", [&](const ConfigValue& v) {
    options.hyb_width = v.as_int();
    require(v, options.hyb_width >= -1, "-1 (histogram rule) or an integer >= 0");
  });
  map.if_present("max_ell_fill", [&](const ConfigValue& v) {
    options.max_ell_fill = v.as_double();
    require(v, options.max_ell_fill >= 1.0, ">= 1");
  });
  map.if_present("sell_sigma", [&](const ConfigValue& v) {
    options.sell_sigma = v.as_int();
    require(v, options.sell_sigma >= 32 && options.sell_sigma % 32 == 0,
            "a multiple of 32 (the chunk height), at least 32");
  });
  map.if_present("cusparse_algorithm", [&](const ConfigValue& v) {
    options.cusparse_algorithm = v.as_choice(cusparse_algorithm_names());
  });
  map.if_present("grid", [&](const ConfigValue& v) {
    options.grid = v.as_choice(std::vector<std::string>{"exact", "capped"}) == "exact"
                       ? GridShape::exact
                       : GridShape::capped;
  });
  map.if_present("tune_budget_ms", [&](const ConfigValue& v) {
    options.tune_budget_ms = v.as_double();
    require(v, options.tune_budget_ms >= 0.0, ">= 0 (0: time only the first candidate)");
  });
  map.if_present("tune_cache",
                 [&](const ConfigValue& v) { options.tune_cache = v.as_optional_string(); });
  // x_cache: shared only where the format has a shared-memory path; an x_cache inherited from
  // spmv: (a compare entry) is reported at the entry's format.
  const std::string refusal = x_cache_refusal(options.format, options.x_cache);
  if (!refusal.empty()) {
    if (map.has("x_cache")) map.at("x_cache").fail(refusal);
    (map.has("format") ? map.at("format") : value).fail("x_cache " + refusal);
  }
  return options;
}

OutputSpec read_output(const ConfigValue& value) {
  const ConfigMap map(value, {"solution", "history", "report", "plot", "plot_residual"});
  OutputSpec output;
  map.if_present("solution",
                 [&](const ConfigValue& v) { output.solution = checked_output_file(v); });
  map.if_present("history", [&](const ConfigValue& v) { output.history = checked_output_file(v); });
  map.if_present("report", [&](const ConfigValue& v) { output.report = checked_output_file(v); });
  map.if_present("plot", [&](const ConfigValue& v) { output.plot = checked_output_file(v); });
  map.if_present("plot_residual", [&](const ConfigValue& v) {
    output.plot_residual = v.as_choice(std::vector<std::string>{"relative", "absolute"});
  });
  return output;
}

DistributedSpec read_distributed(const ConfigValue& value) {
  const ConfigMap map(value,
                      {"partition", "transport", "overlap", "watch_faults", "nccl_channels"});
  DistributedSpec distributed;
  map.if_present("partition", [&](const ConfigValue& v) {
    distributed.partition = v.as_enum(row_balance_names());
  });
  map.if_present("transport", [&](const ConfigValue& v) {
    distributed.transport = v.as_enum(transport_names());
  });
  map.if_present("overlap", [&](const ConfigValue& v) { distributed.overlap = v.as_bool(); });
  map.if_present("watch_faults",
                 [&](const ConfigValue& v) { distributed.watch_faults = v.as_bool(); });
  map.if_present("nccl_channels", [&](const ConfigValue& v) {
    distributed.nccl_channels = v.as_int();
    require(v, distributed.nccl_channels >= 0 && distributed.nccl_channels <= 64,
            "an integer from 0 (NCCL's own choice) to 64");
  });
  return distributed;
}

// Each entry: `spmv:` keys, plus vector_ops and precision (double | mixed), defaulting to
// the config's.
std::vector<CompareEntry> read_compare(const ConfigValue& value, const RunConfig& config) {
  std::vector<CompareEntry> entries;
  if (value.node().IsNull()) return entries;  // `compare:` with nothing: no comparison
  std::vector<std::string> keys = spmv_key_names();
  keys.insert(keys.end(), {"vector_ops", "precision"});
  for (const ConfigValue& element : value.as_list()) {
    CompareEntry entry{read_spmv(element, config.spmv, keys), config.solver.vector_ops,
                       config.precision};
    const ConfigMap map(element, keys);
    map.if_present("vector_ops",
                   [&](const ConfigValue& v) { entry.vector_ops = v.as_enum(vector_ops_names()); });
    map.if_present("precision", [&](const ConfigValue& v) {
      entry.precision = v.as_enum(std::vector<std::pair<std::string, Precision>>{
          {"double", Precision::double_precision}, {"mixed", Precision::mixed_precision}});
      require(v, config.precision != Precision::single_precision,
              "left out under precision: single (compare runs double against mixed)");
    });
    entries.push_back(entry);
  }
  return entries;
}

RunConfig read_run_config(const ConfigValue& root, const std::string& source_name) {
  const ConfigMap top(root, {"matrix", "rhs", "solver", "spmv", "precision", "device", "output",
                             "compare", "distributed", "steps", "step_values"});
  if (!top.has("matrix"))
    throw BadInput(shown_name(source_name) +
                   ": matrix: required key missing (give matrix: {file: PATH} or "
                   "matrix: {generate: {kind: poisson3d, n: 64}})");
  const std::string config_directory = config_directory_of(source_name);
  RunConfig config = default_run_config();
  config.source = source_name;
  config.matrix = read_matrix(top.at("matrix"), config_directory);
  top.if_present("rhs", [&](const ConfigValue& v) {
    config.rhs = read_rhs(v, config_directory);
    const GeneratorSpec* generator = config.matrix.generate ? &*config.matrix.generate : nullptr;
    if (config.rhs.kind == RhsSpec::Kind::load &&
        !(generator && generator_has_load(generator->kind)))
      v.fail("load is the generator's own load vector, and " +
             (generator ? "generator " + generator->kind + " has none"
                        : std::string("a matrix file has none")) +
             " (beam3d has one)");
  });
  const NearNullspaceContext near_nullspace{config_directory, config.matrix,
                                            config.near_nullspace_file};
  top.if_present("solver", [&](const ConfigValue& v) {
    config.solver = read_solver(v, config.solver, near_nullspace);
  });
  top.if_present("spmv", [&](const ConfigValue& v) { config.spmv = read_spmv(v, config.spmv); });
  top.if_present("precision",
                 [&](const ConfigValue& v) { config.precision = v.as_enum(precision_names()); });
  top.if_present("device",
                 [&](const ConfigValue& v) { config.device = v.as_enum(device_names()); });
  top.if_present("output", [&](const ConfigValue& v) { config.output = read_output(v); });
  top.if_present("compare",
                 [&](const ConfigValue& v) { config.compare = read_compare(v, config); });
  top.if_present("distributed",
                 [&](const ConfigValue& v) { config.distributed = read_distributed(v); });
  top.if_present("steps", [&](const ConfigValue& v) {
    config.steps = v.as_int();
    require(v, config.steps >= 1 && config.steps <= 100000, "an integer in [1, 100000]");
    if (config.steps > 1 && !config.compare.empty())
      v.fail("a time loop runs one configuration; give steps or compare, not both");
  });
  top.if_present("step_values", [&](const ConfigValue& v) {
    config.step_values_on_device =
        v.as_enum(std::vector<std::pair<std::string, bool>>{{"host", false}, {"device", true}});
    if (config.step_values_on_device && config.device == Device::cpu)
      v.fail("device values need device: gpu (the CPU path takes host values)");
  });
  return config;
}

// A Matrix Market file given where the config goes starts with its banner (after an optional
// UTF-8 byte order mark and blank space); YAML would read the whole file as one scalar.
bool is_matrix_market_text(const std::string& text) {
  std::size_t start = text.rfind("\xef\xbb\xbf", 0) == 0 ? 3 : 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  static constexpr std::string_view banner = "%%matrixmarket";
  if (text.size() - start < banner.size()) return false;
  for (std::size_t i = 0; i < banner.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[start + i])) != banner[i]) return false;
  return true;
}

std::string with_line(const std::string& source_name, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return shown_name(source_name);
  return shown_name(source_name) + ":" + std::to_string(mark.line + 1);
}

// `root` (a map) with `overrides` applied, read into a RunConfig.
RunConfig read_with_overrides(YAML::Node root, const std::string& source_name,
                              const std::vector<ConfigOverride>& overrides) {
  ConfigOrigins origins(source_name);
  const ConfigValue root_value(origins, root, "");
  try {
    apply_overrides(root, overrides, origins);
    return read_run_config(root_value, source_name);
  } catch (const YAML::Exception& error) {
    // yaml-cpp should not throw here (values are read as text); keep the one-line promise.
    throw BadInput(printable_text(with_line(source_name, error.mark) + ": " +
                                  input_excerpt(error.msg, shown_name_limit)));
  }
}

}  // namespace

RunConfig default_run_config() {
  RunConfig config;
  config.source = "<built-in default>";
  GeneratorSpec poisson;
  poisson.kind = "poisson3d";
  poisson.n = 64;  // 262,144 rows, 1.8M nonzeros: a real GPU solve, seconds on two CPU cores
  poisson.stencil = 7;
  config.matrix.generate = poisson;
  config.rhs.kind = RhsSpec::Kind::ones;
  config.solver.method = Method::cg;
  config.solver.tolerance = 1e-8;
  config.solver.tolerance_mode = ToleranceMode::rhs;
  config.solver.preconditioner = Preconditioner::none;
  config.spmv.format = Format::csr;
  config.precision = Precision::double_precision;
  config.device = Device::automatic;
  return config;
}

RunConfig parse_run_config(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& overrides) {
  if (is_matrix_market_text(yaml_text))
    throw BadInput(shown_name(source_name) +
                   ": this is a Matrix Market file, not a YAML config; to solve it: spkrylov solve "
                   "--set matrix.file=" +
                   shown_name(source_name));
  const std::vector<YAML::Node> documents =
      load_yaml_documents(yaml_text, source_name, YamlSource::config_file);
  // Empty documents (a lone "---" or a file of comments) do not count.
  std::vector<YAML::Node> contents;
  for (const YAML::Node& document : documents)
    if (!document.IsNull()) contents.push_back(document);
  if (contents.empty()) throw BadInput(shown_name(source_name) + ": config is empty");
  if (contents.size() > 1)
    throw BadInput(shown_name(source_name) + ": config holds " + std::to_string(contents.size()) +
                   " YAML documents (separated by ---); expected one");
  YAML::Node root = contents[0];
  const ConfigOrigins origins(source_name);
  const ConfigValue root_value(origins, root, "");
  if (!root.IsMap())
    root_value.fail("config must be a map of keys (matrix, rhs, solver, ...), got " +
                    root_value.describe());
  return read_with_overrides(root, source_name, parse_overrides(overrides));
}

RunConfig default_run_config_with(const std::vector<ConfigOverride>& overrides) {
  // The built-in default's one required key; read_run_config fills in every other default.
  YAML::Node root(YAML::NodeType::Map);
  root["matrix"]["generate"] = YAML::Node(YAML::NodeType::Map);
  return read_with_overrides(root, default_run_config().source, overrides);
}

RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  require_input_file(path, "config file");
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw BadInput("cannot open config file " + quoted_name(path) + " (" + std::strerror(errno) +
                   ")");
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) throw BadInput(shown_name(path) + ": cannot read config file");
  return parse_run_config(contents.str(), path, overrides);
}

}  // namespace spk
