// The YAML config: schema, defaults, every error class (message names file:line and key),
// --set overrides, relative input paths, the shipped configs and the to_yaml round trip.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "frontend/config/config_loader.hpp"
#include "frontend/config/config_names.hpp"
#include "spkrylov/errors.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

namespace fs = std::filesystem;

// Field-by-field equality of two configs, except `source` (where each came from).
void expect_same_generator(const GeneratorSpec& a, const GeneratorSpec& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.stencil, b.stencil);
  EXPECT_EQ(a.peclet, b.peclet);
  EXPECT_EQ(a.convection, b.convection);
  EXPECT_EQ(a.avg_row_length, b.avg_row_length);
  EXPECT_EQ(a.exponent, b.exponent);
  EXPECT_EQ(a.scale, b.scale);
  EXPECT_EQ(a.edge_factor, b.edge_factor);
  EXPECT_EQ(a.dense_rows, b.dense_rows);
  EXPECT_EQ(a.dense_fraction, b.dense_fraction);
  EXPECT_EQ(a.poisson_ratio, b.poisson_ratio);
  EXPECT_EQ(a.seed, b.seed);
}

void expect_same_spmv(const SpmvOptions& a, const SpmvOptions& b) {
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.x_cache, b.x_cache);
  EXPECT_EQ(a.threads_per_row, b.threads_per_row);
  EXPECT_EQ(a.block_size, b.block_size);
  EXPECT_EQ(a.hyb_width, b.hyb_width);
  EXPECT_EQ(a.max_ell_fill, b.max_ell_fill);
  EXPECT_EQ(a.sell_sigma, b.sell_sigma);
  EXPECT_EQ(a.matrix_values, b.matrix_values);
  EXPECT_EQ(a.cusparse_algorithm, b.cusparse_algorithm);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.tune_budget_ms, b.tune_budget_ms);
  EXPECT_EQ(a.tune_cache, b.tune_cache);
}

void expect_same_chebyshev(const ChebyshevOptions& a, const ChebyshevOptions& b) {
  EXPECT_EQ(a.degree, b.degree);
  EXPECT_EQ(a.eigen_estimate, b.eigen_estimate);
  EXPECT_EQ(a.estimate_iterations, b.estimate_iterations);
  EXPECT_EQ(a.upper_factor, b.upper_factor);
  EXPECT_EQ(a.lower_ratio, b.lower_ratio);
}

void expect_same_preconditioner_options(const PreconditionerOptions& a,
                                        const PreconditionerOptions& b) {
  expect_same_chebyshev(a.chebyshev, b.chebyshev);
  EXPECT_EQ(a.factorization.sweeps, b.factorization.sweeps);
  EXPECT_EQ(a.factorization.shift, b.factorization.shift);
  EXPECT_EQ(a.factorization.shift_value, b.factorization.shift_value);
  EXPECT_EQ(a.amg.strength_threshold, b.amg.strength_threshold);
  EXPECT_EQ(a.amg.max_levels, b.amg.max_levels);
  EXPECT_EQ(a.amg.max_coarse_rows, b.amg.max_coarse_rows);
  EXPECT_EQ(a.amg.prolongator_weight, b.amg.prolongator_weight);
  EXPECT_EQ(a.amg.smoother, b.amg.smoother);
  EXPECT_EQ(a.amg.sweeps, b.amg.sweeps);
  EXPECT_EQ(a.amg.jacobi_weight, b.amg.jacobi_weight);
  expect_same_chebyshev(a.amg.chebyshev, b.amg.chebyshev);
  EXPECT_EQ(a.amg.level_formats, b.amg.level_formats);
  EXPECT_EQ(a.amg.near_nullspace, b.amg.near_nullspace);
}

void expect_same_config(const RunConfig& a, const RunConfig& b) {
  EXPECT_EQ(a.matrix.file, b.matrix.file);
  ASSERT_EQ(a.matrix.generate.has_value(), b.matrix.generate.has_value());
  if (a.matrix.generate) expect_same_generator(*a.matrix.generate, *b.matrix.generate);
  EXPECT_EQ(a.matrix.block_size, b.matrix.block_size);
  EXPECT_EQ(a.matrix.coordinates, b.matrix.coordinates);
  EXPECT_EQ(a.near_nullspace_file, b.near_nullspace_file);
  EXPECT_EQ(a.rhs.kind, b.rhs.kind);
  EXPECT_EQ(a.rhs.file, b.rhs.file);
  EXPECT_EQ(a.rhs.solution, b.rhs.solution);
  EXPECT_EQ(a.rhs.seed, b.rhs.seed);
  EXPECT_EQ(a.solver.method, b.solver.method);
  EXPECT_EQ(a.solver.tolerance, b.solver.tolerance);
  EXPECT_EQ(a.solver.tolerance_mode, b.solver.tolerance_mode);
  EXPECT_EQ(a.solver.max_iterations, b.solver.max_iterations);
  EXPECT_EQ(a.solver.preconditioner, b.solver.preconditioner);
  expect_same_preconditioner_options(a.solver.preconditioner_options,
                                     b.solver.preconditioner_options);
  EXPECT_EQ(a.solver.divergence_factor, b.solver.divergence_factor);
  EXPECT_EQ(a.solver.time_limit_s, b.solver.time_limit_s);
  EXPECT_EQ(a.solver.check_every, b.solver.check_every);
  EXPECT_EQ(a.solver.cuda_graph, b.solver.cuda_graph);
  EXPECT_EQ(a.solver.keep_history, b.solver.keep_history);
  EXPECT_EQ(a.solver.breakdown_restarts, b.solver.breakdown_restarts);
  expect_same_spmv(a.spmv, b.spmv);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.output.solution, b.output.solution);
  EXPECT_EQ(a.output.history, b.output.history);
  EXPECT_EQ(a.output.report, b.output.report);
  EXPECT_EQ(a.output.plot, b.output.plot);
  EXPECT_EQ(a.output.plot_residual, b.output.plot_residual);
  ASSERT_EQ(a.compare.size(), b.compare.size());
  for (std::size_t i = 0; i < a.compare.size(); ++i) {
    SCOPED_TRACE("compare[" + std::to_string(i) + "]");
    expect_same_spmv(a.compare[i].spmv, b.compare[i].spmv);
    EXPECT_EQ(a.compare[i].vector_ops, b.compare[i].vector_ops);
    EXPECT_EQ(a.compare[i].precision, b.compare[i].precision);
  }
  EXPECT_EQ(a.distributed.partition, b.distributed.partition);
}

const char* const kGenerated = "matrix: {generate: {kind: poisson3d, n: 8}}\n";

RunConfig parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return parse_run_config(text, "run.yaml", overrides);
}

// The message of the BadInput that `action` throws ("" and a test failure if none).
std::string bad_input_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const BadInput& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected spk::BadInput, got another exception: " << error.what();
    return "";
  }
  ADD_FAILURE() << "expected spk::BadInput, nothing was thrown";
  return "";
}

std::string parse_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return bad_input_message([&] { parse(text, overrides); });
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

#define EXPECT_STARTS_WITH(text, prefix) \
  EXPECT_TRUE(starts_with(text, prefix)) \
      << "message: " << (text) << "\nexpected prefix: " << (prefix)
#define EXPECT_CONTAINS(text, part)               \
  EXPECT_NE((text).find(part), std::string::npos) \
      << "message: " << (text) << "\nexpected: " << (part)

// A fresh directory, removed with everything in it at scope exit.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("spk_test_config_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& relative, const std::string& text) const {
    const fs::path file = path_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }

 private:
  fs::path path_;
};

// Changes the current directory for one scope.
class CurrentDirectory {
 public:
  explicit CurrentDirectory(const fs::path& directory) : previous_(fs::current_path()) {
    fs::current_path(directory);
  }
  ~CurrentDirectory() { fs::current_path(previous_); }

 private:
  fs::path previous_;
};

std::string config_path(const std::string& name) {
  return test::source_dir() + "/configs/" + name;
}

// ---------------------------------------------------------------------------------------
// Defaults and the shipped configs

TEST(ConfigDefaults, BuiltInProblemIsPoisson3dCg) {
  const RunConfig config = default_run_config();
  EXPECT_EQ(config.source, "<built-in default>");
  EXPECT_TRUE(config.matrix.file.empty());
  ASSERT_TRUE(config.matrix.generate.has_value());
  EXPECT_EQ(config.matrix.generate->kind, "poisson3d");
  EXPECT_EQ(config.matrix.generate->n, 64);
  EXPECT_EQ(config.matrix.generate->stencil, 7);
  EXPECT_EQ(config.rhs.kind, RhsSpec::Kind::ones);
  EXPECT_EQ(config.solver.method, Method::cg);
  EXPECT_EQ(config.solver.tolerance, 1e-8);
  EXPECT_EQ(config.solver.tolerance_mode, ToleranceMode::rhs);
  EXPECT_EQ(config.solver.max_iterations, 10000);
  EXPECT_EQ(config.solver.preconditioner, Preconditioner::none);
  EXPECT_EQ(config.spmv.format, Format::csr);
  EXPECT_EQ(config.precision, Precision::double_precision);
  EXPECT_EQ(config.device, Device::automatic);
  EXPECT_TRUE(config.output.solution.empty() && config.output.history.empty() &&
              config.output.report.empty() && config.output.plot.empty());
  EXPECT_TRUE(config.compare.empty());
  EXPECT_EQ(config.distributed.partition, RowBalance::nonzeros);
}

TEST(ConfigDistributed, PartitionIsNnzOrRows) {
  EXPECT_EQ(
      parse(std::string(kGenerated) + "distributed: {partition: rows}\n").distributed.partition,
      RowBalance::rows);
  EXPECT_EQ(
      parse(std::string(kGenerated) + "distributed: {partition: nnz}\n").distributed.partition,
      RowBalance::nonzeros);
  EXPECT_EQ(parse(kGenerated, {"distributed.partition=rows"}).distributed.partition,
            RowBalance::rows);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {partition: metis}\n"),
            "run.yaml:2: distributed.partition: unknown value 'metis' (valid: nnz, rows)");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {ranks: 4}\n"),
            "run.yaml:2: distributed.ranks: unknown key (valid keys: partition, transport, "
            "overlap, watch_faults, nccl_channels)");
}

TEST(ConfigSolver, VectorOps) {
  EXPECT_EQ(parse(kGenerated).solver.vector_ops, VectorOps::cublas);
  EXPECT_EQ(parse(kGenerated, {"solver.vector_ops=fused"}).solver.vector_ops, VectorOps::fused);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver: {vector_ops: magic}\n"),
            "run.yaml:2: solver.vector_ops: unknown value 'magic' (valid: cublas, fused)");
}

TEST(ConfigDistributed, TransportAndOverlap) {
  const RunConfig defaults = parse(kGenerated);
  EXPECT_EQ(defaults.distributed.transport, Transport::automatic);
  EXPECT_TRUE(defaults.distributed.overlap);
  const RunConfig chosen =
      parse(std::string(kGenerated) + "distributed: {transport: nccl, overlap: false}\n");
  EXPECT_EQ(chosen.distributed.transport, Transport::nccl);
  EXPECT_FALSE(chosen.distributed.overlap);
  EXPECT_EQ(parse(kGenerated, {"distributed.transport=mpi"}).distributed.transport, Transport::mpi);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {transport: ucx}\n"),
            "run.yaml:2: distributed.transport: unknown value 'ucx' (valid: auto, nccl, mpi)");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {overlap: 3}\n")
                .find("run.yaml:2: distributed.overlap:"),
            0u);
}

