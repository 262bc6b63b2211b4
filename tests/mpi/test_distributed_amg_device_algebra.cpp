// The pieces of the GPU path's distributed AMG setup (distributed/amg/) under mpirun -np 1..4:
//   - host (run everywhere): the whole form of a process's rows (whole_rows.hpp) and back, and
//     fetch_rows with an answering callback (row_exchange.hpp) against fetch_rows of a block;
//   - device (skip without a GPU): the Galerkin product with ghost rows and the restriction
//     (device_distributed_coarse_product.hpp) against the one-process product of the whole
//     matrices every process also computes, and the smoothed prolongator through A's halo
//     (device_distributed_prolongator.hpp) against the host's distributed prolongator; both
//     again after new values (a re-setup); the rows fetched GPU to GPU (device_row_exchange.hpp)
//     against fetch_device_rows and the host's whole form. The device pieces run over both
//     transports of device rows: host-staged MPI always, NCCL where every process has a GPU of
//     its own and SPK_TEST_TRANSPORT=nccl. Partitions are uneven, with an empty process from
//     three processes on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "distributed/amg/column_set.hpp"
#include "distributed/amg/device_distributed_coarse_product.hpp"
#include "distributed/amg/device_distributed_prolongator.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/device_row_exchange.hpp"
#include "distributed/amg/distributed_prolongator.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/device_binding.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/nccl_communicator.hpp"
#include "solver/amg/device_csr_check.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/sparse_product.hpp"
#include "spmv/host/generators.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::world_rank;
using test::world_size;

// Blocks of `rows` rows weighted 1, 3, 2, 4, ... by rank (rotated by `shift`); process 1 gets
// none from three processes on.
RowPartition uneven(global_index_t rows, int shift = 0) {
  const int size = world_size();
  std::vector<global_index_t> weight(static_cast<std::size_t>(size));
  global_index_t total = 0;
  for (int q = 0; q < size; ++q) {
    const int p = (q + shift) % size;
    weight[static_cast<std::size_t>(q)] = (size >= 3 && q == 1) ? 0 : 1 + (p % 2) * 2 + p % 3;
    total += weight[static_cast<std::size_t>(q)];
  }
  std::vector<global_index_t> counts(static_cast<std::size_t>(size));
  global_index_t given = 0;
  for (int q = 0; q < size; ++q) {
    counts[static_cast<std::size_t>(q)] = rows * weight[static_cast<std::size_t>(q)] / total;
    given += counts[static_cast<std::size_t>(q)];
  }
  counts[0] += rows - given;
  return partition_from_counts(counts);
}

RowBlock<double> block_of(const CsrMatrix<double>& whole, const RowPartition& partition) {
  return rows_of(whole, partition.first_row(world_rank()), partition.end_row(world_rank()));
}

