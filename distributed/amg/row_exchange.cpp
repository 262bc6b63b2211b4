#include "distributed/amg/row_exchange.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "core/host_parallel.hpp"
#include "core/step_trace.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Rows grouped by process, as one exchange sends or receives them: rows [first[q], first[q+1])
// of the arrays are process q's (sent to it, or received from it).
template <class T>
struct RowsByProcess {
  std::vector<index_t> first;
  std::vector<global_index_t> ids;
  std::vector<index_t> row_offsets{0};
  std::vector<global_index_t> columns;
  std::vector<T> values;
};

struct Processes {
  MPI_Comm comm;
  int rank = 0;
  int size = 1;
};

Processes processes_of(MPI_Comm comm) {
  Processes processes{comm};
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &processes.rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &processes.size));
  return processes;
}

// The counts and displacements of one side of an MPI_Alltoallv: each count and their total
// must fit an int (BadInput naming `what` otherwise).
struct Layout {
  std::vector<int> counts, displacements;
};

Layout layout_of(const std::vector<std::int64_t>& counts, const std::string& what) {
  Layout layout;
  std::int64_t total = 0;
  for (const std::int64_t count : counts) {
    layout.displacements.push_back(static_cast<int>(total));
    layout.counts.push_back(static_cast<int>(count));
    total += count;
    check_index_range(total, what);
  }
  return layout;
}

void check_partition(const RowPartition& rows, const Processes& processes, const char* where) {
  if (rows.processes() != processes.size)
    throw BadInput(std::string(where) + ": the row partition has " +
                   std::to_string(rows.processes()) + " blocks for " +
                   std::to_string(processes.size) + " processes");
}

// The exchange: out's rows go to their processes; returns the rows received, grouped by source
// in rank order. Without `entries` only the ids travel (the rows of `out` must be empty).
// Collective: MPI_Alltoall of the row counts, MPI_Alltoallv of (id, length) pairs, then of the
// columns and the values.
template <class T>
RowsByProcess<T> exchange_rows(const Processes& processes, const RowsByProcess<T>& out,
                               bool entries) {
  const auto size = static_cast<std::size_t>(processes.size);
  std::vector<int> send_rows(size), receive_rows(size);
  for (std::size_t q = 0; q < size; ++q) send_rows[q] = out.first[q + 1] - out.first[q];
  SPK_MPI_CHECK(
      MPI_Alltoall(send_rows.data(), 1, MPI_INT, receive_rows.data(), 1, MPI_INT, processes.comm));

  // (id, length) pairs: twice the rows each way
  Layout send_pairs, receive_pairs;
  std::vector<std::int64_t> pairs;
  on_every_process(processes.comm, [&] {
    std::vector<std::int64_t> send_counts(size), receive_counts(size);
    for (std::size_t q = 0; q < size; ++q) {
      send_counts[q] = 2 * static_cast<std::int64_t>(send_rows[q]);
      receive_counts[q] = 2 * static_cast<std::int64_t>(receive_rows[q]);
    }
    send_pairs = layout_of(send_counts, "twice the rows one process sends in a row exchange");
    receive_pairs =
        layout_of(receive_counts, "twice the rows one process receives in a row exchange");
    pairs.resize(2 * out.ids.size());
    for (std::size_t r = 0; r < out.ids.size(); ++r) {
      pairs[2 * r] = out.ids[r];
      pairs[2 * r + 1] = out.row_offsets[r + 1] - out.row_offsets[r];
    }
  });
  std::vector<std::int64_t> received_pairs(
      static_cast<std::size_t>(receive_pairs.displacements.back() + receive_pairs.counts.back()));
  SPK_MPI_CHECK(MPI_Alltoallv(pairs.data(), send_pairs.counts.data(),
                              send_pairs.displacements.data(), MPI_INT64_T, received_pairs.data(),
                              receive_pairs.counts.data(), receive_pairs.displacements.data(),
                              MPI_INT64_T, processes.comm));

  // The rows received: ids, offsets (their total must fit), and the entries' layouts.
  RowsByProcess<T> in;
  Layout send_entries, receive_entries;
  on_every_process(processes.comm, [&] {
    in.first.assign(size + 1, 0);
    for (std::size_t q = 0; q < size; ++q) in.first[q + 1] = in.first[q] + receive_rows[q];
    const std::size_t rows = received_pairs.size() / 2;
    in.ids.resize(rows);
    std::vector<std::int64_t> offsets(rows + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) {
      in.ids[r] = received_pairs[2 * r];
      offsets[r + 1] = offsets[r] + received_pairs[2 * r + 1];
    }
    check_index_range(offsets.back(), "entries one process receives in a row exchange");
    in.row_offsets.assign(offsets.begin(), offsets.end());
    if (!entries) return;
    std::vector<std::int64_t> send_counts(size), receive_counts(size);
    for (std::size_t q = 0; q < size; ++q) {
      send_counts[q] = out.row_offsets[out.first[q + 1]] - out.row_offsets[out.first[q]];
      receive_counts[q] = in.row_offsets[in.first[q + 1]] - in.row_offsets[in.first[q]];
    }
    send_entries = layout_of(send_counts, "entries one process sends in a row exchange");
    receive_entries = layout_of(receive_counts, "entries one process receives in a row exchange");
    in.columns.resize(static_cast<std::size_t>(in.row_offsets.back()));
    in.values.resize(in.columns.size());
  });
  if (!entries) return in;
  SPK_MPI_CHECK(MPI_Alltoallv(out.columns.data(), send_entries.counts.data(),
                              send_entries.displacements.data(), MPI_INT64_T, in.columns.data(),
                              receive_entries.counts.data(), receive_entries.displacements.data(),
                              MPI_INT64_T, processes.comm));
  SPK_MPI_CHECK(MPI_Alltoallv(
      out.values.data(), send_entries.counts.data(), send_entries.displacements.data(),
      mpi_datatype<T>(), in.values.data(), receive_entries.counts.data(),
      receive_entries.displacements.data(), mpi_datatype<T>(), processes.comm));
  return in;
}

