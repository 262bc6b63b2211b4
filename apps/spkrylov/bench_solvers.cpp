#include "bench_solvers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "baseline_solvers.hpp"
#include "bench_command.hpp"
#include "bench_suite.hpp"
#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "core/event_timer.hpp"
#include "core/printable_text.hpp"
#include "frontend/problem.hpp"
#include "solver/device_context.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "spmv/registry.hpp"
#include "vector_ops_timing.hpp"

namespace spk::app {

namespace {

struct SolverBenchRow {
  std::string matrix;
  std::string method;
  std::string solver;  // "baseline (sample)" or "spkrylov <format> [graph]"
  int iterations = 0;
  std::string status;
  double relative_true_residual = 0.0;
  double solve_ms = 0.0;
  double ms_per_iteration = 0.0;
  double speedup_vs_baseline = 0.0;  // per iteration
  double spmv_ms = 0.0;              // one SpMV alone
  double vector_ops_ms = 0.0;        // one iteration's vector ops alone
  double overhead_ratio = 0.0;       // ms_per_iteration / (spmvs * spmv_ms + vector_ops_ms)
  double floor_share = 0.0;          // CG: fused floor ms / ms_per_iteration (0: no floor)
};

// The fused floor of one CG iteration (the model BENCHMARKS.md states): the
// CSR-minimal bytes of one fp64 SpMV (each value and column once, row offsets, x read and y
// written once) plus 7 passes over n fp64 values (the fewest vector reads and writes of a CG
// iteration besides the SpMV's), moved at the copy bandwidth measured in the same run.
double cg_fused_floor_ms(const CsrMatrix<double>& a, double copy_gbs) {
  const double n = static_cast<double>(a.rows);
  const double spmv_bytes = 12.0 * static_cast<double>(a.nnz()) + 4.0 * (n + 1.0) + 16.0 * n;
  const double vector_bytes = 7.0 * 8.0 * n;
  return (spmv_bytes + vector_bytes) / (copy_gbs * 1e9) * 1e3;
}

double relative_residual(const CsrMatrix<double>& a, const std::vector<double>& b,
                         const std::vector<double>& x) {
  std::vector<double> ax(b.size());
  reference_spmv(a, x.data(), ax.data());
  double r2 = 0.0, b2 = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
    b2 += b[i] * b[i];
  }
  return b2 > 0.0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
}

void print_header(std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-46s %6s %-17s %12s %9s %10s %8s %7s %8s %8s %7s\n", "solver",
                "iters", "status", "true rel res", "solve ms", "ms/iter", "vs base", "SpMV ms",
                "vec ms", "ovhd", "%floor");
  out << line;
}

void print_row(std::ostream& out, const SolverBenchRow& row) {
  char line[320];
  char floor[16] = "-";
  if (row.floor_share > 0.0) std::snprintf(floor, sizeof floor, "%.1f%%", 100.0 * row.floor_share);
  std::snprintf(line, sizeof line,
                "%-46s %6d %-17s %12.3e %9.1f %10.4f %7.2fx %8.4f %8.4f %7.3f %7s\n",
                row.solver.c_str(), row.iterations, row.status.c_str(), row.relative_true_residual,
                row.solve_ms, row.ms_per_iteration, row.speedup_vs_baseline, row.spmv_ms,
                row.vector_ops_ms, row.overhead_ratio, floor);
  out << line;
}

void write_csv(const std::string& path, const std::vector<SolverBenchRow>& rows,
               const std::string& device) {
  std::ofstream out(path);
  if (!out) throw BadInput(shown_name(path) + ": cannot open for writing");
  out << "# device: " << device << "\n";
  out << "matrix,method,solver,iterations,status,relative_true_residual,solve_ms,ms_per_iteration,"
         "speedup_vs_baseline,spmv_ms,vector_ops_ms,overhead_ratio,fused_floor_share\n";
  for (const auto& row : rows)
    out << '"' << row.matrix << "\"," << row.method << ',' << row.solver << ',' << row.iterations
        << ',' << row.status << ',' << row.relative_true_residual << ',' << row.solve_ms << ','
        << row.ms_per_iteration << ',' << row.speedup_vs_baseline << ',' << row.spmv_ms << ','
        << row.vector_ops_ms << ',' << row.overhead_ratio << ',' << row.floor_share << '\n';
  if (!out) throw BadInput(shown_name(path) + ": write failed");
}