// A prolongator: row i -> column i / 4, plus in about one row of five an entry at a random
// column, values in [0.5, 1.5).
CsrMatrix<double> some_prolongator(index_t fine, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(0.5, 1.5);
  const index_t coarse = (fine + 3) / 4;
  std::uniform_int_distribution<index_t> column(0, coarse - 1);
  CsrMatrix<double> p;
  p.rows = fine;
  p.cols = coarse;
  for (index_t i = 0; i < fine; ++i) {
    std::map<index_t, double> row{{i / 4, value(random)}};
    if (random() % 5 == 0) row[column(random)] += 0.25;
    for (const auto& [j, v] : row) {
      p.columns.push_back(j);
      p.values.push_back(v);
    }
    p.row_offsets.push_back(p.nnz());
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// host pieces

TEST(DistributedAmgDeviceAlgebra, WholeRowsSortOwnColumnsFirstAndGoBack) {
  RowBlock<double> block;
  block.global_rows = 10;
  block.first_row = 4;
  block.rows = 2;
  block.row_offsets = {0, 4, 6};
  block.columns = {9, 1, 5, 4, 8, 6};  // own columns [4, 7): 5, 4 and 6
  block.values = {1, 2, 3, 4, 5, 6};
  const WholeRows whole = whole_rows(block, 4, 3);
  EXPECT_EQ(whole.halo_columns, (std::vector<global_index_t>{1, 8, 9}));
  EXPECT_EQ(whole.matrix.cols, 6);
  EXPECT_EQ(whole.matrix.columns, (std::vector<index_t>{0, 1, 3, 5, 2, 4}));
  EXPECT_EQ(whole.matrix.values, (std::vector<double>{4, 3, 2, 1, 6, 5}));
  EXPECT_EQ(whole.order, (std::vector<index_t>{3, 2, 1, 0, 5, 4}));
  const RowBlock<double> back = global_rows_of(whole.matrix, 4, 10, 4, 3, whole.halo_columns);
  EXPECT_EQ(back.columns, (std::vector<global_index_t>{4, 5, 1, 9, 6, 8}));
  EXPECT_EQ(back.values, whole.matrix.values);
  // a given halo wider than needed; a column outside it, and a repeated column, refused
  EXPECT_EQ(whole_rows(block, 4, 3, {0, 1, 8, 9}).matrix.columns,
            (std::vector<index_t>{0, 1, 4, 6, 2, 5}));
  EXPECT_THROW(whole_rows(block, 4, 3, {1, 9}), BadInput);
  block.columns[1] = 9;
  EXPECT_THROW(whole_rows(block, 4, 3), BadInput);
}

// distinct_outside and ColumnSlots against sort + unique and binary search, on fresh random
// ids with repeats, over a span the bitmap takes and one it does not, and on empty input.
TEST(DistributedAmgDeviceAlgebra, ColumnSetsEqualSortUniqueAndBinarySearch) {
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  for (const global_index_t span :
       {global_index_t{1}, global_index_t{1000}, global_index_t{5} * dense_span_limit}) {
    SCOPED_TRACE("span " + std::to_string(span));
    std::uniform_int_distribution<global_index_t> id(0, span - 1);
    std::vector<global_index_t> ids(20000), more(300);
    for (auto& value : ids) value = 7 + id(rng);
    for (auto& value : more) value = 7 + id(rng);
    const global_index_t own_begin = 7 + span / 3, own_end = 7 + span / 2;
    std::vector<global_index_t> expected;
    for (const auto* list : {&ids, &more})
      for (const global_index_t value : *list)
        if (value < own_begin || value >= own_end) expected.push_back(value);
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    const std::vector<global_index_t> distinct = distinct_outside(ids, own_begin, own_end, more);
    EXPECT_EQ(distinct, expected);
    const ColumnSlots slots(distinct);
    for (std::size_t k = 0; k < std::min<std::size_t>(ids.size(), 2000); ++k) {
      const auto at = std::lower_bound(expected.begin(), expected.end(), ids[k]);
      const index_t want =
          at != expected.end() && *at == ids[k] ? static_cast<index_t>(at - expected.begin()) : -1;
      ASSERT_EQ(slots.slot_of(ids[k]), want) << "id " << ids[k];
    }
    EXPECT_EQ(slots.slot_of(-5), -1);
    EXPECT_EQ(slots.slot_of(8 + span), -1);
  }
  EXPECT_TRUE(distinct_outside({}, 0, 1).empty());
  EXPECT_TRUE(distinct_outside({3, 4}, 3, 5).empty());  // all own
  EXPECT_EQ(ColumnSlots({}).slot_of(0), -1);
}

// whole_rows on random rows, each given sorted by global column (the rows of U summed by
// send_rows_to_owners: no sort needed) or shuffled, against a sort of each row by local column.
TEST(DistributedAmgDeviceAlgebra, WholeRowsOfRandomRowsEqualSortedRows) {
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  const global_index_t global_columns = 5000, first_column = 2000;
  const index_t own_columns = 1000;
  for (const bool sorted_rows : {true, false}) {
    SCOPED_TRACE(sorted_rows ? "rows sorted by global column" : "rows shuffled");
    RowBlock<double> block;
    block.global_rows = 300;
    block.first_row = 100;
    block.rows = 100;
    block.row_offsets = {0};
    std::uniform_int_distribution<global_index_t> column(0, global_columns - 1);
    std::uniform_int_distribution<int> length(0, 40);
    for (index_t row = 0; row < block.rows; ++row) {
      std::vector<global_index_t> columns(static_cast<std::size_t>(row % 7 == 0 ? 0 : length(rng)));
      for (auto& c : columns) c = column(rng);
      std::sort(columns.begin(), columns.end());
      columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
      if (!sorted_rows) std::shuffle(columns.begin(), columns.end(), rng);
      for (const global_index_t c : columns) {
        block.columns.push_back(c);
        block.values.push_back(std::uniform_real_distribution<double>(-1, 1)(rng));
      }
      block.row_offsets.push_back(static_cast<index_t>(block.columns.size()));
    }
    const WholeRows whole = whole_rows(block, first_column, own_columns);
    const ColumnSlots slots(whole.halo_columns);
    for (index_t row = 0; row < block.rows; ++row) {
      std::vector<std::pair<index_t, double>> expected;
      for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k) {
        const global_index_t c = block.columns[k];
        const bool own = c >= first_column && c < first_column + own_columns;
        ASSERT_TRUE(own || slots.slot_of(c) >= 0) << "column " << c << " not in the halo";
        expected.emplace_back(
            own ? static_cast<index_t>(c - first_column) : own_columns + slots.slot_of(c),
            block.values[k]);
      }
      std::sort(expected.begin(), expected.end());
      for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k) {
        const auto e = expected[static_cast<std::size_t>(k - block.row_offsets[row])];
        ASSERT_EQ(whole.matrix.columns[k], e.first) << "row " << row;
        ASSERT_EQ(whole.matrix.values[k], e.second) << "row " << row;
        ASSERT_EQ(block.values[whole.order[k]], e.second) << "row " << row;
      }
    }
    EXPECT_TRUE(std::is_sorted(whole.halo_columns.begin(), whole.halo_columns.end()));
  }
}

