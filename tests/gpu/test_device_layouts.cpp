// The layouts built on the device from a device CSR (the one path of every format, host arrays
// included) against the host builders, the CPU reference: bit for bit, on the awkward shapes
// and on a fresh random pattern, in double and float. Every array a device fill writes is
// poisoned first (bytes 0xA5: a column index -1515870811, a value no builder writes), so a
// slot a kernel forgets shows. Also the device row statistics, the row-length histogram, the
// CSR checks' facts and the Jacobi diagonal positions against their host twins.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/host_space.hpp"
#include "spmv/device/csr_checks.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/device/device_row_stats.hpp"
#include "spmv/formats/aligned_csr_build.hpp"
#include "spmv/formats/csr_long_rows_build.hpp"
#include "spmv/formats/ell_build.hpp"
#include "spmv/formats/ellpack_r_layout.hpp"
#include "spmv/formats/sell_build.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk {
namespace {

// A device array of `count` elements filled with the poison byte 0xA5.
template <class U>
DeviceBuffer<U> poisoned(std::size_t count, const test::TestStream& stream) {
  DeviceBuffer<U> buffer(count, "test output");
  if (count > 0) SPK_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0xA5, buffer.bytes(), stream.get()));
  return buffer;
}

template <class U>
std::vector<U> downloaded(const DeviceBuffer<U>& buffer, const test::TestStream& stream) {
  return download_array(buffer.data(), buffer.size(), stream.get());
}

// Same length and the same bytes (so -0.0 against 0.0 or a different NaN would fail too).
template <class U, class V>
void expect_same_bits(const std::vector<U>& device, const std::vector<V>& host,
                      const std::string& what) {
  static_assert(sizeof(U) == sizeof(V));
  ASSERT_EQ(device.size(), host.size()) << what;
  for (std::size_t i = 0; i < device.size(); ++i)
    if (std::memcmp(&device[i], &host[i], sizeof(U)) != 0) {
      ADD_FAILURE() << what << ": element " << i << " differs (device " << device[i] << ", host "
                    << host[i] << ")";
      return;
    }
}

// The shapes every device builder is checked on: the awkward ones and a random pattern.
std::vector<test::NamedShape> layout_shapes(std::mt19937_64& rng) {
  std::vector<test::NamedShape> shapes = test::awkward_shapes(rng);
  auto lengths = std::uniform_int_distribution<index_t>(0, 70);
  shapes.push_back(
      {"random 3000x2500, rows 0..70 long, two full rows",
       test::random_pattern_matrix(
           3000, 2500, [&](index_t row) { return row == 17 || row == 2900 ? 2500 : lengths(rng); },
           rng)});
  return shapes;
}

template <class T>
void expect_row_stats_match(const CsrMatrix<T>& matrix, const DeviceCsr<T>& device) {
  const RowStats host = compute_row_stats(matrix.rows, matrix.cols, matrix.row_offsets);
  EXPECT_EQ(device.nnz, matrix.nnz());
  test::expect_same_row_stats(device.stats, host);
}

template <class T>
void expect_ell_matches(const CsrMatrix<T>& matrix, const DeviceCsr<T>& device, index_t width,
                        const test::TestStream& stream) {
  SCOPED_TRACE("ELL width " + std::to_string(width));
  const EllpackLayout<T> host = to_ellpack_with_width(matrix, width, EllPaddingLimits{});
  auto columns = poisoned<index_t>(host.columns.size(), stream);
  auto values = poisoned<T>(host.values.size(), stream);
  fill_ell_slots(device, width, host.pitch, columns.data(), values.data(), stream.get());
  expect_same_bits(downloaded(columns, stream), host.columns, "ELL columns");
  expect_same_bits(downloaded(values, stream), host.values, "ELL values");

  // HYB's tail at this width: the COO triples of to_hyb and the tail starts DeviceValues
  // keeps (the slot ell_value_slots gives each row's first COO entry).
  const HybLayout<T> hyb = to_hyb(matrix, width, EllPaddingLimits{});
  const std::size_t coo = hyb.coo.rows.size();
  const ValueSlots slots = ell_value_slots(matrix.row_offsets, width, host.pitch);
  std::vector<std::uint64_t> tails(static_cast<std::size_t>(matrix.rows), 0);
  for (index_t row = 0; row < matrix.rows; ++row)
    if (matrix.row_length(row) > width)
      tails[static_cast<std::size_t>(row)] = slots[matrix.row_offsets[row] + width];
  auto coo_rows = poisoned<index_t>(coo, stream);
  auto coo_columns = poisoned<index_t>(coo, stream);
  auto coo_values = poisoned<T>(coo, stream);
  auto tail_starts = poisoned<std::uint64_t>(tails.size(), stream);
  fill_hyb_tail(device, width, host.pitch * static_cast<std::size_t>(width), coo_rows.data(),
                coo_columns.data(), coo_values.data(), tail_starts.data(), stream.get());
  expect_same_bits(downloaded(coo_rows, stream), hyb.coo.rows, "COO rows");
  expect_same_bits(downloaded(coo_columns, stream), hyb.coo.columns, "COO columns");
  expect_same_bits(downloaded(coo_values, stream), hyb.coo.values, "COO values");
  expect_same_bits(downloaded(tail_starts, stream), tails, "HYB row tail starts");
}