TEST(ConfigDistributed, WatchFaults) {
  EXPECT_EQ(parse(kGenerated).distributed.nccl_channels, 8);
  EXPECT_EQ(parse(kGenerated, {"distributed.nccl_channels=0"}).distributed.nccl_channels, 0);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {nccl_channels: 65}\n"),
            "run.yaml:2: distributed.nccl_channels: must be an integer from 0 (NCCL's own choice) "
            "to 64, got '65'");
  EXPECT_TRUE(parse(kGenerated).distributed.watch_faults);
  EXPECT_FALSE(parse(kGenerated, {"distributed.watch_faults=false"}).distributed.watch_faults);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "distributed: {watch_faults: maybe}\n")
                .find("run.yaml:2: distributed.watch_faults:"),
            0u);
}

TEST(ConfigSteps, ATimeLoopOfOneConfiguration) {
  EXPECT_EQ(parse(kGenerated).steps, 1);
  EXPECT_EQ(parse(std::string(kGenerated) + "steps: 10\n").steps, 10);
  EXPECT_EQ(parse(kGenerated, {"steps=4"}).steps, 4);
  const RunConfig written = parse(to_yaml(parse(kGenerated, {"steps=7"})));
  EXPECT_EQ(written.steps, 7);  // the resolved config keeps it
  EXPECT_EQ(parse_error(std::string(kGenerated) + "steps: 0\n").find("run.yaml:2: steps:"), 0u);
  EXPECT_NE(parse_error(std::string(kGenerated) + "steps: 0\n").find("[1, 100000]"),
            std::string::npos);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "steps: two\n").find("run.yaml:2: steps:"), 0u);
  EXPECT_NE(parse_error(std::string(kGenerated) + "compare: [{format: csr}]\nsteps: 3\n")
                .find("give steps or compare, not both"),
            std::string::npos);
}

TEST(ConfigSteps, StepValuesOnTheHostOrTheDevice) {
  EXPECT_FALSE(parse(kGenerated).step_values_on_device);
  EXPECT_TRUE(parse(kGenerated, {"steps=3", "step_values=device"}).step_values_on_device);
  EXPECT_FALSE(parse(kGenerated, {"step_values=host"}).step_values_on_device);
  EXPECT_TRUE(parse(to_yaml(parse(kGenerated, {"step_values=device"}))).step_values_on_device);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "step_values: gpu\n")
                .find("run.yaml:2: step_values: unknown value 'gpu' (valid: host, device)"),
            0u);
  EXPECT_NE(parse_error(std::string(kGenerated) + "device: cpu\nstep_values: device\n")
                .find("device values need device: gpu"),
            std::string::npos);
}

TEST(ConfigDefaults, KeysNotGivenKeepTheirDefaults) {
  const RunConfig config = parse("matrix: {generate: {}}\n");
  EXPECT_EQ(config.source, "run.yaml");
  expect_same_config(config, default_run_config());
}

TEST(ConfigDefaults, QuickstartIsTheBuiltInDefault) {
  const RunConfig quickstart = load_run_config(config_path("quickstart.yaml"));
  EXPECT_EQ(quickstart.source, config_path("quickstart.yaml"));
  expect_same_config(quickstart, default_run_config());
}

TEST(ShippedConfigs, ParseWithTheirDataFilesFromAnyDirectory) {
  TemporaryDirectory elsewhere;
  const CurrentDirectory cwd(elsewhere.path());  // ../data is found next to configs/

  const RunConfig bcsstk13 = load_run_config(config_path("bcsstk13-cg-jacobi.yaml"));
  EXPECT_TRUE(fs::is_regular_file(bcsstk13.matrix.file)) << bcsstk13.matrix.file;
  EXPECT_EQ(fs::path(bcsstk13.matrix.file).filename(), "bcsstk13.mtx");
  EXPECT_EQ(bcsstk13.solver.method, Method::cg);
  EXPECT_EQ(bcsstk13.solver.preconditioner, Preconditioner::jacobi);
  EXPECT_EQ(bcsstk13.rhs.kind, RhsSpec::Kind::from_solution);

  const RunConfig west = load_run_config(config_path("west0479-bicgstab.yaml"));
  EXPECT_TRUE(fs::is_regular_file(west.matrix.file)) << west.matrix.file;
  EXPECT_EQ(west.solver.method, Method::bicgstab);

  const RunConfig compare = load_run_config(config_path("compare-formats.yaml"));
  ASSERT_TRUE(compare.matrix.generate.has_value());
  EXPECT_EQ(compare.matrix.generate->kind, "poisson3d");
  ASSERT_EQ(compare.compare.size(), 8u);
  EXPECT_EQ(compare.compare[0].spmv.format, Format::csr_scalar);
  EXPECT_EQ(compare.compare[1].spmv.threads_per_row, 8);
  EXPECT_EQ(compare.compare[5].spmv.format, Format::ellpack_r);
  EXPECT_EQ(compare.compare[5].spmv.x_cache, XCache::texture);
  EXPECT_EQ(compare.compare[4].spmv.x_cache, XCache::ldg);  // inherited from spmv:
  for (const CompareEntry& entry : compare.compare) EXPECT_EQ(entry.spmv.block_size, 256);

  const RunConfig convdiff = load_run_config(config_path("convdiff-bicgstab.yaml"));
  ASSERT_TRUE(convdiff.matrix.generate.has_value());
  EXPECT_EQ(convdiff.matrix.generate->kind, "convdiff3d");
  EXPECT_EQ(convdiff.solver.method, Method::bicgstab);

  const RunConfig beam = load_run_config(config_path("beam3d-amg-rigid-body.yaml"));
  ASSERT_TRUE(beam.matrix.generate.has_value());
  EXPECT_EQ(beam.matrix.generate->kind, "beam3d");
  EXPECT_EQ(beam.solver.preconditioner, Preconditioner::amg);
  EXPECT_EQ(beam.solver.preconditioner_options.amg.near_nullspace, NearNullspace::rigid_body);
}

TEST(ShippedConfigs, DataPathsWorkFromTheRepositoryRoot) {
  const CurrentDirectory cwd(test::source_dir());
  const RunConfig config = load_run_config("configs/bcsstk13-cg-jacobi.yaml");
  EXPECT_EQ(config.matrix.file, "data/bcsstk13.mtx");
}

// ---------------------------------------------------------------------------------------
// Every key, every enum value

TEST(ConfigSchema, EveryKeyIsRead) {
  const RunConfig config = parse(R"(
matrix:
  generate: {kind: powerlaw, n: 500, stencil: 27, peclet: 2.5, convection: central,
             avg_row_length: 12.5, exponent: 1.75, seed: 99}
rhs: {kind: random, seed: 7}
solver:
  method: bicgstab
  tolerance: 1e-10
  tolerance_mode: absolute
  max_iterations: 321
  preconditioner: jacobi
  divergence_factor: 1e12
  time_limit_s: 2.5
  check_every: 4
  cuda_graph: true
  keep_history: false
spmv:
  format: ellpack-r
  x_cache: texture
  threads_per_row: 16
  block_size: 512
  hyb_width: 12
  max_ell_fill: 1.5
  cusparse_algorithm: alg2
precision: single
device: cpu
output: {solution: x.mtx, history: h.csv, report: r.json, plot: p.svg, plot_residual: absolute}
compare: [{format: hyb, hyb_width: 3}, {}]
)");
  const GeneratorSpec& g = *config.matrix.generate;
  EXPECT_EQ(g.kind, "powerlaw");
  EXPECT_EQ(g.n, 500);
  EXPECT_EQ(g.stencil, 27);
  EXPECT_EQ(g.peclet, 2.5);
  EXPECT_EQ(g.convection, "central");
  EXPECT_EQ(g.avg_row_length, 12.5);
  EXPECT_EQ(g.exponent, 1.75);
  EXPECT_EQ(g.seed, 99u);
  EXPECT_EQ(config.rhs.kind, RhsSpec::Kind::random);
  EXPECT_EQ(config.rhs.seed, 7u);
  EXPECT_EQ(config.solver.method, Method::bicgstab);
  EXPECT_EQ(config.solver.tolerance, 1e-10);
  EXPECT_EQ(config.solver.tolerance_mode, ToleranceMode::absolute);
  EXPECT_EQ(config.solver.max_iterations, 321);
  EXPECT_EQ(config.solver.preconditioner, Preconditioner::jacobi);
  EXPECT_EQ(config.solver.divergence_factor, 1e12);
  EXPECT_EQ(config.solver.time_limit_s, 2.5);
  EXPECT_EQ(config.solver.check_every, 4);
  EXPECT_TRUE(config.solver.cuda_graph);
  EXPECT_FALSE(config.solver.keep_history);
  EXPECT_EQ(config.spmv.format, Format::ellpack_r);
  EXPECT_EQ(config.spmv.x_cache, XCache::texture);
  EXPECT_EQ(config.spmv.threads_per_row, 16);
  EXPECT_EQ(config.spmv.block_size, 512);
  EXPECT_EQ(config.spmv.hyb_width, 12);
  EXPECT_EQ(config.spmv.max_ell_fill, 1.5);
  EXPECT_EQ(config.spmv.cusparse_algorithm, "alg2");
  EXPECT_EQ(config.precision, Precision::single_precision);
  EXPECT_EQ(config.device, Device::cpu);
  EXPECT_EQ(config.output.solution, "x.mtx");
  EXPECT_EQ(config.output.history, "h.csv");
  EXPECT_EQ(config.output.report, "r.json");
  EXPECT_EQ(config.output.plot, "p.svg");
  EXPECT_EQ(config.output.plot_residual, "absolute");
  ASSERT_EQ(config.compare.size(), 2u);
  EXPECT_EQ(config.compare[0].spmv.format, Format::hyb);
  EXPECT_EQ(config.compare[0].spmv.hyb_width, 3);
  EXPECT_EQ(config.compare[0].spmv.x_cache, XCache::texture);  // from spmv:
  EXPECT_EQ(config.compare[0].spmv.block_size, 512);
  expect_same_spmv(config.compare[1].spmv, config.spmv);  // {} = spmv: unchanged
}