TEST(DistributedAmgDeviceAlgebra, FetchRowsWithAnAnswerEqualsFetchRowsOfTheBlock) {
  const CsrMatrix<double> whole = generate_poisson2d(9);
  const RowPartition partition = uneven(whole.rows);
  const RowBlock<double> mine = block_of(whole, partition);
  std::mt19937_64 random(3 + static_cast<std::uint64_t>(world_rank()));
  std::vector<global_index_t> wanted;
  for (int k = 0; k < 25; ++k) wanted.push_back(static_cast<global_index_t>(random() % 81));
  const FetchedRows<double> direct = fetch_rows(MPI_COMM_WORLD, mine, partition, wanted);
  long long asked_rows = 0;
  const FetchedRows<double> answered = fetch_rows<double>(
      MPI_COMM_WORLD, partition, wanted, [&](const std::vector<global_index_t>& asked) {
        asked_rows += static_cast<long long>(asked.size());
        FetchedRows<double> rows;
        for (const global_index_t id : asked) {
          EXPECT_GE(id, mine.first_row);
          EXPECT_LT(id, mine.end_row());
          const auto local = static_cast<std::size_t>(id - mine.first_row);
          for (index_t k = mine.row_offsets[local]; k < mine.row_offsets[local + 1]; ++k) {
            rows.columns.push_back(mine.columns[k]);
            rows.values.push_back(mine.values[k]);
          }
          rows.row_offsets.push_back(static_cast<index_t>(rows.columns.size()));
        }
        return rows;
      });
  EXPECT_EQ(answered.row_offsets, direct.row_offsets);
  EXPECT_EQ(answered.columns, direct.columns);
  EXPECT_EQ(answered.values, direct.values);
  // every distinct wanted row was asked of its owner once
  std::vector<global_index_t> distinct = wanted;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_EQ(test::sum_over_processes(static_cast<double>(asked_rows)),
            test::sum_over_processes(static_cast<double>(distinct.size())));
  // an answer of the wrong shape on one process: refused on every process
  EXPECT_THROW(fetch_rows<double>(MPI_COMM_WORLD, partition, wanted,
                                  [&](const std::vector<global_index_t>& asked) {
                                    FetchedRows<double> rows;  // rank 0: one offset too many
                                    rows.row_offsets.assign(
                                        asked.size() + (world_rank() == 0 ? 2 : 1), 0);
                                    return rows;
                                  }),
               BadInput);
}

