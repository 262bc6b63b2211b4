// Host threads per process (distributed/process_threads.hpp): OMP_NUM_THREADS decides when set;
// otherwise each process of a host takes its share of the host's CPUs, capped by its affinity
// mask. A DistributedSolver's calls run on that count and give the caller's count back.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "distributed/host_processes.hpp"
#include "distributed/process_threads.hpp"
#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

TEST(ProcessThreads, ShareOfTheHostsCpus) {
  EXPECT_EQ(share_of_cpus(64, 64, 4), 16);  // mpirun --bind-to none: the whole host each
  EXPECT_EQ(share_of_cpus(64, 32, 4), 16);  // bound to a socket of 32
  EXPECT_EQ(share_of_cpus(64, 1, 4), 1);    // bound to one core
  EXPECT_EQ(share_of_cpus(64, 0, 1), 64);   // affinity not known: the share alone
  EXPECT_EQ(share_of_cpus(2, 2, 4), 1);     // more processes than CPUs: one thread each
  EXPECT_EQ(share_of_cpus(16, 16, 3), 5);
  EXPECT_EQ(share_of_cpus(0, 0, 0), 1);  // nothing known: one
}

// Sets or removes OMP_NUM_THREADS for a scope and puts the caller's value back.
class ScopedThreadsVariable {
 public:
  explicit ScopedThreadsVariable(const char* value) {
    if (const char* old = std::getenv("OMP_NUM_THREADS")) saved_ = old, had_ = true;
    if (value != nullptr) {
      setenv("OMP_NUM_THREADS", value, 1);
    } else {
      unsetenv("OMP_NUM_THREADS");
    }
  }
  ~ScopedThreadsVariable() {
    if (had_) {
      setenv("OMP_NUM_THREADS", saved_.c_str(), 1);
    } else {
      unsetenv("OMP_NUM_THREADS");
    }
  }
  ScopedThreadsVariable(const ScopedThreadsVariable&) = delete;
  ScopedThreadsVariable& operator=(const ScopedThreadsVariable&) = delete;

 private:
  std::string saved_;
  bool had_ = false;
};

int processes_on_this_host() {
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int size = 0;
  MPI_Comm_size(host, &size);
  MPI_Comm_free(&host);
  return size;
}

TEST(ProcessThreads, HostProcessesAreThisHostsRankAndCount) {
  const HostProcesses on_host = host_processes(MPI_COMM_WORLD);
  EXPECT_EQ(on_host.count, processes_on_this_host());
  EXPECT_GE(on_host.rank, 0);
  EXPECT_LT(on_host.rank, on_host.count);
}

TEST(ProcessThreads, TheVariableDecidesWhenSet) {
  const ScopedThreadsVariable variable("3");
  const int before = omp_get_max_threads();
  omp_set_num_threads(3);
  EXPECT_EQ(threads_per_process(MPI_COMM_WORLD), 3);
  omp_set_num_threads(before);
}

TEST(ProcessThreads, WithoutTheVariableEachProcessTakesItsShare) {
  const ScopedThreadsVariable variable(nullptr);
  const int threads = threads_per_process(MPI_COMM_WORLD);
  const int cpus = static_cast<int>(std::thread::hardware_concurrency());
  const int local = processes_on_this_host();
  ASSERT_GE(local, 1);
  EXPECT_GE(threads, 1);
  EXPECT_LE(threads, std::max(1, cpus / local));
}

TEST(ProcessThreads, TheSolverRunsOnTheShareAndGivesTheCallersCountBack) {
  const ScopedThreadsVariable variable(nullptr);
  const int before = omp_get_max_threads();
  omp_set_num_threads(7);  // the caller's own count, kept around the solver's calls
  const CsrMatrix<double> whole = test::generated_case("poisson3d", 10);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = test::my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                   test::cpu_options(Method::cg, Preconditioner::jacobi));
  EXPECT_EQ(omp_get_max_threads(), 7);
  const int share = threads_per_process(MPI_COMM_WORLD);
  const std::string expected =
      "CPU (" + std::to_string(share) + " thread" + (share > 1 ? "s" : "") + " per process";
  EXPECT_EQ(solver.setup_info().device_name.rfind(expected, 0), 0u)
      << solver.setup_info().device_name;
  std::vector<double> b(static_cast<std::size_t>(rows.rows), 1.0), x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_EQ(result.status, SolveStatus::converged);
  EXPECT_EQ(omp_get_max_threads(), 7);
  omp_set_num_threads(before);
}

}  // namespace
}  // namespace spk
