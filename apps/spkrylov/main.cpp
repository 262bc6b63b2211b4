// spkrylov: solve sparse linear systems on NVIDIA GPUs with Krylov methods.
//
//   spkrylov solve [CONFIG.yaml] [--set key.path=value ...] [--quiet]
//   spkrylov info MATRIX.mtx | --generate kind=poisson3d,n=64
//   spkrylov bench [--suite default|small|none] [--matrix FILE.mtx ...] [--csv F] [--json F]
//   spkrylov bench --solvers [--suite default|small] [--formats a,b] [--csv F]
//   mpirun -np N spkrylov solve [CONFIG.yaml] ...   (the distributed plugin, see
//                                                     distributed_launch.hpp)
//
// Exit codes: 0 converged (or success), 1 bad input or error, 2 not converged.
// Every spk::Error is caught here, once, and printed as one line.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "bench_command.hpp"
#include "bench_preconditioners.hpp"
#include "bench_solvers.hpp"
#include "bench_update_values.hpp"
#include "core/printable_text.hpp"
#include "distributed_launch.hpp"
#include "frontend/exit_codes.hpp"
#include "frontend/solve_command.hpp"
#include "info_command.hpp"
#include "spkrylov/errors.hpp"
#include "version_info.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "spkrylov: sparse Krylov solvers (CG, BiCGSTAB) on NVIDIA GPUs, with a CPU reference "
      "path.\n"
      "  spkrylov solve            solves the built-in problem (3-D Poisson, 262,144 unknowns)\n"
      "  spkrylov solve RUN.yaml   solves what a config describes (configs/ has examples);\n"
      "                            the word solve may be left out: spkrylov RUN.yaml\n"
      "  spkrylov bench --solvers  times whole solves per SpMV format on a GPU\n"
      "README.md: a guide (reading the report, choosing a method); docs/config.md: every config\n"
      "key; docs/cpp-api.md: the library API."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", spk::app::version_text,
                       "print the version, git commit, CUDA versions and architectures");

  spk::app::SolveCommandOptions solve;
  CLI::App* solve_command = app.add_subcommand(
      "solve", "solve Ax=b from a YAML config; no config: the built-in 3-D Poisson problem");
  solve_command->add_option("config", solve.config_path, "YAML config file");
  solve_command->add_option("--set", solve.overrides, "override a config key: key.path=value")
      ->allow_extra_args(false);
  solve_command->add_flag("-q,--quiet", solve.quiet, "no live progress line");
  solve_command->add_flag("--print-config", solve.print_config,
                          "print the resolved config (every key, defaults included) as YAML "
                          "and exit without solving");

  spk::app::InfoCommandOptions info;
  CLI::App* info_command = app.add_subcommand("info", "print matrix statistics");
  info_command->add_option("matrix", info.matrix_path, "Matrix Market file");
  info_command->add_option("--generate", info.generate,
                           "generator keys, e.g. kind=poisson3d,n=64,stencil=27");
  info_command->add_option("--write", info.write_path, "also write the matrix as Matrix Market");
  info_command->add_option("--write-coordinates", info.coordinates_path,
                           "also write the generator's node coordinates (Matrix Market array)");
  info_command->add_option("--write-load", info.load_path,
                           "also write the generator's load vector (beam3d; Matrix Market)");

  spk::app::BenchCommandOptions bench;
  CLI::App* bench_command = app.add_subcommand(
      "bench",
      "SpMV bandwidth of every backend vs cuSPARSE and the copy bandwidth; --solvers: whole "
      "solves (GPU)");
  bench_command->add_option("--suite", bench.suite, "default | small | none")
      ->check(CLI::IsMember({"default", "small", "none"}))
      ->capture_default_str();
  bench_command->add_option("--matrix", bench.matrix_files, "extra Matrix Market files");
  bench_command->add_option("--only", bench.only, "only the matrices whose label contains this");
  bench_command->add_option("--formats", bench.formats, "formats to run (default: all)")
      ->delimiter(',');
  bench_command
      ->add_option("--x-cache", bench.x_caches,
                   "x_cache variants (none,ldg,texture,shared; shared: csr-vector only, the "
                   "other formats report it refused)")
      ->check(CLI::IsMember({"none", "ldg", "texture", "shared"}))
      ->delimiter(',')
      ->capture_default_str();
  bench_command->add_option("--precision", bench.precisions, "double,single")
      ->check(CLI::IsMember({"double", "single"}))
      ->delimiter(',')
      ->capture_default_str();
  bench_command->add_option("--runs", bench.runs, "timed runs (median)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  bench_command->add_option("--warmup", bench.warmup, "untimed runs first")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  bench_command->add_flag("--solvers", bench.solvers,
                          "time whole CG/BiCGSTAB solves against the NVIDIA-sample baseline");
  bench_command->add_option("--tolerance", bench.solver_tolerance, "--solvers: relative tolerance")
      ->capture_default_str();
  bench_command->add_option("--max-iterations", bench.max_iterations, "--solvers: iteration limit")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  bench_command->add_option("--vector-ops", bench.vector_ops, "--solvers: cublas,fused")
      ->check(CLI::IsMember({"cublas", "fused"}))
      ->delimiter(',')
      ->capture_default_str();
  bench_command
      ->add_option("--values", bench.values, "--solvers: double,mixed (mixed: fp32 matrix values)")
      ->check(CLI::IsMember({"double", "mixed"}))
      ->delimiter(',')
      ->capture_default_str();
  bench_command->add_option("--graph", bench.graphs, "--solvers: off,on (CUDA graphs)")
      ->check(CLI::IsMember({"off", "on"}))
      ->delimiter(',')
      ->capture_default_str();
  bench_command->add_option("--preconditioners", bench.preconditioners,
                            "time to solution per preconditioner: kind[:format][:key=value...], "
                            "e.g. jacobi:ellpack amg:ellpack-r:smoother_degree=2");
  bench_command->add_option("--sizes", bench.sizes, "--preconditioners: Poisson grids n (n^3 rows)")
      ->delimiter(',')
      ->check(CLI::Range(2, 2000))
      ->capture_default_str();
  bench_command->add_option("--repeat", bench.repeat, "--preconditioners: timed setups (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  bench_command->add_flag("--update-values", bench.update_values,
                          "time update_values (new values, same pattern) against one SpMV");
  bench_command->add_option("--csv", bench.csv_path, "write the table as CSV");
  bench_command->add_option("--json", bench.json_path, "write the table as JSON");

  // `spkrylov [solve] [CONFIG.yaml] [--set ...]`: without a command word, the arguments are
  // solve's (`spkrylov run.yaml`, `spkrylov --set solver.method=bicgstab`).
  std::vector<std::string> arguments(argv + 1, argv + argc);
  const std::vector<std::string> words{"solve", "info", "bench", "--help", "-h", "--version"};
  if (!arguments.empty() && std::find(words.begin(), words.end(), arguments.front()) == words.end())
    arguments.insert(arguments.begin(), "solve");
  std::reverse(arguments.begin(), arguments.end());  // CLI11 takes them last first
  try {
    app.parse(arguments);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    // CLI11's message quotes the argument: one capped line, as for every other error.
    std::cerr << "error: " << spk::input_excerpt(error.what(), spk::shown_name_limit)
              << " (see spkrylov --help)\n";
    return spk::exit_bad_input;
  }

  try {
    const spk::app::Launcher launcher = spk::app::detect_launcher();
    if (launcher.present && launcher.several_processes() &&
        (info_command->parsed() || bench_command->parsed()))
      return spk::app::refuse_several_processes(info_command->parsed() ? "info" : "bench",
                                                launcher);
    if (info_command->parsed()) return spk::app::run_info_command(info);
    if (bench_command->parsed()) {
      if (bench.update_values) return spk::app::run_update_values_bench(bench);
      if (!bench.preconditioners.empty()) return spk::app::run_preconditioner_bench(bench);
      return bench.solvers ? spk::app::run_solver_bench(bench) : spk::app::run_bench_command(bench);
    }
    if (launcher.present) return spk::app::run_launched_solve(solve, launcher);
    return spk::app::run_solve_command(solve);  // `spkrylov` alone runs the default solve
  } catch (const spk::Error& error) {
    std::cerr << "error: " << error.what() << "\n";
    return spk::exit_bad_input;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of host memory\n";
    return spk::exit_bad_input;
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return spk::exit_bad_input;
  }
}