TEST(ConfigSchema, EveryEnumValueIsAccepted) {
  const std::string base = kGenerated;
  for (const char* method : {"cg", "bicgstab"})
    EXPECT_EQ(to_string(parse(base + "solver: {method: " + method + "}").solver.method),
              std::string(method));
  for (const char* mode : {"rhs", "initial", "absolute"})
    EXPECT_EQ(
        to_string(parse(base + "solver: {tolerance_mode: " + mode + "}").solver.tolerance_mode),
        std::string(mode));
  for (const char* name : {"none", "jacobi", "chebyshev", "ic0", "ilu0", "amg"})
    EXPECT_EQ(
        to_string(parse(base + "solver: {preconditioner: " + name + "}").solver.preconditioner),
        std::string(name));
  for (const Format format : all_formats())
    EXPECT_EQ(parse(base + "spmv: {format: " + to_string(format) + "}").spmv.format, format);
  for (const char* cache : {"none", "ldg", "texture", "shared"})
    EXPECT_EQ(to_string(parse(base + "spmv: {x_cache: " + cache + "}").spmv.x_cache),
              std::string(cache));
  for (const char* algorithm : {"alg1", "alg2", "default"})
    EXPECT_EQ(parse(base + "spmv: {cusparse_algorithm: " + algorithm + "}").spmv.cusparse_algorithm,
              algorithm);
  for (int threads : {0, 2, 4, 8, 16, 32})
    EXPECT_EQ(parse(base + "spmv: {threads_per_row: " + std::to_string(threads) + "}")
                  .spmv.threads_per_row,
              threads);
  for (int block : {32, 64, 96, 256, 1024})
    EXPECT_EQ(parse(base + "spmv: {block_size: " + std::to_string(block) + "}").spmv.block_size,
              block);
  EXPECT_EQ(parse(base + "spmv: {hyb_width: -1}").spmv.hyb_width, -1);
  EXPECT_EQ(parse(base + "spmv: {hyb_width: 0}").spmv.hyb_width, 0);
  EXPECT_EQ(parse(base + "precision: single").precision, Precision::single_precision);
  EXPECT_EQ(parse(base + "precision: double").precision, Precision::double_precision);
  EXPECT_EQ(parse(base + "device: auto").device, Device::automatic);
  EXPECT_EQ(parse(base + "device: gpu").device, Device::gpu);
  EXPECT_EQ(parse(base + "device: cpu").device, Device::cpu);
  for (const std::string& kind : generator_kinds())
    EXPECT_EQ(parse("matrix: {generate: {kind: " + kind + ", n: 16}}").matrix.generate->kind, kind);
  for (const std::string& scheme : convection_schemes())
    EXPECT_EQ(parse("matrix: {generate: {convection: " + scheme + "}}").matrix.generate->convection,
              scheme);
  for (const char* stencil : {"7", "27"})
    EXPECT_EQ(std::to_string(parse(std::string("matrix: {generate: {stencil: ") + stencil + "}}")
                                 .matrix.generate->stencil),
              stencil);
  for (const char* truth : {"true", "yes", "on", "True"})
    EXPECT_TRUE(parse(base + "solver: {cuda_graph: " + truth + "}").solver.cuda_graph) << truth;
  for (const char* falsity : {"false", "no", "off", "FALSE"})
    EXPECT_FALSE(parse(base + "solver: {keep_history: " + falsity + "}").solver.keep_history)
        << falsity;
}

TEST(ConfigSchema, RhsForms) {
  const std::string base = kGenerated;
  EXPECT_EQ(parse(base + "rhs: ones").rhs.kind, RhsSpec::Kind::ones);
  const RunConfig random = parse(base + "rhs: random");
  EXPECT_EQ(random.rhs.kind, RhsSpec::Kind::random);
  EXPECT_EQ(random.rhs.seed, 42u);
  const RunConfig seeded = parse(base + "rhs: {kind: random, seed: 3}");
  EXPECT_EQ(seeded.rhs.kind, RhsSpec::Kind::random);
  EXPECT_EQ(seeded.rhs.seed, 3u);
  const RunConfig manufactured = parse(base + "rhs: {from_solution: ones}");
  EXPECT_EQ(manufactured.rhs.kind, RhsSpec::Kind::from_solution);
  EXPECT_EQ(manufactured.rhs.solution, "ones");
  const RunConfig manufactured_default = parse(base + "rhs: {kind: from_solution, seed: 5}");
  EXPECT_EQ(manufactured_default.rhs.solution, "random");
  EXPECT_EQ(manufactured_default.rhs.seed, 5u);
  EXPECT_EQ(parse(base + "rhs: {kind: ones}").rhs.kind, RhsSpec::Kind::ones);

  TemporaryDirectory directory;
  const fs::path b = directory.write("b.mtx", "not read here\n");
  const RunConfig from_file = parse(base + "rhs: {file: '" + b.string() + "'}");
  EXPECT_EQ(from_file.rhs.kind, RhsSpec::Kind::file);
  EXPECT_EQ(from_file.rhs.file, b.generic_string());
  EXPECT_EQ(parse(base + "rhs: {kind: file, file: '" + b.string() + "'}").rhs.kind,
            RhsSpec::Kind::file);
}

TEST(ConfigSchema, NumbersInYamlSpellings) {
  const std::string base = kGenerated;
  EXPECT_EQ(parse(base + "solver: {tolerance: 1.0e-6}").solver.tolerance, 1e-6);
  EXPECT_EQ(parse(base + "solver: {tolerance: .5}").solver.tolerance, 0.5);
  EXPECT_EQ(parse(base + "solver: {tolerance: 2}").solver.tolerance, 2.0);
  EXPECT_EQ(parse(base + "solver: {max_iterations: +50}").solver.max_iterations, 50);
  EXPECT_EQ(parse(base + "solver: {max_iterations: \"75\"}").solver.max_iterations, 75);
  EXPECT_EQ(parse(base + "solver: {divergence_factor: 0}").solver.divergence_factor, 0.0);
  EXPECT_EQ(parse("matrix: {generate: {seed: 18446744073709551615}}").matrix.generate->seed,
            18446744073709551615ull);
}

// Outputs are checked when the config is read (a missing folder would lose the answer after
// the solve); empty and null mean "not written".
TEST(ConfigSchema, OutputPathsAreCheckedWhenTheConfigIsRead) {
  const RunConfig config =
      parse(std::string(kGenerated) + "output: {solution: x.mtx, history: '', plot: ~}\n");
  EXPECT_EQ(config.output.solution, "x.mtx");
  EXPECT_EQ(config.output.history, "");
  EXPECT_EQ(config.output.plot, "");
  EXPECT_STARTS_WITH(
      parse_error(std::string(kGenerated) + "output: {solution: no/such/dir/x.mtx}\n"),
      "run.yaml:2: output.solution: folder 'no/such/dir' does not exist (outputs are written "
      "after the solve: create it first)");
  EXPECT_STARTS_WITH(parse_error(std::string(kGenerated) + "output: {report: /}\n"),
                     "run.yaml:2: output.report: '/' is a folder");
}

TEST(ConfigSchema, EmptyCompareMeansNoComparison) {
  EXPECT_TRUE(parse(std::string(kGenerated) + "compare: []\n").compare.empty());
  EXPECT_TRUE(parse(std::string(kGenerated) + "compare:\n").compare.empty());
}

// ---------------------------------------------------------------------------------------
// Errors: one line, FILE:LINE: KEY: what

// The valid-key list gets what the 300-character line has left (the config fuzzer found an
// AMG key misspelled with a NUL byte that pushed the line to 297 once the AMG map had more keys).
TEST(ConfigErrors, AnUnknownKeysLineStaysShortWhateverTheMapsKeys) {
  const std::string long_key(120, 'q');
  for (const std::string& text :
       {std::string(kGenerated) + "solver:\n  preconditioner: amg\n  preconditioner_options:\n"
                                  "    estimate_iteration: 10\n",
        std::string(kGenerated) +
            "solver:\n  preconditioner: amg\n  preconditioner_options:\n"
            "    " +
            long_key + ": 1\n"}) {
    const std::string message = parse_error(text);
    EXPECT_LE(message.size() + std::string("error: ").size(), 300u) << message;
    EXPECT_NE(message.find("valid keys: strength_threshold"), std::string::npos) << message;
  }
}

TEST(ConfigErrors, UnknownKeysListTheValidOnes) {
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solverr: {method: cg}\n"),
            "run.yaml:2: solverr: unknown key, did you mean 'solver'? (valid keys: matrix, rhs, "
            "solver, spmv, precision, "
            "device, output, compare, distributed, steps, step_values)");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver:\n  method: cg\n  tol: 1e-6\n"),
            "run.yaml:4: solver.tol: unknown key (valid keys: method, tolerance, tolerance_mode, "
            "max_iterations, preconditioner, preconditioner_options, divergence_factor, "
            "time_limit_s, check_every, cuda_graph, keep_history, ...)");
  EXPECT_STARTS_WITH(parse_error("matrix:\n  generate:\n    kind: poisson3d\n    size: 8\n"),
                     "run.yaml:4: matrix.generate.size: unknown key (valid keys: kind, n, stencil");
  EXPECT_STARTS_WITH(
      parse_error("matrix: {fiel: a.mtx}\n"),
      "run.yaml:1: matrix.fiel: unknown key, did you mean 'file'? (valid keys: file, generate, "
      "block_size, coordinates)");
  EXPECT_STARTS_WITH(
      parse_error(std::string(kGenerated) + "compare:\n  - {format: hyb}\n  - {fromat: csr}\n"),
      "run.yaml:4: compare[1].fromat: unknown key, did you mean 'format'? (valid keys: format, "
      "x_cache, threads_per_row");
  EXPECT_STARTS_WITH(
      parse_error(std::string(kGenerated) + "output: {plots: a.svg}\n"),
      "run.yaml:2: output.plots: unknown key, did you mean 'plot'? (valid keys: solution, history, "
      "report, plot, plot_residual)");
  EXPECT_STARTS_WITH(parse_error(std::string(kGenerated) + "rhs: {kind: ones, sed: 1}\n"),
                     "run.yaml:2: rhs.sed: unknown key, did you mean 'seed'? (valid keys: kind, "
                     "file, from_solution, "
                     "seed)");
}

TEST(ConfigErrors, KeysMustBePlainNames) {
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver: {[1, 2]: 3}\n"),
            "run.yaml:2: solver: a key must be a plain name, got a list");
}

TEST(ConfigErrors, DuplicateKey) {
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver:\n  tolerance: 1\n  tolerance: 2\n"),
            "run.yaml:4: solver.tolerance: duplicate key (it is already given above)");
}

TEST(ConfigErrors, WrongTypes) {
  const std::string base = std::string(kGenerated) + "solver:\n";
  EXPECT_EQ(parse_error(base + "  tolerance: abc\n"),
            "run.yaml:3: solver.tolerance: expected a number, got 'abc'");
  EXPECT_EQ(parse_error(base + "  max_iterations: 1.5\n"),
            "run.yaml:3: solver.max_iterations: expected an integer, got '1.5'");
  EXPECT_EQ(parse_error(base + "  max_iterations: 1e4\n"),
            "run.yaml:3: solver.max_iterations: expected an integer, got '1e4'");
  EXPECT_EQ(parse_error(base + "  max_iterations: 99999999999\n"),
            "run.yaml:3: solver.max_iterations: integer '99999999999' is out of range (at most "
            "2147483647)");
  EXPECT_EQ(parse_error(base + "  cuda_graph: maybe\n"),
            "run.yaml:3: solver.cuda_graph: expected true or false, got 'maybe'");
  EXPECT_EQ(parse_error(base + "  tolerance: [1, 2]\n"),
            "run.yaml:3: solver.tolerance: expected a number, got a list");
  EXPECT_EQ(parse_error(base + "  tolerance:\n"),
            "run.yaml:3: solver.tolerance: expected a number, got nothing");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver: 5\n"),
            "run.yaml:2: solver: expected a map with keys method, tolerance, tolerance_mode, "
            "max_iterations, preconditioner, preconditioner_options, ..., got '5'");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "compare: {format: hyb}\n"),
            "run.yaml:2: compare: expected a list, got a map");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "compare: [csr]\n"),
            "run.yaml:2: compare[0]: expected a map with keys format, x_cache, threads_per_row, "
            "block_size, hyb_width, max_ell_fill, sell_sigma, ..., got 'csr'");
  EXPECT_EQ(parse_error("matrix: {generate: {seed: -1}}\n"),
            "run.yaml:1: matrix.generate.seed: expected a non-negative integer, got '-1'");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "output: {plot: [a, b]}\n"),
            "run.yaml:2: output.plot: expected a string, got a list");
}

