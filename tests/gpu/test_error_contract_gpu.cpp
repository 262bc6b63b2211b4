// The GPU rows of the error contract (RELIABILITY.md): running out of device memory gives
// spk::OutOfDeviceMemory naming the bytes asked for and free and suggesting a more compact
// format (library and CLI), and device memory is released on every error path: repeated
// failing solves in one process do not grow the memory in use.
//
// A problem "larger than the GPU" is made by holding all but a little of the free device
// memory (DeviceMemoryHog) and then asking for a problem that needs more than is left: the
// host side stays modest, the device allocation fails as it would on a full card.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spkrylov/solver.hpp"
#include "tests/cli_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

constexpr std::size_t mebibyte = std::size_t{1} << 20;

struct DeviceMemory {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};

DeviceMemory device_memory() {
  DeviceMemory memory;
  SPK_CUDA_CHECK(cudaMemGetInfo(&memory.free_bytes, &memory.total_bytes));
  return memory;
}

// Holds all but about `leave_bytes` of the device memory that is free when it is made.
class DeviceMemoryHog {
 public:
  explicit DeviceMemoryHog(std::size_t leave_bytes) {
    std::size_t free_bytes = device_memory().free_bytes;
    // The last few MiB may not be allocatable in one piece: step down until it fits.
    for (int attempt = 0; attempt < 16 && hold_.size() == 0; ++attempt) {
      if (free_bytes <= leave_bytes) break;
      try {
        hold_ = DeviceBuffer<unsigned char>(free_bytes - leave_bytes, "test memory hog");
      } catch (const OutOfDeviceMemory&) {
        free_bytes -= 64 * mebibyte;
      }
    }
    EXPECT_GT(hold_.size(), 0u) << "could not take the device memory";
  }
  std::size_t held_bytes() const { return hold_.size(); }

 private:
  DeviceBuffer<unsigned char> hold_;
};

Options gpu_options(const std::string& format) {
  Options options;
  options.device = Device::gpu;
  options.spmv.format = parse_format(format);
  options.solver.tolerance = 1e-10;
  return options;
}