// ---------------------------------------------------------------------------------------------
// device pieces

// This process's rows of `whole` as a device level (rows by `rows`, columns by `columns`), and
// the order of its entries in the whole form (for new values).
DeviceDistributedLevel upload_level(FaultWatch& watch, const CsrMatrix<double>& whole,
                                    const RowPartition& rows, const RowPartition& columns,
                                    std::vector<index_t>* order = nullptr) {
  const int rank = world_rank();
  WholeRows mine = whole_rows(block_of(whole, rows), columns.first_row(rank),
                              static_cast<index_t>(columns.rows(rank)));
  if (order != nullptr) *order = mine.order;
  return make_device_level(watch, rows, columns, mine.halo_columns,
                           to_device(mine.matrix, "test level"));
}

// New values of `whole` (same pattern) into a level uploaded with `order`.
void write_values(DeviceDistributedLevel& level, const CsrMatrix<double>& whole,
                  const RowPartition& rows, const std::vector<index_t>& order) {
  const RowBlock<double> block = block_of(whole, rows);
  std::vector<double> values(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    values[k] = block.values[static_cast<std::size_t>(order[k])];
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  level.owned.values.copy_from_host(values);
}

// This process's rows of a device level with global columns, each row sorted by column.
RowBlock<double> download_level(const DeviceDistributedLevel& level) {
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const CsrMatrix<double> rows = download_row_range(level.whole(), 0, level.rows, nullptr);
  RowBlock<double> block = global_rows_of(rows, level.first_row, level.global_rows(),
                                          level.first_column, level.cols, level.halo_columns);
  for (index_t row = 0; row < block.rows; ++row) {
    std::vector<std::pair<global_index_t, double>> entries;
    for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k)
      entries.emplace_back(block.columns[k], block.values[k]);
    std::sort(entries.begin(), entries.end());
    for (std::size_t e = 0; e < entries.size(); ++e) {
      block.columns[block.row_offsets[row] + e] = entries[e].first;
      block.values[block.row_offsets[row] + e] = entries[e].second;
    }
  }
  return block;
}

