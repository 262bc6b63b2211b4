// The device memory a setup reports (SetupInfo::memory; core/device_memory_meter.hpp): every
// DeviceBuffer is counted while it lives, an out-of-memory error names the library's largest
// live arrays, and a GPU Solver's setup reports the device's free and total memory, its peak
// above the start and its steady state (at least the matrix's storage). On the CPU path all
// of it is zero (that part runs without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "core/device_buffer.hpp"
#include "core/device_memory_meter.hpp"
#include "spkrylov/solver.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

TEST(DeviceMemoryGpu, EveryDeviceBufferIsCountedWhileItLives) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const std::size_t before = device_memory_meter().held_bytes();
  DeviceMemoryWatch watch;
  {
    DeviceBuffer<double> a(1000, "meter test a");
    DeviceBuffer<index_t> b(3000, "meter test b");
    EXPECT_EQ(device_memory_meter().held_bytes(), before + 8000 + 12000);
    DeviceBuffer<double> moved = std::move(a);  // a move neither allocates nor frees
    EXPECT_EQ(device_memory_meter().held_bytes(), before + 8000 + 12000);
  }
  EXPECT_EQ(device_memory_meter().held_bytes(), before);
  EXPECT_EQ(watch.span().peak, 20000u);
  EXPECT_EQ(watch.span().steady, 0u);
  EXPECT_EQ(watch.span().largest_what, "meter test b");
}

TEST(DeviceMemoryGpu, OutOfMemoryNamesTheLargestLiveArrays) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const DeviceMemoryInfo memory = device_memory_info();
  ASSERT_GT(memory.total_bytes, 0u);
  const DeviceBuffer<unsigned char> held(std::size_t{64} << 20, "the held test array");
  try {
    DeviceBuffer<unsigned char> too_large(memory.total_bytes + (std::size_t{1} << 30), "too much");
    FAIL() << "allocated more than the card holds";
  } catch (const OutOfDeviceMemory& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("out of device memory allocating too much: "), std::string::npos)
        << message;
    EXPECT_NE(message.find("(the library holds "), std::string::npos) << message;
    EXPECT_NE(message.find("the held test array 67.1 MB"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

void expect_gpu_setup_memory(const SetupInfo& setup, const char* what) {
  SCOPED_TRACE(what);
  const DeviceMemoryUse& memory = setup.memory;
  EXPECT_GT(memory.total_bytes, 0u);
  EXPECT_GT(memory.free_bytes, 0u);
  EXPECT_LE(memory.free_bytes, memory.total_bytes);
  EXPECT_LE(memory.free_after_bytes, memory.total_bytes);
  EXPECT_GE(memory.steady_bytes, setup.device_bytes);  // the matrix's storage at least
  EXPECT_GE(memory.peak_bytes, memory.steady_bytes);
  EXPECT_GT(memory.largest_bytes, 0u);
  EXPECT_LE(memory.largest_bytes, memory.peak_bytes);
  EXPECT_FALSE(memory.largest.empty());
}

TEST(DeviceMemoryGpu, ASolversSetupReportsItsPeakAndSteadyState) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = test::generated("poisson3d", 40);  // 64,000 rows
  Options options;
  options.device = Device::gpu;
  options.spmv.format = Format::ellpack_r;
  {
    const Solver<double> solver(arrays_of(a), options);
    expect_gpu_setup_memory(solver.setup_info(), "ellpack-r, no preconditioner");
  }
  options.solver.preconditioner = Preconditioner::amg;
  const Solver<double> amg(arrays_of(a), options);
  expect_gpu_setup_memory(amg.setup_info(), "ellpack-r, amg");
  // The hierarchy's levels and the SpGEMM intermediates are part of the setup: more than the
  // matrix alone.
  EXPECT_GT(amg.setup_info().memory.peak_bytes, amg.setup_info().device_bytes);
}

TEST(DeviceMemoryGpu, TheCpuPathReportsNoDeviceMemory) {
  const CsrMatrix<double> a = test::generated("poisson3d", 8);
  Options options;
  options.device = Device::cpu;
  const Solver<double> solver(arrays_of(a), options);
  const DeviceMemoryUse& memory = solver.setup_info().memory;
  EXPECT_EQ(memory.total_bytes, 0u);
  EXPECT_EQ(memory.peak_bytes, 0u);
  EXPECT_EQ(memory.steady_bytes, 0u);
  EXPECT_TRUE(memory.largest.empty());
}

}  // namespace
}  // namespace spk