template <class T>
void check_block(const RowBlock<T>& mine, const RowPartition& rows, int rank) {
  if (mine.first_row != rows.first_row(rank) || mine.end_row() != rows.end_row(rank))
    throw BadInput("fetch_rows: rows [" + std::to_string(mine.first_row) + ", " +
                   std::to_string(mine.end_row()) + ") are not this process's block [" +
                   std::to_string(rows.first_row(rank)) + ", " +
                   std::to_string(rows.end_row(rank)) + ")");
  if (mine.row_offsets.size() != static_cast<std::size_t>(mine.rows) + 1 ||
      mine.row_offsets.front() != 0 ||
      static_cast<std::size_t>(mine.row_offsets.back()) != mine.columns.size() ||
      mine.columns.size() != mine.values.size())
    throw BadInput("fetch_rows: the rows' CSR arrays are inconsistent (" +
                   std::to_string(mine.row_offsets.size()) + " row offsets for " +
                   std::to_string(mine.rows) + " rows, " + std::to_string(mine.columns.size()) +
                   " columns, " + std::to_string(mine.values.size()) + " values)");
}

template <class T>
void check_contributions(const GlobalRows<T>& rows, const RowPartition& partition,
                         global_index_t global_columns) {
  if (rows.row_offsets.size() != rows.ids.size() + 1 || rows.row_offsets.front() != 0 ||
      static_cast<std::size_t>(rows.row_offsets.back()) != rows.columns.size() ||
      rows.columns.size() != rows.values.size())
    throw BadInput("send_rows_to_owners: the rows' arrays are inconsistent (" +
                   std::to_string(rows.ids.size()) + " ids, " +
                   std::to_string(rows.row_offsets.size()) + " row offsets, " +
                   std::to_string(rows.columns.size()) + " columns, " +
                   std::to_string(rows.values.size()) + " values)");
  for (std::size_t r = 0; r < rows.ids.size(); ++r) {
    if (rows.ids[r] < 0 || rows.ids[r] >= partition.global_rows())
      throw BadInput("send_rows_to_owners: row " + std::to_string(rows.ids[r]) +
                     " is out of range 0.." + std::to_string(partition.global_rows() - 1));
    if (rows.row_offsets[r + 1] < rows.row_offsets[r])
      throw BadInput("send_rows_to_owners: row_offsets decrease at row " + std::to_string(r));
    for (index_t k = rows.row_offsets[r]; k < rows.row_offsets[r + 1]; ++k)
      if (rows.columns[k] < 0 || rows.columns[k] >= global_columns)
        throw BadInput("send_rows_to_owners: column " + std::to_string(rows.columns[k]) +
                       " of row " + std::to_string(rows.ids[r]) + " is out of range 0.." +
                       std::to_string(global_columns - 1));
  }
}