TEST(ConfigErrors, BadValues) {
  const std::string base = std::string(kGenerated);
  const auto error = [&](const std::string& line) { return parse_error(base + line + "\n"); };
  EXPECT_EQ(error("solver: {tolerance: 0}"), "run.yaml:2: solver.tolerance: must be > 0, got '0'");
  EXPECT_EQ(error("solver: {tolerance: -1e-8}"),
            "run.yaml:2: solver.tolerance: must be > 0, got '-1e-8'");
  EXPECT_EQ(error("solver: {tolerance: .nan}"),
            "run.yaml:2: solver.tolerance: expected a finite number, got '.nan'");
  EXPECT_EQ(error("solver: {time_limit_s: .inf}"),
            "run.yaml:2: solver.time_limit_s: expected a finite number, got '.inf'");
  EXPECT_EQ(error("solver: {tolerance: nan}"),
            "run.yaml:2: solver.tolerance: expected a finite number, got 'nan'");
  EXPECT_EQ(error("solver: {tolerance: 1e999}"),
            "run.yaml:2: solver.tolerance: expected a finite number, got '1e999'");
  EXPECT_EQ(error("solver: {max_iterations: 0}"),
            "run.yaml:2: solver.max_iterations: must be an integer >= 1, got '0'");
  EXPECT_EQ(error("solver: {method: minres}"),
            "run.yaml:2: solver.method: unknown value 'minres' (valid: cg, bicgstab, gmres, "
            "fgmres, pipecg)");
  EXPECT_EQ(error("solver: {tolerance_mode: relative}"),
            "run.yaml:2: solver.tolerance_mode: unknown value 'relative' (valid: rhs, initial, "
            "absolute)");
  EXPECT_EQ(error("solver: {preconditioner: ilu}"),
            "run.yaml:2: solver.preconditioner: unknown value 'ilu' (valid: none, jacobi, "
            "chebyshev, ic0, ilu0, amg, block_jacobi)");
  EXPECT_EQ(error("solver: {divergence_factor: 0.5}"),
            "run.yaml:2: solver.divergence_factor: must be 0 (off) or > 1, got '0.5'");
  EXPECT_EQ(error("solver: {time_limit_s: -1}"),
            "run.yaml:2: solver.time_limit_s: must be >= 0 (0 = no limit), got '-1'");
  EXPECT_EQ(error("solver: {check_every: 0}"),
            "run.yaml:2: solver.check_every: must be an integer >= 1, got '0'");
  EXPECT_EQ(error("spmv: {format: coo}"),
            "run.yaml:2: spmv.format: unknown value 'coo' (valid: csr, csr-scalar, csr-vector, "
            "aligned-csr, ellpack, ellpack-r, hyb, csr-merge, sell, cusparse, auto)");
  EXPECT_EQ(error("spmv: {x_cache: surface}"),
            "run.yaml:2: spmv.x_cache: unknown value 'surface' (valid: none, ldg, texture, "
            "shared)");
  EXPECT_EQ(error("spmv: {threads_per_row: 3}"),
            "run.yaml:2: spmv.threads_per_row: must be one of 0, 2, 4, 8, 16, 32, got '3'");
  for (const char* block : {"48", "16", "0", "2048", "-32"})
    EXPECT_EQ(error(std::string("spmv: {block_size: ") + block + "}"),
              std::string("run.yaml:2: spmv.block_size: must be a multiple of 32 from 32 to 1024, "
                          "got '") +
                  block + "'");
  EXPECT_EQ(error("spmv: {hyb_width: -2}"),
            "run.yaml:2: spmv.hyb_width: must be -1 (histogram rule) or an integer >= 0, got '-2'");
  EXPECT_EQ(error("spmv: {max_ell_fill: 0.5}"),
            "run.yaml:2: spmv.max_ell_fill: must be >= 1, got '0.5'");
  EXPECT_EQ(error("spmv: {sell_sigma: 100}"),
            "run.yaml:2: spmv.sell_sigma: must be a multiple of 32 (the chunk height), at least "
            "32, got '100'");
  EXPECT_EQ(error("spmv: {cusparse_algorithm: alg3}"),
            "run.yaml:2: spmv.cusparse_algorithm: unknown value 'alg3' (valid: alg1, alg2, "
            "default)");
  EXPECT_EQ(error("precision: half"),
            "run.yaml:2: precision: unknown value 'half' (valid: double, single, mixed)");
  EXPECT_EQ(error("device: tpu"),
            "run.yaml:2: device: unknown value 'tpu' (valid: auto, gpu, cpu)");
  EXPECT_EQ(error("compare: [{format: hyb}, {threads_per_row: 5}]"),
            "run.yaml:2: compare[1].threads_per_row: must be one of 0, 2, 4, 8, 16, 32, got '5'");
}

// x_cache: shared is csr-vector's (and auto's); every other format refuses it at parse time,
// at the x_cache key, or at a compare entry's format when the entry inherits it from spmv:.
TEST(ConfigErrors, SharedXCacheOnlyWithCsrVector) {
  const std::string base = kGenerated;
  for (const char* format : {"csr", "csr-vector", "auto"})
    EXPECT_EQ(parse(base + "spmv: {format: " + format + ", x_cache: shared}").spmv.x_cache,
              XCache::shared);
  for (const char* format :
       {"csr-scalar", "aligned-csr", "ellpack", "ellpack-r", "hyb", "cusparse"}) {
    SCOPED_TRACE(format);
    EXPECT_EQ(parse_error(base + "spmv: {format: " + format + ", x_cache: shared}"),
              std::string("run.yaml:2: spmv.x_cache: shared is not supported by format '") +
                  format + "' (only csr and csr-vector stage x in shared memory)");
  }
  EXPECT_EQ(parse_error(base + "spmv: {x_cache: shared}\ncompare: [{}, {format: hyb}]\n"),
            "run.yaml:3: compare[1].format: x_cache shared is not supported by format 'hyb' "
            "(only csr and csr-vector stage x in shared memory)");
  EXPECT_EQ(parse_error(base, {"spmv.format=ellpack", "spmv.x_cache=shared"}),
            "--set spmv.x_cache=shared: spmv.x_cache: shared is not supported by format 'ellpack' "
            "(only csr and csr-vector stage x in shared memory)");
}

TEST(SpmvOptionsCheck, SharedXCacheIsRefusedOutsideCsrVector) {
  SpmvOptions options;
  options.x_cache = XCache::shared;
  for (const Format format : all_formats()) {
    options.format = format;
    SCOPED_TRACE(to_string(format));
    const bool supported =
        format == Format::csr || format == Format::csr_vector || format == Format::automatic;
    EXPECT_EQ(x_cache_refusal(format, XCache::shared).empty(), supported);
    if (supported) {
      EXPECT_NO_THROW(validate_spmv_options(options));
    } else {
      test::expect_error<BadInput>([&] { validate_spmv_options(options); },
                                   "spmv.x_cache: shared is not supported by format '" +
                                       std::string(to_string(format)) + "'",
                                   "csr-vector");
    }
    for (const XCache cache : {XCache::none, XCache::ldg, XCache::texture})
      EXPECT_TRUE(x_cache_refusal(format, cache).empty());
  }
  EXPECT_EQ(parse_x_cache("shared"), XCache::shared);
  EXPECT_EQ(std::string(to_string(XCache::shared)), "shared");
  test::expect_error<BadInput>([] { parse_x_cache("smem"); }, "unknown x_cache 'smem'",
                               "none, ldg, texture, shared");
}

TEST(ConfigErrors, BadGeneratorValues) {
  EXPECT_STARTS_WITH(parse_error("matrix: {generate: {kind: laplace}}\n"),
                     "run.yaml:1: matrix.generate.kind: unknown value 'laplace' (valid: poisson2d, "
                     "poisson3d");
  EXPECT_EQ(parse_error("matrix: {generate: {n: 0}}\n"),
            "run.yaml:1: matrix.generate.n: must be an integer >= 1, got '0'");
  EXPECT_EQ(parse_error("matrix: {generate: {stencil: 9}}\n"),
            "run.yaml:1: matrix.generate.stencil: must be one of 7, 27, got '9'");
  EXPECT_EQ(parse_error("matrix: {generate: {peclet: -1}}\n"),
            "run.yaml:1: matrix.generate.peclet: must be >= 0, got '-1'");
  EXPECT_EQ(parse_error("matrix: {generate: {convection: downwind}}\n"),
            "run.yaml:1: matrix.generate.convection: unknown value 'downwind' (valid: upwind, "
            "central)");
  EXPECT_EQ(parse_error("matrix: {generate: {exponent: 1}}\n"),
            "run.yaml:1: matrix.generate.exponent: must be > 1, got '1'");
  EXPECT_EQ(parse_error("matrix: {generate: {avg_row_length: 0.5}}\n"),
            "run.yaml:1: matrix.generate.avg_row_length: must be >= 1, got '0.5'");
  EXPECT_STARTS_WITH(parse_error("matrix:\n  generate: {kind: powerlaw, n: 4}\n"),
                     "run.yaml:2: matrix.generate.n: powerlaw needs avg_row_length (8");
  EXPECT_EQ(parse_error("matrix: {generate: {scale: 31}}\n"),
            "run.yaml:1: matrix.generate.scale: must be an integer from 0 to 30, got '31'");
  EXPECT_EQ(parse_error("matrix: {generate: {edge_factor: 0}}\n"),
            "run.yaml:1: matrix.generate.edge_factor: must be an integer >= 1, got '0'");
  EXPECT_EQ(parse_error("matrix: {generate: {dense_rows: -2}}\n"),
            "run.yaml:1: matrix.generate.dense_rows: must be an integer >= 0, got '-2'");
  EXPECT_EQ(parse_error("matrix: {generate: {dense_fraction: 1.5}}\n"),
            "run.yaml:1: matrix.generate.dense_fraction: must be from 0 to 1, got '1.5'");
  EXPECT_EQ(parse_error("matrix:\n  generate: {kind: circuit, n: 3}\n"),
            "run.yaml:2: matrix.generate.n: circuit needs dense_rows (4) <= n (3)");
  EXPECT_EQ(parse_error("matrix:\n  generate: {kind: circuit, n: 3, dense_rows: 5}\n"),
            "run.yaml:2: matrix.generate.dense_rows: circuit needs dense_rows (5) <= n (3)");
}

TEST(ConfigSchema, GraphGeneratorKeysAreRead) {
  const RunConfig rmat = parse("matrix: {generate: {kind: rmat, scale: 12, edge_factor: 8}}\n");
  EXPECT_EQ(rmat.matrix.generate->kind, "rmat");
  EXPECT_EQ(rmat.matrix.generate->scale, 12);
  EXPECT_EQ(rmat.matrix.generate->edge_factor, 8);
  const RunConfig circuit = parse(
      "matrix: {generate: {kind: circuit, n: 5000, dense_rows: 3, dense_fraction: 0.02, "
      "seed: 4}}\n");
  EXPECT_EQ(circuit.matrix.generate->kind, "circuit");
  EXPECT_EQ(circuit.matrix.generate->n, 5000);
  EXPECT_EQ(circuit.matrix.generate->dense_rows, 3);
  EXPECT_EQ(circuit.matrix.generate->dense_fraction, 0.02);
  EXPECT_EQ(circuit.matrix.generate->seed, 4u);
}