// This process's rows of `level` equal the rows of `reference` (a whole host matrix, or the
// host's rows `expected_rows`) it owns: the same columns, values within `tolerance` * max
// |reference|; returns the largest relative error over processes.
double expect_rows_equal(const RowBlock<double>& got, const RowBlock<double>& expected,
                         double scale, double tolerance) {
  EXPECT_EQ(got.first_row, expected.first_row);
  EXPECT_EQ(got.rows, expected.rows);
  EXPECT_EQ(got.row_offsets, expected.row_offsets);
  EXPECT_EQ(got.columns, expected.columns);
  double worst = 0.0;
  if (got.columns == expected.columns && got.values.size() == expected.values.size())
    for (std::size_t k = 0; k < got.values.size(); ++k)
      worst = std::max(worst, std::abs(got.values[k] - expected.values[k]));
  const double relative = scale > 0.0 ? worst / scale : worst;
  double global = 0.0;
  MPI_Allreduce(&relative, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_LE(global, tolerance);
  return global;
}

double largest(const std::vector<double>& values) {
  double m = 0.0;
  for (const double v : values) m = std::max(m, std::abs(v));
  return m;
}

// The transports device rows move over in these tests: host-staged MPI (no communicator),
// and NCCL where SPK_TEST_TRANSPORT=nccl and every process has a GPU of its own (each process
// then uses the GPU of its local rank). Collective.
struct RowTransports {
  std::unique_ptr<NcclCommunicator> nccl;
  std::vector<std::pair<std::string, const NcclCommunicator*>> each() const {
    std::vector<std::pair<std::string, const NcclCommunicator*>> all{{"mpi", nullptr}};
    if (nccl) all.emplace_back("nccl", nccl.get());
    return all;
  }
};

RowTransports row_transports() {
  RowTransports transports;
  const char* chosen = std::getenv("SPK_TEST_TRANSPORT");
  if (chosen == nullptr || std::string(chosen) != "nccl") return transports;
  const DeviceBinding binding = bind_device(MPI_COMM_WORLD, true);
  if (!binding.gpu_shared())
    transports.nccl = std::make_unique<NcclCommunicator>(MPI_COMM_WORLD, 0);
  return transports;
}

// Device memory written with NaN bit patterns (all bits set) and freed, so that arrays allocated
// next start poisoned rather than zero: a result that misses an entry shows it.
void poison_free_device_memory() {
  DeviceBuffer<unsigned char> poison(std::size_t{64} << 20, "test poison");
  ASSERT_EQ(cudaMemset(poison.data(), 0xff, poison.bytes()), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

struct ProductCase {
  std::string label;
  CsrMatrix<double> a;
};

std::vector<ProductCase> product_cases() {
  std::vector<ProductCase> cases;
  cases.push_back({"poisson2d n=12", generate_poisson2d(12)});
  cases.push_back({"poisson3d n=6", generate_poisson3d(6, 7)});
  cases.push_back({"convdiff2d n=10", generate_convdiff2d(10, 2.0, ConvectionScheme::upwind)});
  return cases;
}

// The operand check of the device products (device_csr_check.hpp): a valid matrix passes, a
// column past the width, an unsorted row and offsets that do not end at nnz are named.
TEST(DistributedAmgDeviceAlgebra, CsrCheckNamesInvalidOperands) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> m = some_prolongator(40, 3);
  EXPECT_EQ(device_csr_problem(to_device(m, "check"), nullptr), "");
  CsrMatrix<double> wide = m;
  wide.columns[5] = wide.cols;
  EXPECT_NE(device_csr_problem(to_device(wide, "check"), nullptr).find("outside"),
            std::string::npos);
  CsrMatrix<double> unsorted = generate_poisson2d(4);
  std::swap(unsorted.columns[0], unsorted.columns[1]);
  EXPECT_NE(device_csr_problem(to_device(unsorted, "check"), nullptr).find("not strictly"),
            std::string::npos);
  DeviceCsrMatrix<double> short_offsets = to_device(m, "check");
  short_offsets.row_offsets.copy_from_host(std::vector<index_t>(m.row_offsets.size(), 0));
  EXPECT_NE(device_csr_problem(short_offsets, nullptr).find("row_offsets[rows]"),
            std::string::npos);
}

// With a re-setup to follow (the ghost rows through the host, their values again by a plan)
// and without (GPU to GPU, freed as used), over each transport.
TEST(DistributedAmgDeviceAlgebra, GalerkinWithGhostRowsEqualsTheOneProcessProduct) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const RowTransports transports = row_transports();
  FaultWatch watch(MPI_COMM_WORLD, false);
  const CudaStream stream;
  const DeviceSetupContext setup(stream.get());
  for (const auto& [transport, nccl] : transports.each())
    for (const bool keep_resetup_state : {true, false})
      for (const ProductCase& c : product_cases()) {
        SCOPED_TRACE(c.label + ", " + transport +
                     (keep_resetup_state ? ", re-setup state kept" : ", no re-setup"));
        poison_free_device_memory();
        const CsrMatrix<double> p = some_prolongator(c.a.rows, 5);
        CsrMatrix<double> reference;
        GalerkinProduct one(c.a, p, reference);  // A_c = P^T A P on the whole matrices
        const RowPartition fine = uneven(c.a.rows);
        const RowPartition coarse = uneven(p.cols, 1);
        std::vector<index_t> a_order;
        DeviceDistributedLevel a = upload_level(watch, c.a, fine, fine, &a_order);
        const DeviceDistributedLevel p_level = upload_level(watch, p, fine, coarse);
        DeviceDistributedLevel a_c;
        DeviceDistributedCoarseProduct product(watch, a, p_level, a_c, setup, keep_resetup_state,
                                               nccl);
        EXPECT_EQ(device_csr_problem(a_c.whole(), nullptr), "");
        EXPECT_EQ(device_csr_problem(product.restriction().whole(), nullptr), "");
        const double error = expect_rows_equal(download_level(a_c), block_of(reference, coarse),
                                               largest(reference.values), 1e-13);
        EXPECT_EQ(a_c.global_nnz, reference.nnz());
        // R = P^T: its rows by the coarse partition, the fine partition's columns
        const CsrMatrix<double> r = transpose(p, nullptr);
        expect_rows_equal(download_level(product.restriction()), block_of(r, coarse),
                          largest(r.values), 0.0);
        if (world_rank() == 0)
          std::printf(
              "  %s, %s, %d processes: A_c %d x %d, %d entries, max relative error %.2e "
              "(%s)\n",
              c.label.c_str(), transport.c_str(), world_size(), reference.rows, reference.cols,
              reference.nnz(), error, product.algorithms().c_str());
        if (!keep_resetup_state) continue;

        // Re-setup: new values of A, the same patterns, the new product.
        CsrMatrix<double> a2 = c.a;
        for (std::size_t k = 0; k < a2.values.size(); ++k)
          a2.values[k] = a2.values[k] * 1.5 + 0.125 * static_cast<double>(k % 3);
        one.compute(a2, p, reference);
        write_values(a, a2, fine, a_order);
        product.compute(a, p_level, a_c);
        expect_rows_equal(download_level(a_c), block_of(reference, coarse),
                          largest(reference.values), 1e-13);
      }
}

// T local to each process: its rows in aggregates of three consecutive rows, numbered after
// the lower ranks' (the coarse partition is each process's aggregate count).
struct LocalTentative {
  CsrMatrix<double> matrix;
  RowPartition coarse;
};

LocalTentative local_tentative(const RowPartition& fine) {
  std::vector<global_index_t> counts;
  for (int q = 0; q < fine.processes(); ++q) counts.push_back((fine.rows(q) + 2) / 3);
  LocalTentative t;
  t.coarse = partition_from_counts(counts);
  t.matrix.rows = static_cast<index_t>(fine.global_rows());
  t.matrix.cols = static_cast<index_t>(t.coarse.global_rows());
  for (int q = 0; q < fine.processes(); ++q)
    for (global_index_t i = fine.first_row(q); i < fine.end_row(q); ++i) {
      t.matrix.columns.push_back(
          static_cast<index_t>(t.coarse.first_row(q) + (i - fine.first_row(q)) / 3));
      t.matrix.values.push_back(0.5 + 0.01 * static_cast<double>(i % 7));
      t.matrix.row_offsets.push_back(t.matrix.nnz());
    }
  return t;
}

TEST(DistributedAmgDeviceAlgebra, ProlongatorThroughTheHaloEqualsTheHostsDistributedOne) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const RowTransports transports = row_transports();
  FaultWatch watch(MPI_COMM_WORLD, false);
  const CudaStream stream;
  const DeviceSetupContext setup(stream.get());
  const double weight = 4.0 / 3.0, lambda = 1.9;
  for (const auto& [transport, nccl] : transports.each())
    for (const ProductCase& c : product_cases()) {
      SCOPED_TRACE(c.label + ", " + transport);
      poison_free_device_memory();
      const RowPartition fine = uneven(c.a.rows, 2);
      const LocalTentative t = local_tentative(fine);
      CsrMatrix<double> a_values = c.a;
      const auto inverse_diagonal = [&](const CsrMatrix<double>& a) {  // this process's rows
        std::vector<double> d;
        for (global_index_t i = fine.first_row(world_rank()); i < fine.end_row(world_rank()); ++i)
          for (index_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k)
            if (a.columns[k] == i) d.push_back(1.0 / a.values[k]);
        return d;
      };
      // the host's distributed prolongator
      DistributedLevel a_host = make_level(watch, block_of(c.a, fine), fine, fine);
      DistributedProlongator host(
          watch, a_host, make_level(watch, block_of(t.matrix, fine), fine, t.coarse), weight);
      host.compute(a_host, inverse_diagonal(c.a), lambda);
      // the device's
      std::vector<index_t> a_order;
      DeviceDistributedLevel a = upload_level(watch, c.a, fine, fine, &a_order);
      DeviceDistributedProlongator device(watch, a, upload_level(watch, t.matrix, fine, t.coarse),
                                          weight, setup, nccl);
      const DeviceBuffer<double> d(inverse_diagonal(c.a), "test D^-1");
      device.compute(a, d, lambda);
      const RowBlock<double>& expected = host.matrix().block;
      const double error = expect_rows_equal(download_level(device.matrix()), expected,
                                             largest(expected.values), 1e-14);
      EXPECT_EQ(device.matrix().global_nnz, host.matrix().global_nnz);
      if (world_rank() == 0)
        std::printf("  %s, %s, %d processes: P with %lld entries, max relative error %.2e\n",
                    c.label.c_str(), transport.c_str(), world_size(),
                    static_cast<long long>(host.matrix().global_nnz), error);

      // Re-setup: new values of A.
      for (std::size_t k = 0; k < a_values.values.size(); ++k)
        a_values.values[k] *= 1.0 + 0.1 * static_cast<double>(k % 4);
      set_level_values(a_host, block_of(a_values, fine).values);
      host.compute(a_host, inverse_diagonal(a_values), lambda);
      write_values(a, a_values, fine, a_order);
      const DeviceBuffer<double> d2(inverse_diagonal(a_values), "test D^-1");
      device.compute(a, d2, lambda);
      expect_rows_equal(download_level(device.matrix()), host.matrix().block,
                        largest(host.matrix().block.values), 1e-14);
    }
}