std::vector<std::string> solver_formats(const BenchCommandOptions& bench) {
  if (!bench.formats.empty()) return bench.formats;
  return {"cusparse",  "csr-vector", "aligned-csr", "ellpack",
          "ellpack-r", "hyb",        "csr-merge",   "sell"};
}

void bench_matrix(const BenchCommandOptions& bench, const SolverBenchMatrix& entry, double copy_gbs,
                  std::vector<SolverBenchRow>& rows, int& failures) {
  const Problem problem = load_matrix(entry.matrix.spec);
  const CsrMatrix<double>& a = problem.matrix;
  const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
  const char* method_name = to_string(entry.method);
  std::cout << "\n== " << entry.matrix.label << " (" << method_name << "): " << a.rows << " rows, "
            << a.nnz() << " nonzeros, b = ones, tolerance " << bench.solver_tolerance << " (rhs)\n";
  print_header(std::cout);

  const double vector_ops_ms = time_vector_ops_ms<double>(entry.method, a.rows, bench.runs);
  const int spmvs = spmv_per_iteration(entry.method);
  const double floor_ms = entry.method == Method::cg ? cg_fused_floor_ms(a, copy_gbs) : 0.0;
  if (floor_ms > 0.0)
    std::cout << "fused floor   " << floor_ms << " ms per CG iteration (CSR-minimal SpMV bytes + "
              << "7 n fp64 values, at the copy bandwidth)\n";

  // Baseline: warm-up solve, then the timed one.
  SolverBenchRow base;
  base.matrix = entry.matrix.label;
  base.method = method_name;
  base.solver = "baseline (NVIDIA sample)";
  {
    DeviceContext context;
    SpmvOptions cusparse;
    cusparse.format = Format::cusparse;
    const auto backend = make_spmv_backend(a, cusparse, context.stream());
    DeviceBuffer<double> b_device(b, "baseline b");
    DeviceBuffer<double> x_device(b.size(), "baseline x");
    (void)baseline_solve<double>(entry.method, *backend, b_device.data(), x_device.data(),
                                 bench.solver_tolerance, std::min(20, bench.max_iterations),
                                 context.stream());
    const BaselineResult result =
        baseline_solve<double>(entry.method, *backend, b_device.data(), x_device.data(),
                               bench.solver_tolerance, bench.max_iterations, context.stream());
    base.iterations = result.iterations;
    base.relative_true_residual = relative_residual(a, b, x_device.to_host());
    base.status = result.breakdown                                        ? "breakdown"
                  : base.relative_true_residual <= bench.solver_tolerance ? "converged"
                                                                          : "not converged";
    base.solve_ms = 1e3 * result.solve_s;
    base.ms_per_iteration = result.iterations > 0 ? base.solve_ms / result.iterations : 0.0;
    base.speedup_vs_baseline = 1.0;
    base.vector_ops_ms = vector_ops_ms;
  }
  print_row(std::cout, base);
  rows.push_back(base);

  SolverOptions options;
  options.method = entry.method;
  options.tolerance = bench.solver_tolerance;
  options.tolerance_mode = ToleranceMode::rhs;
  options.max_iterations = bench.max_iterations;
  options.keep_history = false;
  struct Variant {
    std::string format, vector_ops, values;
    bool graph;
  };
  std::vector<Variant> variants;
  for (const std::string& format : solver_formats(bench))
    for (const std::string& ops : bench.vector_ops)
      for (const std::string& values : bench.values)
        for (const std::string& graph : bench.graphs)
          variants.push_back({format, ops, values, graph == "on"});
  for (const Variant& variant : variants) {
    const bool graph = variant.graph;
    const std::string suffix =
        (variant.vector_ops == "fused" ? " fused" : "") + std::string(graph ? " +graph" : "");
    SolverBenchRow row;
    row.matrix = entry.matrix.label;
    row.method = method_name;
    row.solver =
        "spkrylov " + variant.format + (variant.values == "mixed" ? "/fp32-values" : "") + suffix;
    try {
      SpmvOptions spmv;
      spmv.format = parse_format(variant.format);
      spmv.x_cache = XCache::ldg;
      spmv.matrix_values = variant.values == "mixed" ? MatrixValues::single : MatrixValues::solver;
      options.cuda_graph = graph;
      options.vector_ops = variant.vector_ops == "fused" ? VectorOps::fused : VectorOps::cublas;
      Solver<double> solver(arrays_of(a), Options{options, spmv, Device::gpu});
      std::vector<double> x(b.size(), 0.0);
      (void)solver.solve(b, x);  // warm-up: lazy resources, graph capture
      std::fill(x.begin(), x.end(), 0.0);
      const SolveResult result = solver.solve(b, x);
      row.solver = "spkrylov " + solver.setup_info().operator_name + suffix;
      row.iterations = result.iterations_executed;
      row.status = to_string(result.status);
      row.relative_true_residual = result.relative_true_residual;
      row.solve_ms = 1e3 * result.solve_s;
      row.ms_per_iteration = result.ms_per_iteration();
      row.speedup_vs_baseline =
          row.ms_per_iteration > 0.0 ? base.ms_per_iteration / row.ms_per_iteration : 0.0;
      row.spmv_ms = solver.time_spmv_ms(bench.runs);
      row.vector_ops_ms = vector_ops_ms;
      row.overhead_ratio = row.ms_per_iteration / (spmvs * row.spmv_ms + vector_ops_ms);
      row.floor_share =
          floor_ms > 0.0 && row.ms_per_iteration > 0.0 ? floor_ms / row.ms_per_iteration : 0.0;
      if (!result.converged()) ++failures;
    } catch (const BadInput& error) {
      row.status = std::string("refused: ") + error.what();
    }
    print_row(std::cout, row);
    rows.push_back(row);
  }
}

}  // namespace

