#pragma once
// Where the AMG hierarchy is built. The hierarchy's driver (solver/amg/hierarchy.hpp: the
// per-level loop, the stopping rules, D^-1 and its checks, the eigen estimates, the phase
// times) is written once against a Build, which holds the memory the levels live in and the
// pieces that differ by place:
//   HostAmgBuild   (solver/amg/host_amg_build.hpp)    host arrays, the CPU path;
//   DeviceAmgBuild (solver/amg/device_amg_build.hpp)  device arrays, the GPU path: every piece
//                  (strength, aggregation, prolongators, Galerkin product) runs on the GPU.
// A Build provides:
//   Space, Array<U>          the vector space of the setup (HostSpace<double> or
//                            DeviceSpace<double>) and its arrays
//   Matrix                   a level matrix (CsrMatrix<double> or DeviceCsrMatrix<double>)
//   Graph, Aggregates,       the strength graph, the aggregates, the smoothed prolongator and
//   Prolongator, Galerkin    the Galerkin product of that place, with the same interface
//   strength, aggregate, tentative, prolongator, galerkin   build them
//   spmv_operator            A_l as a LinearOperator<double> (the Lanczos estimate)
//   to_host, from_host, set_values   the coarsest level to and from the host (dense LU)
//   fine_matrix, set_fine_values     the solver's matrix (values in T) as the finest level
//   convert                  to[i] = T(factor * from[i]) into the solver's space (smoothers)
//   synchronize              waits for the setup's work (phase times)
//   global_rows, global_nnz, global_count, process_rows, agreed   the sizes every decision
//                            is taken from and the steps that may fail on one process: over
//                            every process for DistributedAmgBuild (distributed/amg/), the
//                            local ones for a one-process build (OneProcessBuild)
// AmgBuildOf<Space>::type is the Build of a solver's vector space, AmgBuildOf<Space>::make
// creates it (on the solver's stream); each solver includes its specialization.
#include <cstdint>
#include <utility>

namespace spk {

template <class Space>
struct AmgBuildOf;

// How a level's rows are spread over the processes: the fewest and most a process holds, and
// how many of the processes hold any (fewer than at the finer level: agglomerated).
struct ProcessRows {
  std::int64_t fewest = 0;
  std::int64_t most = 0;
  int holding = 1;
  int processes = 1;
};

// A one-process build's global sizes are its own, and a step is agreed by itself.
template <class Matrix, class Aggregates>
struct OneProcessBuild {
  static std::int64_t global_rows(const Matrix& matrix) { return matrix.rows; }
  static std::int64_t global_nnz(const Matrix& matrix) { return matrix.nnz(); }
  static std::int64_t global_count(const Aggregates& aggregates) { return aggregates.count; }
  static ProcessRows process_rows(const Matrix& matrix) { return {matrix.rows, matrix.rows, 1, 1}; }
  template <class Step>
  static void agreed(Step&& step) {
    step();
  }
};

}  // namespace spk