template <class T>
void expect_device_layouts_match(const CsrMatrix<T>& matrix, const test::TestStream& stream) {
  const DeviceCsrMatrix<T> uploaded = to_device(matrix, "matrix");
  const DeviceCsr<T> device = describe_device_csr(uploaded, stream.get());
  expect_row_stats_match(matrix, device);

  // Histogram and the HYB width it gives, by the rule and fixed.
  const RowLengthHistogram histogram = row_length_histogram(matrix);
  const RowLengthHistogram device_histogram = device_row_length_histogram(device, stream.get());
  ASSERT_EQ(device_histogram.size(), histogram.size());
  for (std::size_t bar = 0; bar < histogram.size(); ++bar) {
    EXPECT_EQ(device_histogram[bar].length, histogram[bar].length) << "bar " << bar;
    EXPECT_EQ(device_histogram[bar].rows, histogram[bar].rows) << "bar " << bar;
  }
  for (const int requested : {-1, 0, 3}) {
    const DeviceHyb<T> built = build_hyb(device, requested, EllPaddingLimits{}, stream.get());
    const HybLayout<T> host = to_hyb(matrix, requested, EllPaddingLimits{});
    EXPECT_EQ(built.choice.width, host.choice.width) << "hyb_width " << requested;
    EXPECT_EQ(built.choice.coo_entries, host.choice.coo_entries) << "hyb_width " << requested;
    EXPECT_EQ(built.choice.rule, host.choice.rule);
  }

  // ELL at the longest row (ellpack, ellpack-r), at a narrower width and at 0 (hyb).
  const index_t longest = device.stats.max_row_length;
  for (const index_t width : {longest, longest / 3, index_t{0}})
    expect_ell_matches(matrix, device, width, stream);
  const EllpackRLayout<T> ellpack_r = to_ellpack_r(matrix, EllPaddingLimits{});
  auto row_lengths = poisoned<index_t>(static_cast<std::size_t>(matrix.rows), stream);
  fill_row_lengths(device, row_lengths.data(), stream.get());
  expect_same_bits(downloaded(row_lengths, stream), ellpack_r.row_lengths, "ELLPACK-R rl[]");

  // aligned-csr at every group size.
  for (const int group : {2, 4, 8, 16, 32}) {
    SCOPED_TRACE("aligned-csr group " + std::to_string(group));
    const AlignedCsrLayout<T> host = to_aligned_csr(matrix, group);
    auto row_starts = poisoned<index_t>(host.row_starts.size(), stream);
    EXPECT_EQ(fill_aligned_csr_row_starts(device, group, row_starts.data(), stream.get()),
              host.padded_entries());
    auto columns = poisoned<index_t>(host.columns.size(), stream);
    auto values = poisoned<T>(host.values.size(), stream);
    auto slots = poisoned<std::uint32_t>(static_cast<std::size_t>(matrix.nnz()), stream);
    fill_aligned_csr(device, row_starts.data(), columns.data(), values.data(), slots.data(),
                     stream.get());
    expect_same_bits(downloaded(row_starts, stream), host.row_starts, "row starts");
    expect_same_bits(downloaded(columns, stream), host.columns, "padded columns");
    expect_same_bits(downloaded(values, stream), host.values, "padded values");
    const ValueSlots host_slots = aligned_csr_value_slots(matrix.row_offsets, host.row_starts);
    const std::vector<std::uint32_t> narrow(host_slots.begin(), host_slots.end());
    expect_same_bits(downloaded(slots, stream), narrow, "slot map");
  }

  // SELL-C-sigma at several windows (sort, chunk offsets, slots, the update_values map), with
  // the long rows of the rule and of small thresholds (0: every non-empty row is long; n = 1
  // has a long row only so).
  struct SellCase {
    index_t sigma;
    index_t long_row_length;
  };
  const index_t rule = sell_long_row_length(matrix.rows, matrix.nnz());
  for (const SellCase sell_case : {SellCase{32, rule}, SellCase{96, rule}, SellCase{1024, rule},
                                   SellCase{32, 0}, SellCase{64, 40}}) {
    const index_t sigma = sell_case.sigma;
    SCOPED_TRACE("sell sigma " + std::to_string(sigma) + ", long rows over " +
                 std::to_string(sell_case.long_row_length));
    const SellLayout<T> host =
        to_sell_with_long_row_length(matrix, sigma, sell_case.long_row_length);
    const DeviceSell<T> built = build_sell(device, sigma, sell_case.long_row_length,
                                           static_cast<std::size_t>(-1), stream.get());
    ASSERT_EQ(built.chunk_slots, host.chunk_slots());
    ASSERT_EQ(built.slots, host.slots());
    expect_same_bits(downloaded(built.permutation, stream), host.permutation, "sell permutation");
    expect_same_bits(downloaded(built.row_lengths, stream), host.row_lengths, "sell row lengths");
    expect_same_bits(downloaded(built.chunk_offsets, stream), host.chunk_offsets,
                     "sell chunk offsets");
    expect_same_bits(downloaded(built.columns, stream), host.columns, "sell columns");
    expect_same_bits(downloaded(built.values, stream), host.values, "sell values");
    ASSERT_EQ(built.long_rows.long_row_count, static_cast<index_t>(host.long_rows.rows.size()));
    ASSERT_EQ(built.long_rows.chunks, host.long_rows.chunks());
    expect_same_bits(downloaded(built.long_row_starts, stream), host.long_row_starts,
                     "sell long-row starts");
    expect_same_bits(downloaded(built.long_rows.rows, stream), host.long_rows.rows,
                     "sell long rows");
    expect_same_bits(downloaded(built.long_rows.chunk_rows, stream), host.long_rows.chunk_rows,
                     "sell long-row chunk rows");
    if (built.long_rows.long_row_count > 0)
      expect_same_bits(downloaded(built.long_rows.chunk_offsets, stream),
                       host.long_rows.chunk_offsets, "sell long-row chunk offsets");
    const auto slot_map = downloaded(built.slot_of_entry, stream);
    std::vector<int> hits(static_cast<std::size_t>(host.slots()), 0);
    for (index_t row = 0; row < matrix.rows; ++row)
      for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
        const std::uint32_t slot = slot_map[static_cast<std::size_t>(k)];
        ASSERT_LT(slot, hits.size()) << "sell slot of entry " << k;
        ASSERT_EQ(host.values[slot], matrix.values[static_cast<std::size_t>(k)])
            << "sell slot of entry " << k;
        ASSERT_EQ(host.columns[slot], matrix.columns[static_cast<std::size_t>(k)])
            << "sell slot of entry " << k;
        ASSERT_EQ(++hits[slot], 1) << "two entries map to slot " << slot;
      }
  }

  // csr-vector's long-row split, for each sub-warp width's threshold and a small one.
  for (const index_t long_row_length :
       {index_t{40}, csr_vector_long_row_length(2), csr_vector_long_row_length(32)}) {
    SCOPED_TRACE("long rows over " + std::to_string(long_row_length));
    const CsrLongRows host = find_long_rows(matrix.row_offsets, long_row_length);
    const LongRowCounts counts = count_long_rows(device, long_row_length, stream.get());
    ASSERT_EQ(counts.long_rows, static_cast<index_t>(host.rows.size()));
    ASSERT_EQ(counts.chunks, host.chunks());
    if (counts.long_rows == 0) continue;
    auto rows = poisoned<index_t>(host.rows.size(), stream);
    auto chunk_offsets = poisoned<index_t>(host.chunk_offsets.size(), stream);
    auto chunk_rows = poisoned<index_t>(host.chunk_rows.size(), stream);
    fill_long_rows(device, long_row_length, counts, rows.data(), chunk_offsets.data(),
                   chunk_rows.data(), stream.get());
    expect_same_bits(downloaded(rows, stream), host.rows, "long rows");
    expect_same_bits(downloaded(chunk_offsets, stream), host.chunk_offsets, "chunk offsets");
    expect_same_bits(downloaded(chunk_rows, stream), host.chunk_rows, "chunk rows");
  }
}