int run_solver_bench(const BenchCommandOptions& bench) {
  const DeviceInfo device = bench_device();
  const std::string device_text = device.name + " (sm_" + std::to_string(device.compute_major) +
                                  std::to_string(device.compute_minor) + ")";
  DeviceContext context;
  const std::size_t copy_bytes = std::max<std::size_t>(device.l2_cache_bytes * 16, 256u << 20);
  const double copy_gbs = measure_copy_bandwidth_gbs(context.stream(), copy_bytes);
  std::cout << "device        " << device_text << "\n";
  std::cout << "copy          " << copy_gbs << " GB/s (device-to-device, read + write, "
            << (copy_bytes >> 20) << " MB buffers, median of 20)\n";
  std::cout << "baseline      NVIDIA CUDA sample style: cuSPARSE SpMV (CSR ALG1), cuBLAS in host "
               "pointer mode (each reduction synchronizes), host scalars\n";
  std::cout << "spkrylov      device-resident scalars, cuBLAS device pointer mode, residual read "
               "every check_every=16 iterations, x_cache ldg\n";
  std::cout << "ms/iter       solve time / iterations executed (spkrylov counts the up to 15 "
               "iterations run past convergence before a check)\n";
  std::cout << "ovhd          ms/iter / (SpMVs per iter x SpMV alone + cuBLAS vector ops alone); "
               "1.00 = no loop overhead (fused rows: below 1 is the fusion's gain)\n";
  std::cout << "%floor        CG: the fused floor / ms/iter (CSR-minimal SpMV bytes + 7 n fp64 "
               "values at the copy bandwidth)\n";
  std::vector<SolverBenchRow> rows;
  int failures = 0;
  for (const SolverBenchMatrix& entry : solver_bench_suite(bench.suite))
    if (entry.matrix.label.find(bench.only) != std::string::npos)
      bench_matrix(bench, entry, copy_gbs, rows, failures);
  if (!bench.csv_path.empty()) write_csv(bench.csv_path, rows, device_text);
  if (failures > 0) {
    std::cerr << "error: " << failures << " spkrylov solves did not converge\n";
    return 2;
  }
  return 0;
}

}  // namespace spk::app