void expect_out_of_memory_message(const std::string& message, std::size_t requested,
                                  std::size_t free_bytes) {
  EXPECT_NE(message.find("out of device memory allocating "), std::string::npos) << message;
  EXPECT_NE(message.find("requested " + std::to_string(requested) + " bytes"), std::string::npos)
      << message;
  EXPECT_NE(message.find(std::to_string(free_bytes) + " of "), std::string::npos) << message;
  EXPECT_NE(message.find("bytes free; try a more compact format"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(ErrorContractGpu, OutOfDeviceMemoryNamesRequestedAndFreeBytes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const DeviceMemory before = device_memory();
  const std::size_t requested = before.total_bytes + 1024 * mebibyte;  // more than the card
  try {
    DeviceBuffer<unsigned char> too_large(requested, "test array");
    FAIL() << "allocated " << requested << " bytes on a card of " << before.total_bytes;
  } catch (const OutOfDeviceMemory& error) {
    EXPECT_EQ(error.requested_bytes(), requested);
    EXPECT_GT(error.free_bytes(), 0u);
    EXPECT_LE(error.free_bytes(), before.total_bytes);
    expect_out_of_memory_message(error.what(), requested, error.free_bytes());
    EXPECT_NE(std::string(error.what()).find("allocating test array: "), std::string::npos);
  }
  // The failure left no error state behind: the device still allocates and computes.
  const std::vector<double> values = {1.0, 2.0, 3.0};
  DeviceBuffer<double> small(values, "after the failure");
  EXPECT_EQ(small.to_host(), values);
}

TEST(ErrorContractGpu, SolveLargerThanTheFreeMemoryThrowsOutOfDeviceMemory) {
  SPK_REQUIRE_GPU_OR_SKIP();
  // poisson3d n=160: 4.1M rows, 28M nonzeros, about 360 MB as CSR on the device
  const CsrMatrix<double> a = test::generated("poisson3d", 160);
  for (const char* format : {"csr", "ellpack-r", "cusparse"}) {
    SCOPED_TRACE(format);
    DeviceMemoryHog hog(192 * mebibyte);
    try {
      Solver<double> solver(arrays_of(a), gpu_options(format));
      FAIL() << "the solver was set up in less memory than the matrix needs";
    } catch (const OutOfDeviceMemory& error) {
      EXPECT_GT(error.requested_bytes(), error.free_bytes());
      expect_out_of_memory_message(error.what(), error.requested_bytes(), error.free_bytes());
    }
  }
}

// One failing setup of each kind: out of device memory part way through the upload
// (inside `hog`), and a zero diagonal with Jacobi, found after the matrix and the vectors
// are on the device. Returns the number that threw the expected exception.
int fail_setups(const CsrMatrix<double>& fits, const CsrMatrix<double>& too_large,
                const CsrMatrix<double>& zero_diagonal) {
  int failures = 0;
  for (const char* format : {"csr", "ellpack", "hyb", "cusparse"}) {
    try {
      Solver<double> solver(arrays_of(too_large), gpu_options(format));
    } catch (const OutOfDeviceMemory&) {
      ++failures;
    }
    Options jacobi = gpu_options(format);
    jacobi.solver.preconditioner = Preconditioner::jacobi;
    try {
      Solver<double> solver(arrays_of(zero_diagonal), jacobi);
    } catch (const BadInput&) {
      ++failures;
    }
    // and a solve that is refused after a successful setup
    Solver<double> solver(arrays_of(fits), gpu_options(format));
    std::vector<double> b(static_cast<std::size_t>(fits.rows), 1.0), x(b.size(), 0.0);
    b.back() = std::nan("");
    try {
      (void)solver.solve(b, x);
    } catch (const BadInput&) {
      ++failures;
    }
  }
  return failures;
}

TEST(ErrorContractGpu, RepeatedFailingSolvesDoNotGrowDeviceMemory) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> fits = test::generated("poisson3d", 24);
  const CsrMatrix<double> too_large = test::generated("poisson3d", 160);
  CsrMatrix<double> zero_diagonal = fits;
  for (index_t k = zero_diagonal.row_offsets[7]; k < zero_diagonal.row_offsets[8]; ++k)
    if (zero_diagonal.columns[k] == 7) zero_diagonal.values[k] = 0.0;

  DeviceMemoryHog hog(192 * mebibyte);
  // The first round loads kernels and library state that stay for the process.
  ASSERT_EQ(fail_setups(fits, too_large, zero_diagonal), 12);
  const std::size_t before = device_memory().free_bytes;
  constexpr int rounds = 20;
  for (int round = 0; round < rounds; ++round)
    ASSERT_EQ(fail_setups(fits, too_large, zero_diagonal), 12) << "round " << round;
  const std::size_t after = device_memory().free_bytes;
  // 240 failing setups and 80 refused solves: a leak of one small buffer per failure would
  // show as several MiB (allocations come in 2 MiB pages).
  EXPECT_LE(before - std::min(before, after), 4 * mebibyte)
      << "free device memory went from " << before << " to " << after << " bytes";
}

TEST(ErrorContractGpu, CliOutOfDeviceMemoryIsOneLine) {
  SPK_REQUIRE_GPU_OR_SKIP();
  // Leave 3 GiB: enough for the child's CUDA context, not for poisson3d n=320 (33M rows,
  // 227M nonzeros: 2.7 GB of CSR plus the Krylov vectors).
  DeviceMemoryHog hog(3072 * mebibyte);
  const test::CliRun run = test::run_cli(
      "solve --quiet --set device=gpu --set matrix.generate.n=320 --set spmv.format=csr", 300);
  test::expect_one_line_error(
      run, {"error: out of device memory allocating ", " bytes free; try a more compact format"});
  EXPECT_NE(run.err.find("requested "), std::string::npos) << run.err;
}

}  // namespace
}  // namespace spk