// A random matrix every process builds alike (the seed is rank 0's): rows of 0 to 12 entries,
// every seventh row empty, one row holding every column.
CsrMatrix<double> random_rows(global_index_t rows, index_t cols, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<index_t> column(0, cols - 1);
  CsrMatrix<double> m;
  m.rows = static_cast<index_t>(rows);
  m.cols = cols;
  for (index_t i = 0; i < m.rows; ++i) {
    std::map<index_t, double> row;
    if (i == m.rows / 2)
      for (index_t j = 0; j < cols; ++j) row[j] = value(random);
    else if (i % 7 != 0)
      for (int k = static_cast<int>(random() % 13); k > 0; --k) row[column(random)] = value(random);
    for (const auto& [j, v] : row) {
      m.columns.push_back(j);
      m.values.push_back(v);
    }
    m.row_offsets.push_back(m.nnz());
  }
  return m;
}

DeviceGlobalRows poisoned_fetch(FaultWatch& watch, const NcclCommunicator* nccl,
                                const DeviceDistributedLevel& level,
                                const std::vector<global_index_t>& wanted, cudaStream_t stream) {
  poison_free_device_memory();
  return fetch_rows_on_device(watch, nccl, level, wanted, stream);
}

// fetch_rows_on_device against fetch_device_rows (the same rows through the host), for rows
// asked ascending without own ones (a halo), in any order with repeats and own rows, and none;
// then distinct_outside_on_device and whole_rows_on_device against the host's forms of those
// rows; and the refusals: an id out of range on one process (BadInput everywhere), a halo that
// misses a column.
TEST(DistributedAmgDeviceAlgebra, RowsFetchedGpuToGpuEqualTheHostsFetchAndWholeForm) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const RowTransports transports = row_transports();
  FaultWatch watch(MPI_COMM_WORLD, false);
  const CudaStream stream;
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const global_index_t global_rows = 400;
  const index_t global_cols = 150;
  const CsrMatrix<double> m = random_rows(global_rows, global_cols, seed);
  const RowPartition rows = uneven(global_rows), columns = uneven(global_cols, 1);
  const DeviceDistributedLevel level = upload_level(watch, m, rows, columns);
  const int rank = world_rank();
  std::mt19937_64 random(seed + static_cast<std::uint64_t>(rank) + 1);
  std::vector<global_index_t> halo_like, shuffled;
  for (global_index_t i = 0; i < global_rows; ++i)
    if ((i < rows.first_row(rank) || i >= rows.end_row(rank)) && random() % 3 == 0)
      halo_like.push_back(i);
  for (int k = 0; k < 300; ++k) shuffled.push_back(static_cast<global_index_t>(random() % 400));
  shuffled.push_back(global_rows / 2);  // the full row, at least once
  const std::vector<std::pair<std::string, std::vector<global_index_t>>> asks{
      {"ascending, others' rows", halo_like}, {"any order, repeats", shuffled}, {"none", {}}};
  const global_index_t own_begin = columns.first_row(rank), own_end = columns.end_row(rank);
  const std::vector<global_index_t> more{global_cols + 5, global_cols + 9};  // outside, extra
  for (const auto& [transport, nccl] : transports.each())
    for (const auto& [label, wanted] : asks) {
      SCOPED_TRACE(label + ", " + transport);
      const FetchedRows<double> expected = fetch_device_rows(watch, level, wanted, stream.get());
      const DeviceGlobalRows got = poisoned_fetch(watch, nccl, level, wanted, stream.get());
      ASSERT_EQ(got.rows, static_cast<index_t>(wanted.size()));
      EXPECT_EQ(download_array(got.row_offsets.data(), got.row_offsets.size(), stream.get()),
                expected.row_offsets);
      EXPECT_EQ(download_array(got.columns.data(), got.columns.size(), stream.get()),
                expected.columns);
      EXPECT_EQ(download_array(got.values.data(), got.values.size(), stream.get()),
                expected.values);

      const std::vector<global_index_t> halo =
          distinct_outside_on_device(got.columns, own_begin, own_end, more, stream.get());
      EXPECT_EQ(halo, distinct_outside(expected.columns, own_begin, own_end, more));
      RowBlock<double> block;
      block.rows = got.rows;
      block.row_offsets = expected.row_offsets;
      block.columns = expected.columns;
      block.values = expected.values;
      const auto own = static_cast<index_t>(own_end - own_begin);
      const WholeRows host = whole_rows(block, own_begin, own, halo);
      poison_free_device_memory();
      const DeviceCsrMatrix<double> whole =
          whole_rows_on_device(got, own_begin, own, halo, stream.get());
      EXPECT_EQ(whole.cols, host.matrix.cols);
      EXPECT_EQ(download_array(whole.row_offsets.data(), whole.row_offsets.size(), stream.get()),
                host.matrix.row_offsets);
      EXPECT_EQ(download_array(whole.columns.data(), whole.columns.size(), stream.get()),
                host.matrix.columns);
      EXPECT_EQ(download_array(whole.values.data(), whole.values.size(), stream.get()),
                host.matrix.values);
      if (!halo.empty()) {  // a halo without its first column: an internal error
        const std::vector<global_index_t> short_halo(halo.begin() + 1, halo.end());
        const bool named = std::find(expected.columns.begin(), expected.columns.end(),
                                     halo.front()) != expected.columns.end();
        if (named) {
          EXPECT_THROW(whole_rows_on_device(got, own_begin, own, short_halo, stream.get()), Error);
        }
      }
    }
  // an id past the level's rows on the last process: refused on every process
  for (const auto& [transport, nccl] : transports.each()) {
    SCOPED_TRACE(transport);
    std::vector<global_index_t> wanted{0};
    if (rank == world_size() - 1) wanted.push_back(global_rows);
    EXPECT_THROW(fetch_rows_on_device(watch, nccl, level, wanted, stream.get()), BadInput);
  }
}

}  // namespace
}  // namespace spk
