#include "frontend/compare_table.hpp"

#include <cstdio>

namespace spk::app {

namespace {

const RunReport* find_run(const std::vector<RunReport>& runs, const std::string& prefix) {
  for (const auto& run : runs)
    if (run.setup.operator_name.rfind(prefix, 0) == 0) return &run;
  return nullptr;
}

std::string speedup(const RunReport* reference, const RunReport& run) {
  if (reference == nullptr || run.result.solve_s <= 0.0) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", reference->result.solve_s / run.result.solve_s);
  return text;
}

}  // namespace

void print_compare_table(std::ostream& out, const std::vector<RunReport>& runs) {
  const RunReport* scalar = find_run(runs, "csr-scalar");
  const RunReport* cusparse = find_run(runs, "cusparse");
  char line[512];
  std::snprintf(line, sizeof line, "%-26s %-7s %-6s %6s %4s %-15s %10s %9s %9s %9s %6s %10s %10s\n",
                "format", "ops", "prec", "iters", "repl", "status", "true res", "setup ms",
                "solve ms", "ms/iter", "SpMV%", "vs scalar", "vs cusp");
  out << line;
  for (const auto& run : runs) {
    const SolveResult& r = run.result;
    const double spmv_share = r.solve_s > 0.0 ? 100.0 * run.spmv_ms * 1e-3 *
                                                    spmv_per_iteration(run.solver.method) *
                                                    r.iterations_executed / r.solve_s
                                              : 0.0;
    std::snprintf(line, sizeof line,
                  "%-26s %-7s %-6s %6d %4d %-15s %10.3e %9.2f %9.2f %9.4f %5.0f%% %10s %10s\n",
                  compare_row_name(run).c_str(), to_string(run.solver.vector_ops),
                  run.precision.c_str(), r.iterations, r.residual_replacements, to_string(r.status),
                  r.relative_true_residual, 1e3 * run.setup.setup_s, 1e3 * r.solve_s,
                  r.ms_per_iteration(), spmv_share, speedup(scalar, run).c_str(),
                  speedup(cusparse, run).c_str());
    out << line;
  }
  if (!runs.empty() && !runs.front().requested_format.empty()) out << cpu_compare_note << ".\n";
  out << "ops = solver.vector_ops; prec = precision (mixed: fp32 matrix values); repl = residual\n"
         "replacements (refinement steps under mixed); true res = ||b-Ax||/||b||;\n"
         "SpMV% = SpMV time alone x SpMVs executed / solve time;\n"
         "vs scalar / vs cusp = solve-time speedup over csr-scalar / cusparse in this run\n";
}

}  // namespace spk::app