TEST(DeviceLayouts, EveryDeviceBuiltLayoutMatchesTheHostLayoutBitwise) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  for (const test::NamedShape& shape : layout_shapes(rng)) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double> matrix = test::with_random_values(shape.matrix, rng);
    {
      SCOPED_TRACE("double");
      expect_device_layouts_match(matrix, stream);
    }
    {
      SCOPED_TRACE("float");
      expect_device_layouts_match(convert_values<float>(matrix), stream);
    }
  }
}

// The diagonal position of each row, on the device (a warp per row) and on the host: the
// last entry of the row whose column is the row, -1 when there is none (rows past the last
// column, empty rows, rows without a diagonal entry, a duplicated diagonal entry).
TEST(DeviceLayouts, JacobiDiagonalPositionsMatchTheHost) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  std::vector<test::NamedShape> shapes = layout_shapes(rng);
  CsrMatrix<double> duplicated;  // rows 0 and 2 hold their diagonal twice, row 1 not at all
  duplicated.rows = duplicated.cols = 3;
  duplicated.row_offsets = {0, 3, 4, 7};
  duplicated.columns = {0, 1, 0, 2, 2, 0, 2};
  duplicated.values.assign(7, 1.0);
  shapes.push_back({"duplicated diagonal entries", duplicated});
  DeviceContext context;
  DeviceSpace<double> device_space(context);
  HostSpace<double> host_space;
  for (const test::NamedShape& shape : shapes) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double>& matrix = shape.matrix;
    std::vector<index_t> host(static_cast<std::size_t>(matrix.rows));
    host_space.find_diagonal_positions(matrix.rows, matrix.row_offsets.data(),
                                       matrix.columns.data(), host.data());
    const DeviceBuffer<index_t> offsets(matrix.row_offsets), columns(matrix.columns);
    DeviceBuffer<index_t> positions(host.size(), "test positions");
    if (!host.empty())
      SPK_CUDA_CHECK(cudaMemsetAsync(positions.data(), 0xA5, positions.bytes(), context.stream()));
    device_space.find_diagonal_positions(matrix.rows, offsets.data(), columns.data(),
                                         positions.data());
    expect_same_bits(download_array(positions.data(), host.size(), context.stream()), host,
                     "diagonal positions");
  }
}

