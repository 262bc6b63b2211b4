#include "bench_preconditioners.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/event_timer.hpp"
#include "core/printable_text.hpp"
#include "frontend/config/config_loader.hpp"
#include "frontend/problem.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"

namespace spk::app {

namespace {

struct PreconditionerSpec {
  std::string text;  // as given, e.g. "amg:ellpack-r:smoother_degree=2"
  std::string kind;
  Options options;
};

// kind[:format][:key=value...] through the config reader: unknown kinds, formats and keys
// get the reader's one-line errors.
PreconditionerSpec parse_spec(const std::string& text, const BenchCommandOptions& bench) {
  PreconditionerSpec spec;
  spec.text = text;
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ':');) parts.push_back(part);
  if (parts.empty() || parts[0].empty())
    throw BadInput("bench --preconditioners: empty entry '" + shown_name(text) + "'");
  spec.kind = parts[0];
  char tolerance[32];
  std::snprintf(tolerance, sizeof tolerance, "%.17g", bench.solver_tolerance);
  std::vector<std::string> overrides = {
      "solver.preconditioner=" + spec.kind,
      std::string("solver.tolerance=") + tolerance,
      "solver.tolerance_mode=rhs",
      "solver.max_iterations=" + std::to_string(bench.max_iterations),
      "solver.keep_history=false",
      "device=gpu"};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].find('=') == std::string::npos && i == 1)
      overrides.push_back("spmv.format=" + parts[i]);
    else
      overrides.push_back("solver.preconditioner_options." + parts[i]);
  }
  const RunConfig config =
      parse_run_config(to_yaml(default_run_config()),
                       "bench --preconditioners '" + shown_name(text) + "'", overrides);
  spec.options = Options{config.solver, config.spmv, Device::gpu};
  return spec;
}

struct PreconditionerRow {
  std::string matrix, spec, status;
  int iterations = 0, executed = 0;
  double relative_true_residual = 0.0;
  double setup_device_ms = 0.0, setup_host_ms = 0.0, solve_ms = 0.0;
  double solve_speedup = 0.0, total_speedup = 0.0;  // against the matrix's jacobi row
};

