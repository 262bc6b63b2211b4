// make_pages_resident / reserve_resident (core/resident_pages.hpp): the pages are mapped in
// parallel and nothing in the array changes: contents written before stay, a reservation
// keeps the size, and the vector's own fill afterwards gives what it always gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "core/resident_pages.hpp"

namespace spk {
namespace {

TEST(ResidentPages, KeepsTheContentsOfAnArrayAlreadyWritten) {
  std::vector<std::int64_t> array(3 * resident_pages_from / sizeof(std::int64_t) + 17);
  std::mt19937_64 random(41);
  for (auto& entry : array) entry = static_cast<std::int64_t>(random());
  const std::vector<std::int64_t> before = array;
  make_pages_resident(array.data(), array.size() * sizeof(std::int64_t));
  EXPECT_EQ(array, before);
  make_pages_resident(array.data() + 1, 5);  // less than a page: nothing to map, no fault
  EXPECT_EQ(array, before);
}

TEST(ResidentPages, ReservationKeepsSizeAndTheFillAfterwardsIsTheVectors) {
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1000},
                                  2 * resident_pages_from / sizeof(double) + 3}) {
    std::vector<double> values{1.5, -2.0};
    reserve_resident(values, count);
    EXPECT_GE(values.capacity(), count);
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0], 1.5);
    EXPECT_EQ(values[1], -2.0);
    values.resize(count + 2, 7.0);
    EXPECT_EQ(std::count(values.begin() + 2, values.end(), 7.0),
              static_cast<std::ptrdiff_t>(count));
    std::vector<int> offsets;
    reserve_resident(offsets, count + 1);
    offsets.assign(count + 1, 0);
    EXPECT_EQ(std::accumulate(offsets.begin(), offsets.end(), std::int64_t{0}), 0);
  }
}

}  // namespace
}  // namespace spk