// One contribution to an owned row: `length` entries at columns/values.
template <class T>
struct Piece {
  global_index_t id;
  const global_index_t* columns;
  const T* values;
  index_t length;
};

// The owned rows [first_row, first_row + rows) as the sums of `pieces` (taken in order: the
// order of the sums), columns sorted. The work is in the pieces and their entries: the rows
// that get pieces (at an exchange, those next to the partition's cuts: a few of many) are
// found by sorting the pieces by row, and only the result's row offsets span every row (at
// 1.4M owned rows and 31k rows of pieces, arrays over every row made the sums 58 ms, in page
// faults and serial passes). Parallel over the touched rows; each row's pieces are gathered,
// sorted stably by column and summed in order into a staging area, then packed.
template <class T>
RowBlock<T> sum_pieces(const std::vector<Piece<T>>& pieces, global_index_t global_rows,
                       global_index_t first_row, index_t rows) {
  // The pieces by row, each row's in their order (a stable sort), and the touched rows.
  std::vector<std::size_t> order(pieces.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto by_row = [&](std::size_t x, std::size_t y) { return pieces[x].id < pieces[y].id; };
  if (!std::is_sorted(order.begin(), order.end(), by_row))
    std::stable_sort(order.begin(), order.end(), by_row);
  std::vector<index_t> touched;           // local rows, ascending
  std::vector<std::int64_t> piece_first;  // touched row t: order[piece_first[t]..)
  std::vector<std::int64_t> raw{0};       // its raw entries: staging[raw[t], raw[t + 1])
  for (std::size_t q = 0; q < order.size(); ++q) {
    const Piece<T>& piece = pieces[order[q]];
    const auto row = static_cast<index_t>(piece.id - first_row);
    if (touched.empty() || touched.back() != row) {
      touched.push_back(row);
      piece_first.push_back(static_cast<std::int64_t>(q));
      raw.push_back(raw.back());
    }
    raw.back() += piece.length;
  }
  piece_first.push_back(static_cast<std::int64_t>(order.size()));
  const auto touched_count = static_cast<std::int64_t>(touched.size());

  // Each touched row summed into the staging area at its raw offset; its unique count kept.
  std::vector<global_index_t> staged_columns(static_cast<std::size_t>(raw.back()));
  std::vector<T> staged_values(staged_columns.size());
  std::vector<index_t> unique(touched.size());
#pragma omp parallel if (raw.back() >= host_parallel_from)
  {
    std::vector<std::pair<global_index_t, T>> entries;
#pragma omp for schedule(dynamic, 64)
    for (std::int64_t t = 0; t < touched_count; ++t) {
      entries.clear();
      for (std::int64_t q = piece_first[t]; q < piece_first[t + 1]; ++q) {
        const Piece<T>& piece = pieces[order[static_cast<std::size_t>(q)]];
        for (index_t k = 0; k < piece.length; ++k)
          entries.emplace_back(piece.columns[k], piece.values[k]);
      }
      const auto by_column = [](const auto& x, const auto& y) { return x.first < y.first; };
      if (!std::is_sorted(entries.begin(), entries.end(), by_column))  // one sorted piece: as is
        std::stable_sort(entries.begin(), entries.end(), by_column);
      // c_ij = sum of the pieces' entries (i, j), in the pieces' order
      auto at = static_cast<std::size_t>(raw[static_cast<std::size_t>(t)]);
      std::size_t kept = 0;
      for (std::size_t e = 0; e < entries.size(); ++e) {
        if (kept > 0 && staged_columns[at + kept - 1] == entries[e].first) {
          staged_values[at + kept - 1] += entries[e].second;
        } else {
          staged_columns[at + kept] = entries[e].first;
          staged_values[at + kept] = entries[e].second;
          ++kept;
        }
      }
      unique[static_cast<std::size_t>(t)] = static_cast<index_t>(kept);
    }
  }

  // The row offsets over every owned row (empty between the touched ones), then the entries.
  RowBlock<T> block;
  block.global_rows = global_rows;
  block.first_row = first_row;
  block.rows = rows;
  block.row_offsets.resize(static_cast<std::size_t>(rows) + 1);
  std::vector<std::int64_t> packed(touched.size() + 1, 0);  // touched row t's first entry
  for (std::size_t t = 0; t < touched.size(); ++t) packed[t + 1] = packed[t] + unique[t];
  check_index_range(packed.back(), "entries of one process's rows after send_rows_to_owners");
  {
    std::size_t t = 0;
    index_t offset = 0;
    for (index_t row = 0; row < rows; ++row) {
      block.row_offsets[static_cast<std::size_t>(row)] = offset;
      if (t < touched.size() && touched[t] == row) offset += unique[t++];
    }
    block.row_offsets[static_cast<std::size_t>(rows)] = offset;
  }
  block.columns.resize(static_cast<std::size_t>(packed.back()));
  block.values.resize(block.columns.size());
#pragma omp parallel for schedule(static) if (packed.back() >= host_parallel_from)
  for (std::int64_t t = 0; t < touched_count; ++t) {
    const auto from = static_cast<std::size_t>(raw[static_cast<std::size_t>(t)]);
    const auto to = static_cast<std::size_t>(packed[static_cast<std::size_t>(t)]);
    const auto count = static_cast<std::size_t>(unique[static_cast<std::size_t>(t)]);
    std::copy_n(staged_columns.begin() + from, count, block.columns.begin() + to);
    std::copy_n(staged_values.begin() + from, count, block.values.begin() + to);
  }
  return block;
}

}  // namespace

