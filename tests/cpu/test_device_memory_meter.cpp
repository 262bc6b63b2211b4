// The device memory meter (core/device_memory_meter.hpp) driven with made-up allocations: no
// GPU is touched. What it must get right: the bytes held, a watch's peak above its start, its
// steady state and largest array, the holders an out-of-memory message lists, and all of it
// under threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "core/device_memory_meter.hpp"

namespace spk {
namespace {

// Distinct fake pointers (never dereferenced).
const void* key(std::uintptr_t k) {
  return reinterpret_cast<const void*>(k * 256);
}

TEST(DeviceMemoryMeter, CountsHeldBytesAndIgnoresUnknownPointers) {
  DeviceMemoryMeter meter;
  meter.allocated(key(1), 1000, "a");
  meter.allocated(key(2), 500, "b");
  EXPECT_EQ(meter.held_bytes(), 1500u);
  EXPECT_EQ(meter.live_arrays(), 2u);
  meter.freed(key(1));
  meter.freed(key(99));  // never allocated: ignored
  meter.freed(nullptr);  // ignored
  meter.freed(key(1));   // twice: ignored
  EXPECT_EQ(meter.held_bytes(), 500u);
  EXPECT_EQ(meter.live_arrays(), 1u);
  meter.freed(key(2));
  EXPECT_EQ(meter.held_bytes(), 0u);
  EXPECT_TRUE(meter.holders_text().empty());
}

TEST(DeviceMemoryMeter, WatchSeesPeakAboveItsStartSteadyAndLargest) {
  DeviceMemoryMeter meter;
  meter.allocated(key(1), 7000, "before the watch");
  DeviceMemorySpan span;
  {
    DeviceMemoryWatch watch(meter);
    meter.allocated(key(2), 3000, "matrix");
    meter.allocated(key(3), 5000, "spgemm intermediate");  // held 15000: peak 8000 above 7000
    meter.freed(key(3));
    meter.allocated(key(4), 1000, "vector");
    meter.freed(key(1));  // freeing what was there before lowers the steady state
    span = watch.span();
    meter.allocated(key(5), 100000, "after");  // the watch still sees it until destroyed
  }
  EXPECT_EQ(span.held_at_start, 7000u);
  EXPECT_EQ(span.peak, 8000u);
  EXPECT_EQ(span.steady, 0u);  // held 4000 < 7000 at the start
  EXPECT_EQ(span.largest_bytes, 5000u);
  EXPECT_EQ(span.largest_what, "spgemm intermediate");
  // A watch made later starts from what is held then.
  DeviceMemoryWatch later(meter);
  meter.allocated(key(6), 10, "small");
  EXPECT_EQ(later.span().held_at_start, 104000u);
  EXPECT_EQ(later.span().peak, 10u);
  EXPECT_EQ(later.span().steady, 10u);
}

// What was held at the peak, by name: the snapshot taken at the peak, not the one at the end,
// and not one taken on a later rise that stays below the peak.
TEST(DeviceMemoryMeter, WatchKeepsWhatWasHeldAtThePeakByName) {
  DeviceMemoryMeter meter;
  meter.allocated(key(1), 7000, "matrix");
  DeviceMemoryWatch watch(meter);
  meter.allocated(key(2), 2000, "P values");
  meter.allocated(key(3), 2000, "P values");
  meter.allocated(key(4), 50000, "SpGEMM buffer 2");  // held 61000: the peak
  meter.freed(key(4));
  meter.allocated(key(5), 40000, "SpGEMM buffer 3");  // a rise to 51000, below the peak
  meter.freed(key(5));
  meter.allocated(key(6), 500, "vector");
  const DeviceMemorySpan span = watch.span();
  EXPECT_EQ(span.peak, 61000u - 7000u);
  ASSERT_EQ(span.peak_holders.size(), 3u);
  EXPECT_EQ(span.peak_holders[0].what, "SpGEMM buffer 2");
  EXPECT_EQ(span.peak_holders[0].bytes, 50000u);
  EXPECT_EQ(span.peak_holders[1].what, "matrix");
  EXPECT_EQ(span.peak_holders[2].what, "P values");
  EXPECT_EQ(span.peak_holders[2].bytes, 4000u);
  EXPECT_EQ(span.peak_holders[2].arrays, 2u);
  // At most holders_kept names, and a growth of less than 1/64 takes no new snapshot.
  for (int i = 0; i < 20; ++i)
    meter.allocated(key(100 + i), 10000, "level " + std::to_string(i));  // held 211500
  const DeviceMemorySpan grown = watch.span();
  EXPECT_EQ(grown.peak_holders.size(), DeviceMemoryWatch::holders_kept);
  std::size_t seen = 0;
  for (const MemoryHolder& holder : grown.peak_holders) seen += holder.bytes;
  EXPECT_GE(seen, 8u * 10000u);
  EXPECT_EQ(grown.peak, 211500u - 7000u);
}

TEST(DeviceMemoryMeter, NestedWatchesEachMeasureTheirOwnSpan) {
  DeviceMemoryMeter meter;
  DeviceMemoryWatch outer(meter);
  meter.allocated(key(1), 400, "level 0");
  {
    DeviceMemoryWatch inner(meter);
    meter.allocated(key(2), 600, "level 1");
    meter.freed(key(2));
    EXPECT_EQ(inner.span().peak, 600u);
    EXPECT_EQ(inner.span().steady, 0u);
  }
  meter.allocated(key(3), 100, "level 2");
  EXPECT_EQ(outer.span().peak, 1000u);
  EXPECT_EQ(outer.span().steady, 500u);
  EXPECT_EQ(outer.span().largest_what, "level 1");
}

TEST(DeviceMemoryMeter, HoldersAreGroupedByNameLargestFirst) {
  DeviceMemoryMeter meter;
  meter.allocated(key(1), 3'000'000'000, "AMG A_0 values");
  meter.allocated(key(2), 1'000'000'000, "ellpack-r values");
  meter.allocated(key(3), 1'500'000'000, "ellpack-r values");
  meter.allocated(key(4), 20, "scalar");
  const std::vector<MemoryHolder> holders = meter.largest_holders(2);
  ASSERT_EQ(holders.size(), 2u);
  EXPECT_EQ(holders[0].what, "AMG A_0 values");
  EXPECT_EQ(holders[0].bytes, 3'000'000'000u);
  EXPECT_EQ(holders[0].arrays, 1u);
  EXPECT_EQ(holders[1].what, "ellpack-r values");
  EXPECT_EQ(holders[1].bytes, 2'500'000'000u);
  EXPECT_EQ(holders[1].arrays, 2u);
  EXPECT_EQ(meter.holders_text(2),
            "the library holds 5.5 GB in 4 arrays; largest: AMG A_0 values 3.0 GB, "
            "ellpack-r values 2.5 GB (2 arrays)");
}

// An array taken over by another owner is counted under its new name, the same bytes.
TEST(DeviceMemoryMeter, RenamedArrayCountsUnderItsNewName) {
  DeviceMemoryMeter meter;
  meter.allocated(key(1), 700, "this process's values");
  meter.allocated(key(2), 300, "pattern columns");
  meter.renamed(key(1), "AMG A_0 values");
  meter.renamed(key(9), "never allocated");  // ignored
  meter.renamed(nullptr, "null");            // ignored
  const std::vector<MemoryHolder> holders = meter.largest_holders(4);
  ASSERT_EQ(holders.size(), 2u);
  EXPECT_EQ(holders[0].what, "AMG A_0 values");
  EXPECT_EQ(holders[0].bytes, 700u);
  EXPECT_EQ(meter.held_bytes(), 1000u);
  meter.freed(key(1));
  EXPECT_EQ(meter.held_bytes(), 300u);
  EXPECT_EQ(meter.largest_holders(4)[0].what, "pattern columns");
}

TEST(DeviceMemoryMeter, CountsBeyondFourGigabytes) {
  DeviceMemoryMeter meter;
  DeviceMemoryWatch watch(meter);
  // 1.75e9 entries of 8 bytes: past 2^32 bytes, as a 250M-row block's values are.
  const std::size_t values = std::size_t{1'750'000'000} * 8;
  meter.allocated(key(1), values, "values");
  meter.allocated(key(2), values / 2, "columns");
  EXPECT_EQ(meter.held_bytes(), values + values / 2);
  EXPECT_EQ(watch.span().peak, values + values / 2);
  EXPECT_EQ(watch.span().largest_bytes, values);
}

TEST(DeviceMemoryMeter, ThreadsAllocatingAtOnceLeaveAConsistentCount) {
  DeviceMemoryMeter meter;
  DeviceMemoryWatch watch(meter);
  constexpr int threads = 4, per_thread = 2000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&meter, t] {
      for (int i = 0; i < per_thread; ++i) {
        const void* pointer = key(1 + static_cast<std::uintptr_t>(t * per_thread + i));
        meter.allocated(pointer, 64, "thread array");
        if (i % 2 == 1) meter.freed(pointer);  // keep every other one
      }
    });
  for (std::thread& worker : workers) worker.join();
  EXPECT_EQ(meter.held_bytes(), std::size_t{threads} * per_thread / 2 * 64);
  EXPECT_EQ(meter.live_arrays(), std::size_t{threads} * per_thread / 2);
  EXPECT_GE(watch.span().peak, meter.held_bytes());
  EXPECT_LE(watch.span().peak, meter.held_bytes() + std::size_t{threads} * 64);
}

TEST(DeviceMemoryMeter, ByteTextUsesPowersOfAThousand) {
  EXPECT_EQ(byte_text(0), "0 B");
  EXPECT_EQ(byte_text(999), "999 B");
  EXPECT_EQ(byte_text(1500), "1.5 KB");
  EXPECT_EQ(byte_text(80'000'000'000), "80.0 GB");
  EXPECT_EQ(byte_text(999'960), "1.0 MB");
}

}  // namespace
}  // namespace spk