TEST(ConfigErrors, MatrixNeedsExactlyOneSource) {
  EXPECT_EQ(parse_error("rhs: ones\n"),
            "run.yaml: matrix: required key missing (give matrix: {file: PATH} or matrix: "
            "{generate: {kind: poisson3d, n: 64}})");
  EXPECT_STARTS_WITH(parse_error("rhs: ones\nmatrix: {}\n"),
                     "run.yaml:2: matrix: give exactly one of file");
  EXPECT_EQ(parse_error("rhs: ones\nmatrix: {file: a.mtx, generate: {n: 4}}\n"),
            "run.yaml:2: matrix: give either file or generate, not both");
  EXPECT_STARTS_WITH(parse_error("matrix: data.mtx\n"),
                     "run.yaml:1: matrix: expected a map with keys file, generate, block_size, "
                     "coordinates, got 'data.mtx'");
}

TEST(ConfigErrors, MissingInputFileNamesConfigLineAndKey) {
  EXPECT_EQ(parse_error("# a comment\nmatrix: {file: nope.mtx}\n"),
            "run.yaml:2: matrix.file: file 'nope.mtx' does not exist");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "rhs:\n  file: no-b.mtx\n"),
            "run.yaml:3: rhs.file: file 'no-b.mtx' does not exist");
  EXPECT_EQ(parse_error("matrix: {file: ''}\n"),
            "run.yaml:1: matrix.file: expected a non-empty string, got ''");
}

TEST(ConfigErrors, BadRhs) {
  const std::string base = kGenerated;
  EXPECT_STARTS_WITH(parse_error(base + "rhs: zeros\n"),
                     "run.yaml:2: rhs: unknown value 'zeros' (valid: ones, random, load, or a map");
  EXPECT_EQ(parse_error(base + "rhs: {kind: file}\n"),
            "run.yaml:2: rhs: kind: file needs file: PATH");
  EXPECT_EQ(parse_error(base + "rhs: {kind: ones, file: b.mtx}\n"),
            "run.yaml:2: rhs.file: only valid with kind: file (kind is ones)");
  EXPECT_EQ(parse_error(base + "rhs: {kind: random, from_solution: ones}\n"),
            "run.yaml:2: rhs.from_solution: only valid with kind: from_solution (kind is random)");
  EXPECT_EQ(parse_error(base + "rhs: {file: b.mtx, from_solution: ones}\n"),
            "run.yaml:2: rhs: give either file or from_solution, not both");
  EXPECT_EQ(parse_error(base + "rhs: {from_solution: zeros}\n"),
            "run.yaml:2: rhs.from_solution: unknown value 'zeros' (valid: random, ones)");
  EXPECT_EQ(parse_error(base + "rhs: {seed: 3}\n"),
            "run.yaml:2: rhs: give kind (ones, random, file, from_solution, load), file or "
            "from_solution");
  EXPECT_EQ(parse_error(base + "rhs: {kind: two}\n"),
            "run.yaml:2: rhs.kind: unknown value 'two' (valid: ones, random, file, from_solution, "
            "load)");
}

TEST(ConfigErrors, YamlSyntaxEmptyAndNotAMap) {
  EXPECT_STARTS_WITH(parse_error("matrix: {generate: {n: 8}}\nsolver: [1, 2\n"),
                     "run.yaml:3: YAML syntax error: ");
  EXPECT_STARTS_WITH(parse_error("matrix:\n  generate: {n: 8}\n\tsolver: {}\n"),
                     "run.yaml:3: YAML syntax error: ");
  EXPECT_EQ(parse_error(""), "run.yaml: config is empty");
  EXPECT_EQ(parse_error("# nothing but a comment\n\n"), "run.yaml: config is empty");
  EXPECT_EQ(parse_error("- matrix\n- rhs\n"),
            "run.yaml:1: config must be a map of keys (matrix, rhs, solver, ...), got a list");
  EXPECT_EQ(parse_error("hello\n"),
            "run.yaml:1: config must be a map of keys (matrix, rhs, solver, ...), got 'hello'");
  EXPECT_EQ(parse_error("---\n...\n"), "run.yaml: config is empty");
  EXPECT_EQ(parse("---\n" + std::string(kGenerated) + "---\n").matrix.generate->n, 8);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "---\n" + kGenerated),
            "run.yaml: config holds 2 YAML documents (separated by ---); expected one");
}

TEST(ConfigErrors, LineNumbersFollowTheFile) {
  const std::string text =
      "# run config\n"
      "matrix:\n"
      "  generate:\n"
      "    kind: poisson3d\n"
      "    n: 8\n"
      "\n"
      "solver:\n"
      "  method: cg\n"
      "  # comment\n"
      "  max_iterations: many\n";
  EXPECT_EQ(parse_error(text),
            "run.yaml:10: solver.max_iterations: expected an integer, got 'many'");
  // A block map's error points at the line of its key.
  EXPECT_EQ(parse_error("matrix:\n  generate:\n    - 1\n"),
            "run.yaml:2: matrix.generate: expected a map with keys kind, n, stencil, peclet, "
            "convection, avg_row_length, exponent, scale, edge_factor, dense_rows, ..., got a "
            "list");  // the list is capped at 10 keys
}

TEST(ConfigErrors, LoadNamesTheFile) {
  TemporaryDirectory directory;
  const std::string missing = (directory.path() / "missing.yaml").string();
  EXPECT_EQ(bad_input_message([&] { load_run_config(missing); }),
            "config file '" + missing + "' does not exist");
  EXPECT_EQ(bad_input_message([&] { load_run_config(directory.path().string()); }),
            "'" + directory.path().string() + "' is a directory, not a config file");
  const fs::path empty = directory.write("empty.yaml", "");
  EXPECT_EQ(bad_input_message([&] { load_run_config(empty.string()); }),
            empty.string() + ": config is empty");
  const fs::path bad =
      directory.write("bad.yaml", "matrix: {generate: {n: 8}}\nsolver: {tol: 1}\n");
  EXPECT_STARTS_WITH(bad_input_message([&] { load_run_config(bad.string()); }),
                     bad.string() + ":2: solver.tol: unknown key");
}

// ---------------------------------------------------------------------------------------
// --set overrides

TEST(ConfigOverrides, ValuesReplaceFileKeys) {
  const RunConfig config =
      parse(std::string(kGenerated) + "solver: {tolerance: 1e-6, method: cg}\n",
            {"solver.tolerance=1e-10", "spmv.format=hyb", "matrix.generate.n=32",
             "precision=single", "solver.cuda_graph=true", "output.report=r.json"});
  EXPECT_EQ(config.solver.tolerance, 1e-10);
  EXPECT_EQ(config.solver.method, Method::cg);  // untouched sibling
  EXPECT_EQ(config.spmv.format, Format::hyb);
  EXPECT_EQ(config.matrix.generate->n, 32);
  EXPECT_EQ(config.matrix.generate->kind, "poisson3d");
  EXPECT_EQ(config.precision, Precision::single_precision);
  EXPECT_TRUE(config.solver.cuda_graph);
  EXPECT_EQ(config.output.report, "r.json");
}

TEST(ConfigOverrides, LaterOverrideWins) {
  EXPECT_EQ(parse(kGenerated, {"solver.max_iterations=5", "solver.max_iterations=7"})
                .solver.max_iterations,
            7);
}

TEST(ConfigOverrides, ErrorsNameTheOverride) {
  EXPECT_EQ(parse_error(kGenerated, {"solver.tol=1"}),
            "--set solver.tol=1: solver.tol: unknown key (valid keys: method, tolerance, "
            "tolerance_mode, max_iterations, preconditioner, preconditioner_options, "
            "divergence_factor, time_limit_s, check_every, cuda_graph, keep_history, ...)");
  EXPECT_EQ(parse_error(kGenerated, {"solver.max_iterations=1.5"}),
            "--set solver.max_iterations=1.5: solver.max_iterations: expected an integer, got "
            "'1.5'");
  EXPECT_EQ(parse_error(kGenerated, {"spmv.format=coo"}),
            "--set spmv.format=coo: spmv.format: unknown value 'coo' (valid: csr, csr-scalar, "
            "csr-vector, aligned-csr, ellpack, ellpack-r, hyb, csr-merge, sell, cusparse, auto)");
  EXPECT_STARTS_WITH(parse_error(kGenerated, {"foo.bar=1"}),
                     "--set foo.bar=1: foo: unknown key (valid keys: matrix, rhs,");
  EXPECT_EQ(parse_error(kGenerated, {"solver.tolerance="}),
            "--set solver.tolerance=: solver.tolerance: expected a number, got nothing");
  EXPECT_EQ(parse_error(kGenerated, {"matrix.file=nope.mtx"}),
            "--set matrix.file=nope.mtx: matrix.file: file 'nope.mtx' does not exist");
  // A map value: errors inside it still name the override.
  EXPECT_EQ(parse_error(kGenerated, {"solver={method: cg, tolerance: -1}"}),
            "--set solver={method: cg, tolerance: -1}: solver.tolerance: must be > 0, got '-1'");
  // Errors in the file keep their file line when an override touched a sibling.
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver:\n  method: minres\n",
                        {"solver.tolerance=1e-3"}),
            "run.yaml:3: solver.method: unknown value 'minres' (valid: cg, bicgstab, gmres, "
            "fgmres, pipecg)");
}

TEST(ConfigOverrides, MalformedOverrides) {
  EXPECT_EQ(parse_error(kGenerated, {"solver.tolerance"}),
            "--set solver.tolerance: expected KEY.PATH=VALUE (e.g. solver.tolerance=1e-10)");
  for (const char* text : {"=1", "solver..tolerance=1", ".solver=1", "solver.=1", "compare[x]=1",
                           "compare[0=1", "compare[0]format=1"})
    EXPECT_STARTS_WITH(parse_error(kGenerated, {text}),
                       std::string("--set ") + text + ": malformed key path");
  EXPECT_STARTS_WITH(parse_error(kGenerated, {"compare=[{format: hyb}"}),
                     "--set compare=[{format: hyb}: YAML syntax error: ");
}

TEST(ConfigOverrides, MatrixFileAndGenerateReplaceEachOther) {
  TemporaryDirectory directory;
  const fs::path matrix = directory.write("a.mtx", "not read here\n");
  const RunConfig to_file = parse(kGenerated, {"matrix.file=" + matrix.string()});
  EXPECT_EQ(to_file.matrix.file, matrix.generic_string());
  EXPECT_FALSE(to_file.matrix.generate.has_value());

  const std::string file_config = "matrix: {file: '" + matrix.string() + "'}\n";
  const RunConfig to_generate = parse(file_config, {"matrix.generate.n=12"});
  EXPECT_TRUE(to_generate.matrix.file.empty());
  ASSERT_TRUE(to_generate.matrix.generate.has_value());
  EXPECT_EQ(to_generate.matrix.generate->n, 12);
  EXPECT_EQ(to_generate.matrix.generate->kind, "poisson3d");

  const RunConfig whole = parse(file_config, {"matrix={generate: {kind: poisson2d, n: 5}}"});
  EXPECT_TRUE(whole.matrix.file.empty());
  EXPECT_EQ(whole.matrix.generate->kind, "poisson2d");
}