// The facts the CSR checks read, gathered on the device and on the host, for arrays with
// each kind of fault (and none).
TEST(DeviceLayouts, CsrCheckFactsMatchTheHost) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  const CsrMatrix<double> good = test::random_pattern_matrix(
      400, 400, [](index_t row) { return row % 7; }, rng);
  std::vector<std::pair<std::string, CsrMatrix<double>>> cases{{"valid", good}};
  auto with_change = [&](const std::string& name, auto change) {
    CsrMatrix<double> matrix = good;
    change(matrix);
    cases.push_back({name, matrix});
  };
  auto entry = std::uniform_int_distribution<index_t>(0, good.nnz() - 1);
  const index_t bad_entry = entry(rng), later_entry = std::max(bad_entry, entry(rng));
  with_change("column too large", [&](CsrMatrix<double>& m) { m.columns[bad_entry] = 400; });
  with_change("two negative columns", [&](CsrMatrix<double>& m) {
    m.columns[later_entry] = -3;
    m.columns[bad_entry] = -1;
  });
  with_change("NaN and Inf", [&](CsrMatrix<double>& m) {
    m.values[later_entry] = std::numeric_limits<double>::infinity();
    m.values[bad_entry] = std::numeric_limits<double>::quiet_NaN();
  });
  with_change("last entry bad", [&](CsrMatrix<double>& m) {
    m.columns.back() = 1000;
    m.values.back() = -std::numeric_limits<double>::infinity();
  });
  for (const auto& [name, matrix] : cases) {
    SCOPED_TRACE(name);
    const DeviceCsrMatrix<double> uploaded = to_device(matrix, "matrix");
    const DeviceCsr<double> device = describe_device_csr(uploaded, stream.get());
    const RowOffsetsFacts host_offsets = row_offsets_facts(matrix.rows, matrix.row_offsets.data());
    const RowOffsetsFacts device_offsets =
        device_row_offsets_facts(matrix.rows, device.row_offsets, stream.get());
    EXPECT_EQ(device_offsets.first, host_offsets.first);
    EXPECT_EQ(device_offsets.last, host_offsets.last);
    EXPECT_EQ(device_offsets.first_decreasing_row, host_offsets.first_decreasing_row);
    const EntryFacts host = entry_facts(matrix.rows, matrix.cols, matrix.row_offsets.data(),
                                        matrix.columns.data(), matrix.values.data());
    const EntryFacts got = device_entry_facts(matrix.rows, matrix.cols, device.row_offsets,
                                              device.columns, device.values, stream.get());
    for (const auto& [host_fact, device_fact] :
         {std::pair{host.column_out_of_range, got.column_out_of_range},
          std::pair{host.non_finite_value, got.non_finite_value}}) {
      EXPECT_EQ(device_fact.entry, host_fact.entry);
      EXPECT_EQ(device_fact.row, host_fact.row);
      EXPECT_EQ(device_fact.column, host_fact.column);
    }
  }
  // Decreasing offsets: the first decreasing row (only the offsets are looked at).
  std::vector<index_t> offsets = good.row_offsets;
  offsets[300] = offsets[299] - 1;
  offsets[120] = offsets[121] + 2;
  const DeviceBuffer<index_t> device_offsets(offsets);
  const RowOffsetsFacts facts =
      device_row_offsets_facts(good.rows, device_offsets.data(), stream.get());
  EXPECT_EQ(facts.first_decreasing_row,
            row_offsets_facts(good.rows, offsets.data()).first_decreasing_row);
}

}  // namespace
}  // namespace spk