template <class T>
FetchedRows<T> fetch_rows(MPI_Comm comm, const RowPartition& rows,
                          const std::vector<global_index_t>& wanted, const RowAnswer<T>& answer) {
  const Processes processes = processes_of(comm);
  const auto size = static_cast<std::size_t>(processes.size);
  StepTrace trace = StepTrace::when_enabled([&] {
    return "fetch_rows (rank " + std::to_string(processes.rank) + ", " +
           std::to_string(wanted.size()) + " rows)";
  });

  // The distinct rows wanted, ascending, hence grouped by owner in rank order.
  RowsByProcess<T> request;
  on_every_process(comm, [&] {
    check_partition(rows, processes, "fetch_rows");
    for (const global_index_t id : wanted)
      if (id < 0 || id >= rows.global_rows())
        throw BadInput("fetch_rows: row " + std::to_string(id) + " is out of range 0.." +
                       std::to_string(rows.global_rows() - 1));
    request.ids = wanted;
    std::sort(request.ids.begin(), request.ids.end());
    request.ids.erase(std::unique(request.ids.begin(), request.ids.end()), request.ids.end());
    check_index_range(static_cast<std::int64_t>(request.ids.size()),
                      "distinct rows one process fetches");
    request.first.resize(size + 1);
    for (std::size_t q = 0; q < size; ++q)
      request.first[q] =
          static_cast<index_t>(std::lower_bound(request.ids.begin(), request.ids.end(),
                                                rows.first_row(static_cast<int>(q))) -
                               request.ids.begin());
    request.first[size] = static_cast<index_t>(request.ids.size());
    request.row_offsets.assign(request.ids.size() + 1, 0);
  });
  trace.lap("request");
  const RowsByProcess<T> asked = exchange_rows(processes, request, false);
  trace.lap("ids exchanged");

  // The owner's answer: the rows asked for, in the order asked.
  RowsByProcess<T> answer_rows;
  on_every_process(comm, [&] {
    const int rank = processes.rank;
    for (const global_index_t id : asked.ids)
      if (id < rows.first_row(rank) || id >= rows.end_row(rank))
        throw BadInput("fetch_rows: a process asked for row " + std::to_string(id) +
                       ", which this process (rows [" + std::to_string(rows.first_row(rank)) +
                       ", " + std::to_string(rows.end_row(rank)) +
                       ")) does not own: do the processes pass the same partition?");
    FetchedRows<T> answered = answer(asked.ids);
    if (answered.row_offsets.size() != asked.ids.size() + 1 || answered.row_offsets.front() != 0 ||
        static_cast<std::size_t>(answered.row_offsets.back()) != answered.columns.size() ||
        answered.columns.size() != answered.values.size())
      throw BadInput("fetch_rows: the answer to " + std::to_string(asked.ids.size()) +
                     " rows asked has " + std::to_string(answered.row_offsets.size()) +
                     " row offsets, " + std::to_string(answered.columns.size()) + " columns and " +
                     std::to_string(answered.values.size()) + " values");
    answer_rows.first = asked.first;
    answer_rows.ids = asked.ids;
    answer_rows.row_offsets = std::move(answered.row_offsets);
    answer_rows.columns = std::move(answered.columns);
    answer_rows.values = std::move(answered.values);
  });
  trace.lap("answered (the owner's rows)");
  const RowsByProcess<T> got = exchange_rows(processes, answer_rows, true);
  trace.lap("rows exchanged");

  // got's rows are request.ids' (each owner answered in the order asked, owners in rank
  // order): copied out in `wanted` order.
  FetchedRows<T> fetched;
  on_every_process(comm, [&] {
    std::vector<index_t> slot(wanted.size());
    std::vector<std::int64_t> offsets(wanted.size() + 1, 0);
    const auto wanted_count = static_cast<std::int64_t>(wanted.size());
#pragma omp parallel for schedule(static) if (wanted_count >= host_parallel_from)
    for (std::int64_t r = 0; r < wanted_count; ++r) {  // each row's slot and length
      const auto w = static_cast<std::size_t>(r);
      slot[w] =
          static_cast<index_t>(std::lower_bound(request.ids.begin(), request.ids.end(), wanted[w]) -
                               request.ids.begin());
      offsets[w + 1] = got.row_offsets[static_cast<std::size_t>(slot[w]) + 1] -
                       got.row_offsets[static_cast<std::size_t>(slot[w])];
    }
    for (std::size_t r = 0; r < wanted.size(); ++r) offsets[r + 1] += offsets[r];
    check_index_range(offsets.back(), "entries of the rows one process fetches");
    fetched.row_offsets.assign(offsets.begin(), offsets.end());
    fetched.columns.resize(static_cast<std::size_t>(offsets.back()));
    fetched.values.resize(fetched.columns.size());
    const auto count = static_cast<std::int64_t>(wanted.size());
#pragma omp parallel for schedule(static) if (offsets.back() >= host_parallel_from)
    for (std::int64_t r = 0; r < count; ++r) {
      const auto s = static_cast<std::size_t>(slot[static_cast<std::size_t>(r)]);
      const index_t begin = got.row_offsets[s], end = got.row_offsets[s + 1];
      const index_t to = fetched.row_offsets[static_cast<std::size_t>(r)];
      std::copy(got.columns.begin() + begin, got.columns.begin() + end,
                fetched.columns.begin() + to);
      std::copy(got.values.begin() + begin, got.values.begin() + end, fetched.values.begin() + to);
    }
  });
  trace.lap("copied out in the order wanted");
  return fetched;
}