TEST(ConfigOverrides, RhsForms) {
  const std::string base = std::string(kGenerated) + "rhs: ones\n";
  EXPECT_EQ(parse(base, {"rhs=random"}).rhs.kind, RhsSpec::Kind::random);
  const RunConfig seeded = parse(base, {"rhs=random", "rhs.seed=9"});
  EXPECT_EQ(seeded.rhs.kind, RhsSpec::Kind::random);
  EXPECT_EQ(seeded.rhs.seed, 9u);
  const RunConfig manufactured = parse(base, {"rhs.from_solution=ones"});
  EXPECT_EQ(manufactured.rhs.kind, RhsSpec::Kind::from_solution);
  EXPECT_EQ(manufactured.rhs.solution, "ones");

  TemporaryDirectory directory;
  const fs::path b = directory.write("b.mtx", "not read here\n");
  const RunConfig from_file =
      parse(std::string(kGenerated) + "rhs: {from_solution: random, seed: 4}\n",
            {"rhs.file=" + b.string()});
  EXPECT_EQ(from_file.rhs.kind, RhsSpec::Kind::file);
  EXPECT_EQ(from_file.rhs.file, b.generic_string());
  EXPECT_EQ(from_file.rhs.seed, 4u);
  // `rhs: ones` becomes {kind: ones} when a key below it is set; the kind keeps its file line.
  EXPECT_EQ(parse_error(std::string(kGenerated) + "rhs: zeros\n", {"rhs.seed=3"}),
            "run.yaml:2: rhs.kind: unknown value 'zeros' (valid: ones, random, file, "
            "from_solution, load)");
}

TEST(ConfigOverrides, CompareEntriesByIndex) {
  const std::string base =
      std::string(kGenerated) + "compare:\n  - {format: csr-scalar}\n  - {format: ellpack}\n";
  const RunConfig config = parse(
      base, {"compare[1].format=hyb", "compare.0.x_cache=texture", "compare[2].format=cusparse"});
  ASSERT_EQ(config.compare.size(), 3u);
  EXPECT_EQ(config.compare[0].spmv.format, Format::csr_scalar);
  EXPECT_EQ(config.compare[0].spmv.x_cache, XCache::texture);
  EXPECT_EQ(config.compare[1].spmv.format, Format::hyb);
  EXPECT_EQ(config.compare[2].spmv.format, Format::cusparse);
  EXPECT_EQ(parse_error(base, {"compare[5].format=hyb"}),
            "--set compare[5].format=hyb: compare has 2 entries: index 5 must be 0..2 (2 appends "
            "an entry)");
  EXPECT_EQ(parse_error(base, {"compare.format=hyb"}),
            "--set compare.format=hyb: compare is a list: address an entry as compare[N]");
  EXPECT_STARTS_WITH(parse_error(base, {"compare[1].format=coo"}),
                     "--set compare[1].format=coo: compare[1].format: unknown value 'coo'");
  const RunConfig from_nothing = parse(kGenerated, {"compare[0].format=hyb"});
  ASSERT_EQ(from_nothing.compare.size(), 1u);
  EXPECT_EQ(from_nothing.compare[0].spmv.format, Format::hyb);
  EXPECT_EQ(parse(base, {"compare=[]"}).compare.size(), 0u);
}

TEST(ConfigOverrides, LoadAppliesOverrides) {
  TemporaryDirectory directory;
  const fs::path config = directory.write("run.yaml", kGenerated);
  const RunConfig loaded = load_run_config(config.string(), {"solver.method=bicgstab"});
  EXPECT_EQ(loaded.solver.method, Method::bicgstab);
}

// ---------------------------------------------------------------------------------------
// Relative input paths: the config file's directory first, then the current directory

TEST(ConfigPaths, RelativeToTheConfigFileFirst) {
  TemporaryDirectory root;
  root.write("configs/near.mtx", "x\n");
  root.write("configs/both.mtx", "x\n");
  root.write("both.mtx", "x\n");
  root.write("cwd-only.mtx", "x\n");
  root.write("data/shared.mtx", "x\n");
  const fs::path config = root.write("configs/run.yaml", "matrix: {file: near.mtx}\n");
  const CurrentDirectory cwd(root.path());

  // Found next to the config although the current directory is elsewhere.
  EXPECT_EQ(load_run_config("configs/run.yaml").matrix.file, "configs/near.mtx");
  // Config directory wins over the current directory.
  root.write("configs/run.yaml", "matrix: {file: both.mtx}\n");
  EXPECT_EQ(load_run_config("configs/run.yaml").matrix.file, "configs/both.mtx");
  // Not next to the config: the current directory.
  root.write("configs/run.yaml", "matrix: {file: cwd-only.mtx}\n");
  EXPECT_EQ(load_run_config("configs/run.yaml").matrix.file, "cwd-only.mtx");
  // ../ is normalized away.
  root.write("configs/run.yaml", "matrix: {file: ../data/shared.mtx}\n");
  EXPECT_EQ(load_run_config("configs/run.yaml").matrix.file, "data/shared.mtx");
  // An absolute config path gives an absolute resolved path.
  root.write("configs/run.yaml", "matrix: {file: near.mtx}\n");
  EXPECT_EQ(load_run_config(config.string()).matrix.file,
            (root.path() / "configs/near.mtx").generic_string());
  // The rhs file follows the same rule.
  root.write("configs/run.yaml", "matrix: {file: near.mtx}\nrhs: {file: both.mtx}\n");
  EXPECT_EQ(load_run_config("configs/run.yaml").rhs.file, "configs/both.mtx");
  // Neither: the error names the config, the line, the key and where it looked.
  root.write("configs/run.yaml", "solver: {method: cg}\nmatrix: {file: nope.mtx}\n");
  EXPECT_EQ(bad_input_message([] { load_run_config("configs/run.yaml"); }),
            "configs/run.yaml:2: matrix.file: file 'nope.mtx' does not exist (looked in "
            "'configs/' and in the current directory)");
  // A directory is not a matrix file.
  root.write("configs/run.yaml", "matrix: {file: data}\n");
  EXPECT_EQ(bad_input_message([] { load_run_config("configs/run.yaml"); }),
            "configs/run.yaml:1: matrix.file: 'data' is a directory, not a file");
}

TEST(ConfigPaths, OverridePathsAreRelativeToTheCurrentDirectory) {
  TemporaryDirectory root;
  root.write("configs/near.mtx", "x\n");
  root.write("cwd.mtx", "x\n");
  root.write("configs/run.yaml", kGenerated);
  const CurrentDirectory cwd(root.path());
  EXPECT_EQ(load_run_config("configs/run.yaml", {"matrix.file=cwd.mtx"}).matrix.file, "cwd.mtx");
  EXPECT_EQ(
      bad_input_message([] { load_run_config("configs/run.yaml", {"matrix.file=near.mtx"}); }),
      "--set matrix.file=near.mtx: matrix.file: file 'near.mtx' does not exist");
}

// ---------------------------------------------------------------------------------------
// to_yaml round trip

void expect_round_trip(const RunConfig& config) {
  const std::string yaml = to_yaml(config);
  SCOPED_TRACE(yaml);
  const RunConfig parsed = parse_run_config(yaml, "resolved.yaml");
  expect_same_config(parsed, config);
  // Writing the parsed config again gives the same text (after the comment naming the source).
  const std::string again = to_yaml(parsed);
  EXPECT_EQ(again.substr(again.find('\n')), yaml.substr(yaml.find('\n')));
}

TEST(ConfigRoundTrip, DefaultConfig) {
  expect_round_trip(default_run_config());
}

TEST(ConfigRoundTrip, EveryKeyNonDefault) {
  TemporaryDirectory directory;
  const fs::path matrix = directory.write("a matrix: with spaces.mtx", "x\n");
  const fs::path b = directory.write("b.mtx", "x\n");
  RunConfig config = default_run_config();
  config.matrix.generate.reset();
  config.matrix.file = matrix.generic_string();
  config.rhs.kind = RhsSpec::Kind::file;
  config.rhs.file = b.generic_string();
  config.rhs.seed = 12345678901234ull;
  config.solver.method = Method::bicgstab;
  config.solver.tolerance = 1.0 / 3.0;
  config.solver.tolerance_mode = ToleranceMode::initial;
  config.solver.max_iterations = 77;
  config.solver.preconditioner = Preconditioner::jacobi;
  config.solver.divergence_factor = 0.0;
  config.solver.time_limit_s = 1e-300;
  config.solver.check_every = 1;
  config.solver.cuda_graph = true;
  config.solver.keep_history = false;
  config.spmv.format = Format::aligned_csr;
  config.spmv.x_cache = XCache::none;
  config.spmv.threads_per_row = 32;
  config.spmv.block_size = 1024;
  config.spmv.hyb_width = 0;
  config.spmv.max_ell_fill = 2.75;
  config.spmv.sell_sigma = 4096;
  config.spmv.cusparse_algorithm = "default";
  config.precision = Precision::single_precision;
  config.device = Device::gpu;
  fs::create_directories(directory.path() / "out dir");  // outputs need an existing folder
  config.output = {"x.mtx", (directory.path() / "out dir/history.csv").generic_string(), "yes",
                   "null", "absolute"};
  SpmvOptions first = config.spmv;
  first.format = Format::ellpack;
  first.max_ell_fill = 10.0;
  SpmvOptions second = config.spmv;
  second.format = Format::cusparse;
  second.x_cache = XCache::texture;
  config.compare = {{first, VectorOps::fused, Precision::single_precision},
                    {second, VectorOps::cublas, Precision::single_precision}};
  config.distributed.partition = RowBalance::rows;
  expect_round_trip(config);
}

TEST(ConfigRoundTrip, MixedPrecisionAndCompareRuns) {
  RunConfig config = default_run_config();
  config.precision = Precision::mixed_precision;
  SpmvOptions ellpack = config.spmv;
  ellpack.format = Format::ellpack;
  config.compare = {{ellpack, VectorOps::fused, Precision::double_precision},
                    {ellpack, VectorOps::fused, Precision::mixed_precision}};
  expect_round_trip(config);
}

TEST(ConfigCompare, EntriesSetVectorOpsAndPrecision) {
  const RunConfig config = parse(std::string(kGenerated) +
                                 "solver: {vector_ops: fused}\nprecision: mixed\ncompare:\n"
                                 "  - {format: ellpack}\n"
                                 "  - {format: ellpack, vector_ops: cublas}\n"
                                 "  - {format: ellpack, precision: double}\n");
  ASSERT_EQ(config.compare.size(), 3u);
  // Unset keys take the config's.
  EXPECT_EQ(config.compare[0].vector_ops, VectorOps::fused);
  EXPECT_EQ(config.compare[0].precision, Precision::mixed_precision);
  EXPECT_EQ(config.compare[1].vector_ops, VectorOps::cublas);
  EXPECT_EQ(config.compare[2].precision, Precision::double_precision);
  // precision mixed is fp32 matrix values under the double solver.
  EXPECT_EQ(spmv_for(config.spmv, config.precision).matrix_values, MatrixValues::single);
  EXPECT_EQ(spmv_for(config.compare[2].spmv, config.compare[2].precision).matrix_values,
            MatrixValues::solver);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "compare:\n  - {precision: single}\n"),
            "run.yaml:3: compare[0].precision: unknown value 'single' (valid: double, mixed)");
  EXPECT_EQ(parse_error(std::string(kGenerated) +
                        "precision: single\ncompare:\n  - {precision: mixed}\n"),
            "run.yaml:4: compare[0].precision: must be left out under precision: single (compare "
            "runs double against mixed), got 'mixed'");
  EXPECT_STARTS_WITH(parse_error(std::string(kGenerated) + "compare:\n  - {vector_ops: fast}\n"),
                     "run.yaml:3: compare[0].vector_ops: unknown value 'fast'");
  EXPECT_STARTS_WITH(parse_error(std::string(kGenerated) + "compare:\n  - {method: cg}\n"),
                     "run.yaml:3: compare[0].method: unknown key (valid keys: format, x_cache, ");
  EXPECT_NE(parse_error(std::string(kGenerated) + "compare:\n  - {method: cg}\n")
                .find("vector_ops, precision)"),
            std::string::npos);
}

