#pragma once
// `spkrylov bench`: SpMV bandwidth of every backend on a suite of matrices several times
// the L2 cache, each checked against the CPU reference before it is timed, with the device
// copy bandwidth and cuSPARSE measured in the same run.
#include <string>
#include <vector>

#include "core/device.hpp"

namespace spk::app {

struct BenchCommandOptions {
  std::string suite = "default";          // default | small | none
  std::vector<std::string> matrix_files;  // extra .mtx files
  std::string only;                       // run only the matrices whose label contains this
  std::vector<std::string> formats;       // empty: every format
  std::vector<std::string> x_caches = {"none", "ldg", "texture"};
  std::vector<std::string> precisions = {"double"};
  int runs = 50;
  int warmup = 5;
  std::string csv_path;
  std::string json_path;
  // --solvers: end-to-end solver timing instead of SpMV bandwidth.
  bool solvers = false;
  // --update-values: Solver::update_values against one SpMV, per format.
  bool update_values = false;
  // --preconditioners: time to solution per preconditioner (bench_preconditioners.hpp) on
  // the 7-point Poisson systems of --sizes, with --repeat fresh setups.
  std::vector<std::string> preconditioners;
  std::vector<int> sizes = {64, 128, 160};
  int repeat = 3;
  double solver_tolerance = 1e-8;
  int max_iterations = 20000;
  // --solvers: the variants of each format's solve (every combination is a row).
  std::vector<std::string> vector_ops = {"cublas", "fused"};  // solver.vector_ops
  std::vector<std::string> values = {"double"};               // double | mixed (fp32 values)
  std::vector<std::string> graphs = {"off", "on"};            // solver.cuda_graph
};

int run_bench_command(const BenchCommandOptions& options);

// The GPU a bench runs on; without one, spk::NoDevice says why and that bench (which has no
// CPU path and no device key) needs a GPU.
DeviceInfo bench_device();

}  // namespace spk::app