template <class T>
FetchedRows<T> fetch_rows(MPI_Comm comm, const RowBlock<T>& mine, const RowPartition& rows,
                          const std::vector<global_index_t>& wanted) {
  int rank = 0;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  // The answer from `mine`: the rows asked for, copied in the order asked.
  return fetch_rows<T>(comm, rows, wanted, [&](const std::vector<global_index_t>& asked) {
    check_block(mine, rows, rank);
    FetchedRows<T> answer;
    std::vector<std::int64_t> offsets(asked.size() + 1, 0);
    for (std::size_t r = 0; r < asked.size(); ++r) {
      const auto local = static_cast<std::size_t>(asked[r] - mine.first_row);
      offsets[r + 1] = offsets[r] + mine.row_offsets[local + 1] - mine.row_offsets[local];
    }
    check_index_range(offsets.back(), "entries one process sends in fetch_rows");
    answer.row_offsets.assign(offsets.begin(), offsets.end());
    answer.columns.resize(static_cast<std::size_t>(offsets.back()));
    answer.values.resize(answer.columns.size());
    const auto answered = static_cast<index_t>(asked.size());
#pragma omp parallel for schedule(static) if (offsets.back() >= host_parallel_from)
    for (index_t r = 0; r < answered; ++r) {
      const auto local = static_cast<std::size_t>(asked[r] - mine.first_row);
      const index_t begin = mine.row_offsets[local], end = mine.row_offsets[local + 1];
      std::copy(mine.columns.begin() + begin, mine.columns.begin() + end,
                answer.columns.begin() + answer.row_offsets[r]);
      std::copy(mine.values.begin() + begin, mine.values.begin() + end,
                answer.values.begin() + answer.row_offsets[r]);
    }
    return answer;
  });
}