TEST(ConfigRoundTrip, PreconditionerOptionsOfEveryKind) {
  for (const auto kind : {Preconditioner::chebyshev, Preconditioner::ic0, Preconditioner::amg}) {
    RunConfig config = default_run_config();
    config.solver.preconditioner = kind;
    PreconditionerOptions& options = config.solver.preconditioner_options;
    if (kind == Preconditioner::chebyshev) {
      options.chebyshev = {7, EigenEstimate::gershgorin, 33, 1.25, 0.125};
    } else if (kind == Preconditioner::ic0) {
      options.factorization.sweeps = 9;
      options.factorization.shift = FactorShift::fixed;
      options.factorization.shift_value = 0.125;
    } else {
      options.amg.strength_threshold = 0.08;
      options.amg.max_levels = 4;
      options.amg.max_coarse_rows = 64;
      options.amg.prolongator_weight = 1.0;
      options.amg.smoother = AmgSmoother::jacobi;
      options.amg.sweeps = 2;
      options.amg.jacobi_weight = 0.75;
      options.amg.chebyshev = {2, EigenEstimate::lanczos, 12, 1.5, 0.25};
      options.amg.level_formats = {Format::ellpack_r, Format::csr_scalar};
    }
    expect_round_trip(config);
  }
}

TEST(ConfigSchema, PreconditionerOptionsPerKind) {
  const std::string base = std::string(kGenerated) + "solver:\n";
  const RunConfig chebyshev = parse(base +
                                    "  preconditioner: chebyshev\n"
                                    "  preconditioner_options: {degree: 5, eigen_estimate: "
                                    "gershgorin, upper_factor: 1.2, lower_ratio: 0.1}\n");
  EXPECT_EQ(chebyshev.solver.preconditioner_options.chebyshev.degree, 5);
  EXPECT_EQ(chebyshev.solver.preconditioner_options.chebyshev.eigen_estimate,
            EigenEstimate::gershgorin);
  EXPECT_EQ(chebyshev.solver.preconditioner_options.chebyshev.upper_factor, 1.2);
  // The order of the two keys does not matter.
  const RunConfig amg = parse(base +
                              "  preconditioner_options: {smoother_degree: 2, max_levels: 3, "
                              "level_formats: [hyb, csr]}\n"
                              "  preconditioner: amg\n");
  EXPECT_EQ(amg.solver.preconditioner_options.amg.chebyshev.degree, 2);
  EXPECT_EQ(amg.solver.preconditioner_options.amg.max_levels, 3);
  EXPECT_EQ(amg.solver.preconditioner_options.amg.level_formats,
            (std::vector<Format>{Format::hyb, Format::csr}));
  EXPECT_EQ(parse(base + "  preconditioner: ilu0\n  preconditioner_options: {sweeps: 3}\n")
                .solver.preconditioner_options.factorization.sweeps,
            3);
}

// preconditioner_options.shift (ic0, ilu0): auto (the default), none or a number >= 0; and
// solver.breakdown_restarts, an integer >= 0 (default 3).
TEST(ConfigSchema, FactorizationShiftAndBreakdownRestarts) {
  const std::string base = std::string(kGenerated) + "solver:\n  preconditioner: ic0\n";
  const auto shift_of = [&](const std::string& value) {
    return parse(base + "  preconditioner_options: {shift: " + value + "}\n")
        .solver.preconditioner_options.factorization;
  };
  EXPECT_EQ(parse(base).solver.preconditioner_options.factorization.shift, FactorShift::automatic);
  EXPECT_EQ(shift_of("auto").shift, FactorShift::automatic);
  EXPECT_EQ(shift_of("none").shift, FactorShift::none);
  EXPECT_EQ(shift_of("0.2").shift, FactorShift::fixed);
  EXPECT_EQ(shift_of("0.2").shift_value, 0.2);
  EXPECT_EQ(shift_of("0").shift_value, 0.0);
  EXPECT_EQ(parse_error(base + "  preconditioner_options: {shift: -1}\n"),
            "run.yaml:4: solver.preconditioner_options.shift: must be auto, none or a number >= "
            "0, got '-1'");
  EXPECT_EQ(parse_error(base + "  preconditioner_options: {shift: large}\n"),
            "run.yaml:4: solver.preconditioner_options.shift: must be auto, none or a number >= "
            "0, got 'large'");
  EXPECT_EQ(parse(std::string(kGenerated) + "solver: {preconditioner: ilu0, "
                                            "preconditioner_options: {shift: none}}\n")
                .solver.preconditioner_options.factorization.shift,
            FactorShift::none);

  EXPECT_EQ(parse(kGenerated).solver.breakdown_restarts, 3);
  EXPECT_EQ(parse(std::string(kGenerated) + "solver: {breakdown_restarts: 0}\n")
                .solver.breakdown_restarts,
            0);
  EXPECT_EQ(parse_error(std::string(kGenerated) + "solver: {breakdown_restarts: -1}\n"),
            "run.yaml:2: solver.breakdown_restarts: must be an integer >= 0, got '-1'");
  RunConfig config = default_run_config();
  config.solver.breakdown_restarts = 7;
  expect_round_trip(config);
}

TEST(ConfigErrors, PreconditionerOptionsOfTheWrongKind) {
  const std::string base = std::string(kGenerated) + "solver:\n";
  EXPECT_EQ(parse_error(base + "  preconditioner: jacobi\n  preconditioner_options: {degree: 2}\n"),
            "run.yaml:4: solver.preconditioner_options: preconditioner jacobi has no options");
  EXPECT_EQ(parse_error(base + "  preconditioner_options: {degree: 2}\n"),
            "run.yaml:3: solver.preconditioner_options: preconditioner none has no options");
  EXPECT_EQ(parse_error(base + "  preconditioner: chebyshev\n  preconditioner_options: "
                               "{max_levels: 2}\n"),
            "run.yaml:4: solver.preconditioner_options.max_levels: unknown key (valid keys: "
            "degree, eigen_estimate, estimate_iterations, upper_factor, lower_ratio)");
  EXPECT_EQ(parse_error(base + "  preconditioner: chebyshev\n  preconditioner_options: "
                               "{degree: 11}\n"),
            "run.yaml:4: solver.preconditioner_options.degree: must be an integer from 1 to 10, "
            "got '11'");
  EXPECT_STARTS_WITH(parse_error(base + "  preconditioner: amg\n  preconditioner_options: "
                                        "{level_formats: [ellpak]}\n"),
                     "run.yaml:4: solver.preconditioner_options.level_form...: unknown value "
                     "'ellpak' (valid: csr, ");
  EXPECT_EQ(parse_error(base + "  preconditioner: amg\n  preconditioner_options: "
                               "{smoother: gauss-seidel}\n"),
            "run.yaml:4: solver.preconditioner_options.smoother: unknown value 'gauss-seidel' "
            "(valid: chebyshev, jacobi)");
}

TEST(ConfigRoundTrip, GeneratorsAndRhsKinds) {
  for (const std::string& kind : generator_kinds()) {
    SCOPED_TRACE(kind);
    RunConfig config = default_run_config();
    config.matrix.generate->kind = kind;
    config.matrix.generate->n = 100;
    config.matrix.generate->peclet = 0.1;
    config.matrix.generate->convection = "central";
    config.matrix.generate->avg_row_length = 3.3;
    config.matrix.generate->exponent = 1.01;
    config.matrix.generate->seed = 0;
    config.matrix.generate->stencil = 27;
    config.matrix.generate->scale = 9;
    config.matrix.generate->edge_factor = 3;
    config.matrix.generate->dense_rows = 7;
    config.matrix.generate->dense_fraction = 0.015;
    config.matrix.generate->poisson_ratio = 0.45;
    config.matrix.block_size = generator_block_size(kind);  // what the loader resolves
    expect_round_trip(config);
  }
  for (const auto& kind : {RhsSpec::Kind::ones, RhsSpec::Kind::random}) {
    RunConfig config = default_run_config();
    config.rhs.kind = kind;
    config.rhs.seed = 5;
    expect_round_trip(config);
  }
  RunConfig manufactured = default_run_config();
  manufactured.rhs.kind = RhsSpec::Kind::from_solution;
  manufactured.rhs.solution = "ones";
  expect_round_trip(manufactured);
}

TEST(ConfigRoundTrip, ShippedConfigs) {
  for (const char* name : {"quickstart.yaml", "bcsstk13-cg-jacobi.yaml", "west0479-bicgstab.yaml",
                           "compare-formats.yaml", "convdiff-bicgstab.yaml", "amg-poisson3d.yaml",
                           "compare-vector-ops.yaml", "beam3d-amg-rigid-body.yaml"}) {
    SCOPED_TRACE(name);
    expect_round_trip(load_run_config(config_path(name)));
  }
}

TEST(ConfigRoundTrip, WritesEveryKey) {
  const std::string yaml = to_yaml(default_run_config());
  for (const char* key : {"matrix:",
                          "generate:",
                          "kind:",
                          "n:",
                          "stencil:",
                          "peclet:",
                          "convection:",
                          "avg_row_length:",
                          "exponent:",
                          "scale:",
                          "edge_factor:",
                          "dense_rows:",
                          "dense_fraction:",
                          "seed:",
                          "rhs:",
                          "solver:",
                          "method:",
                          "tolerance:",
                          "tolerance_mode:",
                          "max_iterations:",
                          "preconditioner:",
                          "divergence_factor:",
                          "time_limit_s:",
                          "check_every:",
                          "cuda_graph:",
                          "keep_history:",
                          "spmv:",
                          "format:",
                          "x_cache:",
                          "threads_per_row:",
                          "block_size:",
                          "hyb_width:",
                          "max_ell_fill:",
                          "sell_sigma:",
                          "cusparse_algorithm:",
                          "grid:",
                          "tune_budget_ms:",
                          "tune_cache:",
                          "precision:",
                          "device:",
                          "output:",
                          "solution:",
                          "history:",
                          "report:",
                          "plot:",
                          "plot_residual:",
                          "compare:"})
    EXPECT_CONTAINS(yaml, key);
  EXPECT_CONTAINS(yaml, "tolerance: 1e-08");
  EXPECT_CONTAINS(yaml, "<built-in default>");
}

