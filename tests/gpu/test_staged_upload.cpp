// upload_staged (core/staged_upload.hpp): what arrives on the device equals the host array,
// byte for byte, below the staging threshold, at it, and across chunk boundaries with an odd
// tail; the device array is poisoned first, so a chunk that never arrived shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/staged_upload.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

TEST(StagedUpload, ArrivesWholeAtEverySize) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  const test::TestStream stream;
  for (const std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{4099}, staged_upload_from,
        staged_upload_from + 12345, staged_upload_from + (std::size_t{70} << 20) + 7}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    std::vector<std::uint8_t> host(bytes);
    for (std::size_t k = 0; k < bytes; k += 8) {  // random bytes, a 64-bit draw at a time
      const std::uint64_t word = random.engine()();
      std::memcpy(host.data() + k, &word, std::min<std::size_t>(8, bytes - k));
    }
    DeviceBuffer<std::uint8_t> device(bytes + 1);
    SPK_CUDA_CHECK(cudaMemset(device.data(), 0xA5, bytes + 1));  // poison
    upload_staged(device.data(), host.data(), bytes, stream.get());
    const std::vector<std::uint8_t> back = device.to_host();
    EXPECT_TRUE(std::equal(host.begin(), host.end(), back.begin()));
    EXPECT_EQ(back[bytes], 0xA5);  // nothing written past the end
  }
}

}  // namespace
}  // namespace spk