template <class Build>
double timed_setup_ms(Build&& build) {
  SPK_CUDA_CHECK(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  build();
  SPK_CUDA_CHECK(cudaDeviceSynchronize());
  return 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_levels(const SetupInfo& setup) {
  const PreconditionerInfo& info = setup.preconditioner;
  for (const auto& [name, value] : info.details)
    std::cout << "      " << name << ": " << value << "\n";
  for (std::size_t l = 0; l < info.levels.size(); ++l)
    std::printf("      level %zu: %lld rows, %lld nonzeros, %s\n", l, info.levels[l].rows,
                info.levels[l].nnz, info.levels[l].format.c_str());
  if (!info.setup_phases_s.empty()) {
    std::cout << "      setup phases (ms):";
    for (const auto& [phase, seconds] : info.setup_phases_s)
      std::printf(" %s %.1f", phase.c_str(), 1e3 * seconds);
    std::cout << "\n";
  }
}

PreconditionerRow bench_spec(const BenchCommandOptions& bench, const Problem& problem,
                             const CsrArrays<double>& host, const CsrArrays<double>& device,
                             const PreconditionerSpec& spec) {
  const CsrMatrix<double>& a = problem.matrix;
  const std::size_t n = static_cast<std::size_t>(a.rows);
  const DeviceBuffer<double> b(std::vector<double>(n, 1.0), "bench b");
  DeviceBuffer<double> x(n, "bench x");
  PreconditionerRow row;
  row.matrix = problem.name;
  row.spec = spec.text;
  { Solver<double> warm_up(device, spec.options); }  // handles, modules, tuning cache
  std::vector<double> setup_host, setup_device, solve;
  SolveResult last;
  std::unique_ptr<Solver<double>> solver;
  for (int run = 0; run < bench.repeat; ++run) {
    solver.reset();
    setup_host.push_back(timed_setup_ms([&] { Solver<double> s(host, spec.options); }));
    setup_device.push_back(
        timed_setup_ms([&] { solver = std::make_unique<Solver<double>>(device, spec.options); }));
    SPK_CUDA_CHECK(cudaMemset(x.data(), 0, n * sizeof(double)));
    (void)solver->solve(b.data(), x.data());  // untimed: lazy resources, graph capture
    SPK_CUDA_CHECK(cudaMemset(x.data(), 0, n * sizeof(double)));
    last = solver->solve(b.data(), x.data());
    solve.push_back(1e3 * last.solve_s);
  }
  row.status = to_string(last.status);
  row.iterations = last.iterations;
  row.executed = last.iterations_executed;
  row.relative_true_residual = last.relative_true_residual;
  row.setup_host_ms = median(setup_host);
  row.setup_device_ms = median(setup_device);
  row.solve_ms = median(solve);
  row.spec = spec.text + " (" + solver->setup_info().operator_name + ")";
  if (spec.kind == "amg") print_levels(solver->setup_info());
  return row;
}

void print_header() {
  std::printf("%-44s %6s %-10s %11s %10s %10s %9s %8s %7s %7s\n", "preconditioner (format)",
              "iters", "status", "true relres", "setup dev", "setup host", "solve ms", "ms/iter",
              "solve x", "total x");
}

void print_row(const PreconditionerRow& row) {
  std::printf("%-44s %6d %-10s %11.3e %10.1f %10.1f %9.2f %8.4f %6.2fx %6.2fx\n", row.spec.c_str(),
              row.iterations, row.status.c_str(), row.relative_true_residual, row.setup_device_ms,
              row.setup_host_ms, row.solve_ms, row.executed > 0 ? row.solve_ms / row.executed : 0.0,
              row.solve_speedup, row.total_speedup);
}

void write_csv(const std::string& path, const std::vector<PreconditionerRow>& rows,
               const std::string& device) {
  std::ofstream out(path);
  if (!out) throw BadInput(shown_name(path) + ": cannot open for writing");
  out << "# device: " << device << "\n";
  out << "matrix,preconditioner,iterations,iterations_executed,status,relative_true_residual,"
         "setup_device_ms,setup_host_ms,solve_ms,solve_speedup_vs_jacobi,"
         "setup_plus_solve_speedup_vs_jacobi\n";
  for (const auto& row : rows)
    out << '"' << row.matrix << "\",\"" << row.spec << "\"," << row.iterations << ','
        << row.executed << ',' << row.status << ',' << row.relative_true_residual << ','
        << row.setup_device_ms << ',' << row.setup_host_ms << ',' << row.solve_ms << ','
        << row.solve_speedup << ',' << row.total_speedup << '\n';
  if (!out) throw BadInput(shown_name(path) + ": write failed");
}

std::vector<MatrixSpec> matrices_of(const BenchCommandOptions& bench) {
  std::vector<MatrixSpec> specs;
  for (const int n : bench.sizes) {
    MatrixSpec spec;
    GeneratorSpec generator;
    generator.kind = "poisson3d";
    generator.n = n;
    spec.generate = generator;
    specs.push_back(spec);
  }
  for (const std::string& file : bench.matrix_files) {
    MatrixSpec spec;
    spec.file = file;
    specs.push_back(spec);
  }
  return specs;
}

}  // namespace

int run_preconditioner_bench(const BenchCommandOptions& bench) {
  const DeviceInfo device_info = bench_device();
  std::vector<PreconditionerSpec> specs;
  for (const std::string& text : bench.preconditioners) specs.push_back(parse_spec(text, bench));
  std::cout << "device        " << device_info.name << "\n";
  std::cout << "method        CG, b = ones, tolerance " << bench.solver_tolerance
            << " relative to ||b||, CUDA graphs on, fp64\n";
  std::cout << "timing        median of " << bench.repeat
            << " fresh setups (after one untimed), each solved once untimed and once timed;\n"
               "              setup dev/host: Solver from CSR arrays on the device / on the host "
               "(wall clock, synchronized);\n"
               "              solve: SolveResult::solve_s; ms/iter: solve / iterations executed;\n"
               "              solve x, total x: speedup of solve, and of setup dev + solve, over "
               "the first jacobi entry\n";
  std::vector<PreconditionerRow> rows;
  int failures = 0;
  for (const MatrixSpec& matrix_spec : matrices_of(bench)) {
    const Problem problem = load_matrix(matrix_spec);
    const CsrMatrix<double>& a = problem.matrix;
    std::cout << "\n== " << problem.name << ": " << a.rows << " rows, " << a.nnz() << " nonzeros\n";
    const DeviceBuffer<index_t> offsets(a.row_offsets, "bench row offsets");
    const DeviceBuffer<index_t> columns(a.columns, "bench columns");
    const DeviceBuffer<double> values(a.values, "bench values");
    const CsrArrays<double> host = arrays_of(a);
    CsrArrays<double> device = host;
    device.row_offsets = offsets.data();
    device.columns = columns.data();
    device.values = values.data();
    device.on_device = true;
    std::size_t jacobi = 0;  // index + 1 of the matrix's first jacobi row; 0: none
    const std::size_t first = rows.size();
    for (const PreconditionerSpec& spec : specs) {
      std::cout << "  " << spec.text << "\n";
      rows.push_back(bench_spec(bench, problem, host, device, spec));
      PreconditionerRow& row = rows.back();
      if (row.status != "converged" || row.relative_true_residual > bench.solver_tolerance)
        ++failures;
      if (jacobi == 0 && spec.kind == "jacobi") jacobi = rows.size();
    }
    print_header();
    for (std::size_t i = first; i < rows.size(); ++i) {
      PreconditionerRow& row = rows[i];
      if (jacobi != 0 && row.solve_ms > 0.0) {
        const PreconditionerRow& base = rows[jacobi - 1];
        row.solve_speedup = base.solve_ms / row.solve_ms;
        row.total_speedup =
            (base.setup_device_ms + base.solve_ms) / (row.setup_device_ms + row.solve_ms);
      }
      print_row(row);
    }
  }
  if (!bench.csv_path.empty()) write_csv(bench.csv_path, rows, device_info.name);
  if (failures > 0) {
    std::cerr << "error: " << failures << " solves did not converge to the tolerance\n";
    return 1;
  }
  return 0;
}

}  // namespace spk::app