// Where each term of send_rows_to_owners's sums lands in `block` (its row's entry of the same
// column), and the exchange's layouts, for RowSumsPlan::sum.
template <class T>
void plan_sums(RowSumsPlan<T>& plan, const RowBlock<T>& block, const RowsByProcess<T>& in,
               const GlobalRows<T>& contributions, const std::vector<int>& owner, std::size_t me,
               std::size_t size, const RowsByProcess<T>& out) {
  const auto target = [&](global_index_t id, global_index_t column) {
    const auto row = static_cast<std::size_t>(id - block.first_row);
    const auto first = block.columns.begin() + block.row_offsets[row];
    const auto last = block.columns.begin() + block.row_offsets[row + 1];
    return static_cast<std::int64_t>(std::lower_bound(first, last, column) - block.columns.begin());
  };
  plan.row_entries = block.values.size();
  plan.contribution_entries = contributions.values.size();
  plan.received_targets.assign(in.columns.size(), 0);
  for (std::size_t r = 0; r < in.ids.size(); ++r)
    for (index_t k = in.row_offsets[r]; k < in.row_offsets[r + 1]; ++k)
      plan.received_targets[static_cast<std::size_t>(k)] =
          target(in.ids[r], in.columns[static_cast<std::size_t>(k)]);
  plan.received_below = in.row_offsets[static_cast<std::size_t>(in.first[me])];
  plan.own_sources.clear();
  plan.own_targets.clear();
  for (std::size_t r = 0; r < contributions.ids.size(); ++r) {
    if (static_cast<std::size_t>(owner[r]) != me) continue;
    for (index_t k = contributions.row_offsets[r]; k < contributions.row_offsets[r + 1]; ++k) {
      plan.own_sources.push_back(k);
      plan.own_targets.push_back(
          target(contributions.ids[r], contributions.columns[static_cast<std::size_t>(k)]));
    }
  }
  std::vector<std::int64_t> send_counts(size), receive_counts(size);
  for (std::size_t q = 0; q < size; ++q) {
    send_counts[q] = out.row_offsets[out.first[q + 1]] - out.row_offsets[out.first[q]];
    receive_counts[q] = in.row_offsets[in.first[q + 1]] - in.row_offsets[in.first[q]];
  }
  const Layout sends = layout_of(send_counts, "entries one process sends in a row exchange");
  const Layout receives =
      layout_of(receive_counts, "entries one process receives in a row exchange");
  plan.send_counts = sends.counts;
  plan.send_displacements = sends.displacements;
  plan.receive_counts = receives.counts;
  plan.receive_displacements = receives.displacements;
}

