// The CPU path's thread count: one thread per 4,000 rows (solver/host_threads.hpp), unless
// the caller set OMP_NUM_THREADS; the report says what was chosen, in good English.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "solver/host_threads.hpp"
#include "spkrylov/solver.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// OMP_NUM_THREADS unset for the scope (ctest may set it), and OpenMP's count set to `count`.
class WithoutThreadsVariable {
 public:
  explicit WithoutThreadsVariable(int count) : available_(omp_get_max_threads()) {
    if (const char* value = std::getenv("OMP_NUM_THREADS")) saved_ = value;
    unsetenv("OMP_NUM_THREADS");
    omp_set_num_threads(count);
  }
  ~WithoutThreadsVariable() {
    if (saved_) setenv("OMP_NUM_THREADS", saved_->c_str(), 1);
    omp_set_num_threads(available_);
  }

 private:
  std::optional<std::string> saved_;
  int available_;
};

TEST(HostThreads, OneThreadPerFourThousandRowsAtMostOpenMpsCount) {
  const WithoutThreadsVariable scope(8);
  EXPECT_EQ(host_threads_for(1), 1);
  EXPECT_EQ(host_threads_for(2500), 1);
  EXPECT_EQ(host_threads_for(7999), 1);
  EXPECT_EQ(host_threads_for(8000), 2);
  EXPECT_EQ(host_threads_for(20000), 5);
  EXPECT_EQ(host_threads_for(10'000'000), 8);
  EXPECT_EQ(describe_host_threads(8), "CPU (8 threads)");
  EXPECT_EQ(describe_host_threads(1), "CPU (1 of 8 threads: 4,000 rows a thread)");
}

TEST(HostThreads, TheCallersOmpNumThreadsWins) {
  const WithoutThreadsVariable scope(3);
  setenv("OMP_NUM_THREADS", "3", 1);
  EXPECT_EQ(host_threads_for(10), 3);
  unsetenv("OMP_NUM_THREADS");
}

TEST(HostThreads, OneThreadSaysThreadAndTheCallersCountComesBack) {
  const WithoutThreadsVariable scope(1);
  EXPECT_EQ(describe_host_threads(1), "CPU (1 thread)");
  omp_set_num_threads(4);
  {
    const ScopedHostThreads inner(2);
    EXPECT_EQ(omp_get_max_threads(), 2);
  }
  EXPECT_EQ(omp_get_max_threads(), 4);
}

// A small solve reports the count it ran on.
TEST(HostThreads, ASmallSolveRunsOnOneThreadAndSaysSo) {
  const WithoutThreadsVariable scope(2);
  const auto a = test::generated("poisson2d", 20);  // 400 rows
  Options options;
  options.device = Device::cpu;
  const Solver<double> solver(
      CsrArrays<double>{a.rows, a.cols, a.row_offsets.data(), a.columns.data(), a.values.data()},
      options);
  EXPECT_EQ(solver.setup_info().device_name, "CPU (1 of 2 threads: 4,000 rows a thread)");
  EXPECT_EQ(omp_get_max_threads(), 2);  // the caller's count, untouched
}

}  // namespace
}  // namespace spk