TEST(ConfigSpmv, TuningAndGridKeys) {
  const std::string base = "matrix: {generate: {}}\n";
  const RunConfig config =
      parse(base + "spmv: {format: auto, grid: capped, tune_budget_ms: 250, tune_cache: off}");
  EXPECT_EQ(config.spmv.format, Format::automatic);
  EXPECT_EQ(config.spmv.grid, GridShape::capped);
  EXPECT_EQ(config.spmv.tune_budget_ms, 250.0);
  EXPECT_EQ(config.spmv.tune_cache, "off");
  EXPECT_EQ(parse(base).spmv.grid, GridShape::exact);
  EXPECT_EQ(parse(base).spmv.tune_cache, "");  // the default location
  EXPECT_EQ(parse(base + "spmv: {tune_cache: /tmp/t.txt}").spmv.tune_cache, "/tmp/t.txt");
  const std::string grid = parse_error(base + "spmv: {grid: wide}");
  EXPECT_TRUE(starts_with(grid, "run.yaml:2: spmv.grid: ")) << grid;
  EXPECT_NE(grid.find("exact, capped"), std::string::npos) << grid;
  const std::string budget = parse_error(base + "spmv: {tune_budget_ms: -1}");
  EXPECT_TRUE(starts_with(budget, "run.yaml:2: spmv.tune_budget_ms: ")) << budget;
  const std::string type = parse_error(base + "spmv: {tune_budget_ms: soon}");
  EXPECT_TRUE(starts_with(type, "run.yaml:2: spmv.tune_budget_ms: ")) << type;
  RunConfig round_trip = config;
  round_trip.spmv.tune_cache = "/tmp/spk cache/tuning.txt";
  expect_round_trip(round_trip);
}

// ---------------------------------------------------------------------------------------
// Systems: matrix.block_size, matrix.coordinates, beam3d, rhs: load, near_nullspace

TEST(ConfigSystems, BlockSizeIsTheKeyOrTheGenerators) {
  TemporaryDirectory directory;
  const std::string matrix = directory.write("a.mtx", "x\n").generic_string();
  const std::string file = "matrix: {file: '" + matrix + "'";
  EXPECT_EQ(parse(file + "}").matrix.block_size, 1);
  EXPECT_EQ(parse(file + ", block_size: 3}").matrix.block_size, 3);
  EXPECT_EQ(parse(file + ", block_size: 6}").matrix.block_size, 6);
  EXPECT_EQ(parse(kGenerated).matrix.block_size, 1);
  EXPECT_EQ(parse("matrix: {generate: {kind: elasticity3d}}").matrix.block_size, 3);
  EXPECT_EQ(parse("matrix: {generate: {kind: beam3d}}").matrix.block_size, 3);
  EXPECT_EQ(parse("matrix: {generate: {kind: beam3d}, block_size: 3}").matrix.block_size, 3);
  EXPECT_EQ(parse_error(file + ", block_size: 7}"),
            "run.yaml:1: matrix.block_size: must be an integer from 1 to 6, got '7'");
  EXPECT_EQ(parse_error(file + ", block_size: 0}"),
            "run.yaml:1: matrix.block_size: must be an integer from 1 to 6, got '0'");
  EXPECT_EQ(parse_error("matrix: {generate: {kind: beam3d}, block_size: 2}"),
            "run.yaml:1: matrix.block_size: generator beam3d has 3 unknown(s) per node, not 2 "
            "(leave block_size out)");
  EXPECT_EQ(parse_error("matrix: {generate: {kind: poisson2d}, block_size: 3}"),
            "run.yaml:1: matrix.block_size: generator poisson2d has 1 unknown(s) per node, not 3 "
            "(leave block_size out)");
  // A resolved config (generators: no block_size written) takes another kind with --set.
  const std::string resolved = to_yaml(default_run_config());
  EXPECT_EQ(parse(resolved, {"matrix.generate.kind=elasticity3d"}).matrix.block_size, 3);
  EXPECT_EQ(parse(resolved, {"matrix.file=" + matrix, "matrix.block_size=2"}).matrix.block_size, 2);
}

TEST(ConfigSystems, Beam3dKeysAndRhsLoad) {
  const RunConfig beam =
      parse("matrix: {generate: {kind: beam3d, n: 16, poisson_ratio: 0.45}}\nrhs: load\n");
  EXPECT_EQ(beam.matrix.generate->poisson_ratio, 0.45);
  EXPECT_EQ(beam.rhs.kind, RhsSpec::Kind::load);
  EXPECT_EQ(parse("matrix: {generate: {kind: beam3d}}\nrhs: {kind: load}\n").rhs.kind,
            RhsSpec::Kind::load);
  EXPECT_EQ(parse(kGenerated).matrix.generate->poisson_ratio, 0.3);
  for (const char* bad : {"0", "-0.1", "0.46", "0.5"})
    EXPECT_EQ(
        parse_error(std::string("matrix: {generate: {kind: beam3d, poisson_ratio: ") + bad + "}}"),
        std::string("run.yaml:1: matrix.generate.poisson_ratio: must be > 0 and <= 0.45, "
                    "got '") +
            bad + "'");
  EXPECT_EQ(parse_error(std::string(kGenerated) + "rhs: load\n"),
            "run.yaml:2: rhs: load is the generator's own load vector, and generator poisson3d "
            "has none (beam3d has one)");
  TemporaryDirectory directory;
  const std::string matrix = directory.write("a.mtx", "x\n").generic_string();
  EXPECT_EQ(parse_error("matrix: {file: '" + matrix + "'}\nrhs: {kind: load}\n"),
            "run.yaml:2: rhs: load is the generator's own load vector, and a matrix file has none "
            "(beam3d has one)");
  EXPECT_EQ(parse(std::string(kGenerated), {"matrix.generate.kind=beam3d", "rhs=load"}).rhs.kind,
            RhsSpec::Kind::load);
}

TEST(ConfigSystems, CoordinatesAndNearNullspace) {
  TemporaryDirectory directory;
  const std::string matrix = directory.write("a.mtx", "x\n").generic_string();
  const std::string xyz = directory.write("xyz.mtx", "x\n").generic_string();
  const std::string b = directory.write("b.mtx", "x\n").generic_string();
  const std::string amg =
      "solver:\n  preconditioner: amg\n  preconditioner_options: "
      "{near_nullspace: ";
  const std::string beam = "matrix: {generate: {kind: beam3d, n: 4}}\n";
  EXPECT_EQ(parse(beam).solver.preconditioner_options.amg.near_nullspace, NearNullspace::constant);
  const RunConfig rigid = parse(beam + amg + "rigid_body}\n");
  EXPECT_EQ(rigid.solver.preconditioner_options.amg.near_nullspace, NearNullspace::rigid_body);
  EXPECT_EQ(parse(beam + amg + "constant}\n").solver.preconditioner_options.amg.near_nullspace,
            NearNullspace::constant);
  EXPECT_EQ(parse("matrix: {generate: {kind: elasticity3d}}\n" + amg + "rigid_body}\n")
                .solver.preconditioner_options.amg.near_nullspace,
            NearNullspace::rigid_body);
  // A file with coordinates.
  const std::string file =
      "matrix: {file: '" + matrix + "', block_size: 3, coordinates: '" + xyz + "'}\n";
  const RunConfig with_coordinates = parse(file + amg + "rigid_body}\n");
  EXPECT_EQ(with_coordinates.matrix.coordinates, xyz);
  EXPECT_EQ(with_coordinates.solver.preconditioner_options.amg.near_nullspace,
            NearNullspace::rigid_body);
  // User vectors.
  const RunConfig vectors = parse(file + amg + "'" + b + "'}\n");
  EXPECT_EQ(vectors.solver.preconditioner_options.amg.near_nullspace, NearNullspace::vectors);
  EXPECT_EQ(vectors.near_nullspace_file, b);
  // Errors name the key and what is missing.
  // (The key path is cut at 40 characters; the messages name near_nullspace themselves.)
  const std::string key = "run.yaml:4: solver.preconditioner_options.near_nulls...: ";
  EXPECT_EQ(parse_error(std::string(kGenerated) + amg + "rigid_body}\n"),
            key +
                "near_nullspace rigid_body needs matrix.block_size 2 or 3 (unknowns per node "
                "in 2-D or 3-D), got 1");
  EXPECT_EQ(
      parse_error("matrix: {file: '" + matrix + "', block_size: 2}\n" + amg + "rigid_body}\n"),
      key +
          "near_nullspace rigid_body needs the nodes' coordinates: give "
          "matrix.coordinates (a Matrix Market array file, nodes x 2)");
  EXPECT_EQ(parse_error(beam + amg + "vectors}\n"),
            key +
                "near_nullspace takes the vectors' file itself (a Matrix Market array file, "
                "n x k), not 'vectors'");
  EXPECT_EQ(parse_error(beam + amg + "rigid}\n"),
            key +
                "file 'rigid' does not exist (near_nullspace: constant, rigid_body or a Matrix "
                "Market file)");
  EXPECT_EQ(parse_error(beam + "solver: {preconditioner: jacobi, preconditioner_options: "
                               "{near_nullspace: rigid_body}}\n"),
            "run.yaml:2: solver.preconditioner_options: preconditioner jacobi has no options");
  EXPECT_EQ(parse_error("matrix: {file: '" + matrix + "', coordinates: nope.mtx}\n"),
            "run.yaml:1: matrix.coordinates: file 'nope.mtx' does not exist");
  // --set reaches every key.
  const RunConfig set = parse(beam, {"solver.preconditioner=amg",
                                     "solver.preconditioner_options.near_nullspace=rigid_body"});
  EXPECT_EQ(set.solver.preconditioner_options.amg.near_nullspace, NearNullspace::rigid_body);
  EXPECT_EQ(
      parse("matrix: {file: '" + matrix + "'}\n", {"matrix.coordinates=" + xyz}).matrix.coordinates,
      xyz);
}

TEST(ConfigRoundTrip, SystemsKeys) {
  TemporaryDirectory directory;
  const std::string matrix = directory.write("a.mtx", "x\n").generic_string();
  const std::string xyz = directory.write("x y z.mtx", "x\n").generic_string();
  const std::string b = directory.write("b.mtx", "x\n").generic_string();
  RunConfig beam = default_run_config();
  beam.matrix.generate->kind = "beam3d";
  beam.matrix.generate->poisson_ratio = 0.125;
  beam.matrix.block_size = 3;
  beam.rhs.kind = RhsSpec::Kind::load;
  beam.solver.preconditioner = Preconditioner::amg;
  beam.solver.preconditioner_options.amg.near_nullspace = NearNullspace::rigid_body;
  expect_round_trip(beam);
  RunConfig file = default_run_config();
  file.matrix.generate.reset();
  file.matrix.file = matrix;
  file.matrix.block_size = 2;
  file.matrix.coordinates = xyz;
  file.solver.preconditioner = Preconditioner::amg;
  file.solver.preconditioner_options.amg.near_nullspace = NearNullspace::vectors;
  file.near_nullspace_file = b;
  expect_round_trip(file);
  const std::string yaml = to_yaml(file);
  EXPECT_CONTAINS(yaml, "block_size: 2");
  EXPECT_CONTAINS(yaml, "coordinates: " + xyz);
  EXPECT_CONTAINS(yaml, "near_nullspace: " + b);
  EXPECT_CONTAINS(to_yaml(beam), "near_nullspace: rigid_body");
  EXPECT_CONTAINS(to_yaml(beam), "poisson_ratio: 0.125");
}

}  // namespace
}  // namespace spk