template <class T>
std::vector<T> RowSumsPlan<T>::sum(MPI_Comm comm, const std::vector<T>& values) const {
  if (values.size() != contribution_entries)
    throw Error("send_rows_to_owners again: " + std::to_string(values.size()) +
                " values for contributions of " + std::to_string(contribution_entries) +
                " entries (internal error)");
  std::vector<T> sent(send_order.size());
  for (std::size_t k = 0; k < sent.size(); ++k)
    sent[k] = values[static_cast<std::size_t>(send_order[k])];
  std::vector<T> received(received_targets.size());
  SPK_MPI_CHECK(MPI_Alltoallv(sent.data(), send_counts.data(), send_displacements.data(),
                              mpi_datatype<T>(), received.data(), receive_counts.data(),
                              receive_displacements.data(), mpi_datatype<T>(), comm));
  // the terms in send_rows_to_owners's order: lower ranks', the own, higher ranks'
  std::vector<T> rows(row_entries, T(0));
  const auto add_received = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k)
      rows[static_cast<std::size_t>(received_targets[k])] += received[k];
  };
  add_received(0, static_cast<std::size_t>(received_below));
  for (std::size_t k = 0; k < own_sources.size(); ++k)
    rows[static_cast<std::size_t>(own_targets[k])] +=
        values[static_cast<std::size_t>(own_sources[k])];
  add_received(static_cast<std::size_t>(received_below), received.size());
  return rows;
}

