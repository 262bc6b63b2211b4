// heat3d: an implicit heat-equation simulation that embeds spkrylov through its public API
// (<spkrylov/spkrylov.hpp>, spkrylov::spkrylov). Every step the conductivity changes, so the
// matrix values change and the pattern does not: one Solver, update_values each step.
//
//   heat3d [--n 64] [--steps 10] [--dt 1e-3] [--device auto|gpu|cpu] [--format csr-vector]
//          [--preconditioner none|jacobi|chebyshev|ic0|ilu0|amg]
//
// Per step it prints the iterations, the solve time and the share of the step spent outside
// the solver (value assembly on the host, update_values or, at step 1, the whole setup).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "heat_simulation.hpp"

int main(int argc, char** argv) {
  CLI::App app{"heat3d: implicit Euler heat equation with a time-dependent conductivity"};
  int n = 64, steps = 10;
  double dt = 1e-3, tolerance = 1e-10;
  std::string device = "auto", format = "csr-vector", preconditioner = "jacobi";
  app.add_option("--n", n, "grid points per dimension")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--steps", steps, "time steps")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--dt", dt, "time step")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--tolerance", tolerance, "solver.tolerance (relative to ||b||)")
      ->capture_default_str();
  app.add_option("--device", device, "auto | gpu | cpu")
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}))
      ->capture_default_str();
  app.add_option("--format", format, "spmv.format")->capture_default_str();
  const std::vector<spk::Preconditioner> preconditioners{
      spk::Preconditioner::none, spk::Preconditioner::jacobi, spk::Preconditioner::chebyshev,
      spk::Preconditioner::ic0,  spk::Preconditioner::ilu0,   spk::Preconditioner::amg};
  std::vector<std::string> preconditioner_names;
  for (const auto kind : preconditioners) preconditioner_names.emplace_back(spk::to_string(kind));
  app.add_option("--preconditioner", preconditioner,
                 "solver.preconditioner (defaults of its preconditioner_options)")
      ->check(CLI::IsMember(preconditioner_names))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    spk::Options options;
    options.device = device == "gpu"   ? spk::Device::gpu
                     : device == "cpu" ? spk::Device::cpu
                                       : spk::Device::automatic;
    options.solver.method = spk::Method::cg;
    options.solver.tolerance = tolerance;
    for (const auto kind : preconditioners)
      if (preconditioner == spk::to_string(kind)) options.solver.preconditioner = kind;
    options.solver.keep_history = false;
    options.spmv.format = spk::parse_format(format);
    heat3d::HeatSimulation simulation(heat3d::HeatProblem(n, dt, 20 * dt), dt, options);
    std::printf("heat3d n=%d (%d unknowns), dt=%g, %d steps\n", n, n * n * n, dt, steps);
    int failures = 0;
    double total_solve = 0.0, total_step = 0.0, total_update = 0.0;
    for (int s = 0; s < steps; ++s) {
      const heat3d::StepReport r = simulation.step();
      if (s == 0) {  // the solver (and so its device) exists from the first step on
        std::printf("on %s, format %s\n", simulation.solver()->setup_info().device_name.c_str(),
                    simulation.solver()->setup_info().operator_name.c_str());
        std::printf("%5s %8s %6s %-10s %10s %11s %10s %9s %9s %8s\n", "step", "t", "iters",
                    "status", "true res", "assemble ms", "update ms", "solve ms", "step ms",
                    "outside");
      }
      std::printf("%5d %8.4f %6d %-10s %10.3e %11.3f %10.3f %9.3f %9.3f %7.1f%%\n", r.step, r.time,
                  r.iterations, r.status.c_str(), r.relative_residual, r.assemble_ms, r.update_ms,
                  r.solve_ms, r.step_ms, 100.0 * r.outside_share());
      if (r.status != "converged") ++failures;
      if (s > 0) total_solve += r.solve_ms, total_step += r.step_ms, total_update += r.update_ms;
    }
    if (steps > 1 && total_step > 0.0)
      std::printf(
          "steps 2..%d: %.1f%% of the time outside the solve: update_values %.1f%%, the "
          "example's own host assembly the rest\n",
          steps, 100.0 * (1.0 - total_solve / total_step), 100.0 * total_update / total_step);
    // A preconditioner that reports its re-setup (AMG): beside its first setup.
    const spk::PreconditionerInfo& built = simulation.solver()->setup_info().preconditioner;
    for (const auto& [name, value] : built.details)
      if (name == "resetup_ms")
        std::printf("preconditioner %s: setup %.3f ms, last re-setup (update_values) %s ms\n",
                    built.name.c_str(), 1e3 * built.setup_s, value.c_str());
    return failures == 0 ? 0 : 2;
  } catch (const spk::NoDevice& error) {
    std::cerr << "error: " << error.what() << " (use --device cpu or --device auto)\n";
    return 1;
  } catch (const spk::Error& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
}