template <class T>
RowBlock<T> send_rows_to_owners(MPI_Comm comm, const RowPartition& rows,
                                global_index_t global_columns, const GlobalRows<T>& contributions,
                                RowSumsPlan<T>* plan) {
  const Processes processes = processes_of(comm);
  const auto size = static_cast<std::size_t>(processes.size);
  const auto me = static_cast<std::size_t>(processes.rank);

  // The rows owned elsewhere, grouped by owner in rank order (a stable counting sort); this
  // process's own rows stay where they are.
  RowsByProcess<T> out;
  std::vector<int> owner(contributions.ids.size());
  on_every_process(comm, [&] {
    check_partition(rows, processes, "send_rows_to_owners");
    check_contributions(contributions, rows, global_columns);
    std::vector<std::int64_t> row_count(size + 1, 0), entry_count(size + 1, 0);
    for (std::size_t r = 0; r < contributions.ids.size(); ++r) {
      owner[r] = rows.owner(contributions.ids[r]);
      const auto q = static_cast<std::size_t>(owner[r]);
      if (q == me) continue;
      ++row_count[q + 1];
      entry_count[q + 1] += contributions.row_offsets[r + 1] - contributions.row_offsets[r];
    }
    for (std::size_t q = 0; q < size; ++q) {
      row_count[q + 1] += row_count[q];
      entry_count[q + 1] += entry_count[q];
    }
    out.first.assign(row_count.begin(), row_count.end());
    out.ids.resize(static_cast<std::size_t>(row_count.back()));
    out.row_offsets.assign(out.ids.size() + 1, 0);
    out.columns.resize(static_cast<std::size_t>(entry_count.back()));
    out.values.resize(out.columns.size());
    if (plan != nullptr) plan->send_order.assign(out.columns.size(), 0);
    std::vector<std::int64_t> next_row(row_count.begin(), row_count.end() - 1);
    std::vector<std::int64_t> next_entry(entry_count.begin(), entry_count.end() - 1);
    for (std::size_t r = 0; r < contributions.ids.size(); ++r) {
      const auto q = static_cast<std::size_t>(owner[r]);
      if (q == me) continue;
      const auto at = static_cast<std::size_t>(next_row[q]++);
      const index_t begin = contributions.row_offsets[r], end = contributions.row_offsets[r + 1];
      out.ids[at] = contributions.ids[r];
      out.row_offsets[at + 1] = end - begin;
      if (plan != nullptr)
        for (index_t k = begin; k < end; ++k)
          plan->send_order[static_cast<std::size_t>(next_entry[q] + (k - begin))] = k;
      std::copy(contributions.columns.begin() + begin, contributions.columns.begin() + end,
                out.columns.begin() + next_entry[q]);
      std::copy(contributions.values.begin() + begin, contributions.values.begin() + end,
                out.values.begin() + next_entry[q]);
      next_entry[q] += end - begin;
    }
    for (std::size_t r = 0; r < out.ids.size(); ++r) out.row_offsets[r + 1] += out.row_offsets[r];
  });
  StepTrace trace = StepTrace::when_enabled(
      [&] { return "send_rows_to_owners (rank " + std::to_string(processes.rank) + ")"; });
  const RowsByProcess<T> in = exchange_rows(processes, out, true);
  trace.lap("exchanged");

  // Every piece of this process's rows, in the order of the sums: the received ones by source
  // rank, this process's own at its rank.
  RowBlock<T> block;
  on_every_process(comm, [&] {
    std::vector<Piece<T>> pieces;
    pieces.reserve(in.ids.size() + contributions.ids.size());
    const auto received = [&](std::size_t from, std::size_t to) {
      for (std::size_t r = static_cast<std::size_t>(in.first[from]);
           r < static_cast<std::size_t>(in.first[to]); ++r)
        pieces.push_back({in.ids[r], in.columns.data() + in.row_offsets[r],
                          in.values.data() + in.row_offsets[r],
                          in.row_offsets[r + 1] - in.row_offsets[r]});
    };
    received(0, me);
    for (std::size_t r = 0; r < contributions.ids.size(); ++r)
      if (static_cast<std::size_t>(owner[r]) == me)
        pieces.push_back({contributions.ids[r],
                          contributions.columns.data() + contributions.row_offsets[r],
                          contributions.values.data() + contributions.row_offsets[r],
                          contributions.row_offsets[r + 1] - contributions.row_offsets[r]});
    received(me + 1, size);
    const int rank = processes.rank;
    check_index_range(rows.rows(rank), "rows of one process");
    for (const Piece<T>& piece : pieces)
      if (piece.id < rows.first_row(rank) || piece.id >= rows.end_row(rank))
        throw BadInput("send_rows_to_owners: received row " + std::to_string(piece.id) +
                       ", which this process does not own: do the processes pass the same "
                       "partition?");
    trace.lap("pieces listed");
    block = sum_pieces(pieces, rows.global_rows(), rows.first_row(rank),
                       static_cast<index_t>(rows.rows(rank)));
    trace.lap("pieces summed");
    if (plan != nullptr) plan_sums(*plan, block, in, contributions, owner, me, size, out);
  });
  trace.lap("sums planned");
  return block;
}

#define SPK_INSTANTIATE(T)                                                                     \
  template FetchedRows<T> fetch_rows(MPI_Comm, const RowBlock<T>&, const RowPartition&,        \
                                     const std::vector<global_index_t>&);                      \
  template FetchedRows<T> fetch_rows(MPI_Comm, const RowPartition&,                            \
                                     const std::vector<global_index_t>&, const RowAnswer<T>&); \
  template RowBlock<T> send_rows_to_owners(MPI_Comm, const RowPartition&, global_index_t,      \
                                           const GlobalRows<T>&, RowSumsPlan<T>*);             \
  template class RowSumsPlan<T>;
SPK_INSTANTIATE(float)
SPK_INSTANTIATE(double)
#undef SPK_INSTANTIATE

}  // namespace spk
