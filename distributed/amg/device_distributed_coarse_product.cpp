#include "distributed/amg/device_distributed_coarse_product.hpp"

#include <algorithm>
#include <utility>

#include "core/host_parallel.hpp"
#include "core/step_trace.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/column_set.hpp"
#include "distributed/amg/device_ghost_values.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/device_row_exchange.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/fault_watch.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// SPK_TRACE=1: each step's wall time (core/step_trace.hpp)
StepTrace product_trace(const char* what, const DeviceDistributedLevel& p, FaultWatch& watch,
                        const DeviceSetupContext& setup) {
  return StepTrace::when_enabled(
      [&] {
        return std::string("amg ") + what + " to " + std::to_string(p.global_cols()) +
               " coarse rows (rank " + std::to_string(watch.rank()) + ")";
      },
      [&setup] { setup.synchronize(); });
}

}  // namespace

DeviceDistributedCoarseProduct::DeviceDistributedCoarseProduct(
    FaultWatch& watch, const DeviceDistributedLevel& a, const DeviceDistributedLevel& p,
    DeviceDistributedLevel& coarse, const DeviceSetupContext& setup, bool keep_resetup_state,
    const NcclCommunicator* nccl)
    : watch_(watch), setup_(setup), own_coarse_(p.cols) {
  const cudaStream_t stream = setup_.stream();
  const index_t own = own_coarse_;
  StepTrace trace = product_trace("galerkin setup", p, watch_, setup_);

  // 1. The ghost rows of P (global columns): with a re-setup to follow, through the host with
  // the plan that fetches their values again; without, GPU to GPU, once.
  RowBlock<double> ghost;
  DeviceGlobalRows ghost_on_device;
  if (keep_resetup_state) {
    FetchedRows<double> fetched;
    ghost_values_ =
        std::make_unique<DeviceGhostValues>(watch_, p, a.halo_columns, setup_.stream(), fetched);
    ghost.rows = static_cast<index_t>(a.halo_columns.size());
    ghost.row_offsets = std::move(fetched.row_offsets);
    ghost.columns = std::move(fetched.columns);
    ghost.values = std::move(fetched.values);
  } else {
    ghost_on_device = fetch_rows_on_device(watch_, nccl, p, a.halo_columns, stream);
  }
  trace.lap("ghost rows of P");

  on_every_process(watch_, [&] {
    // 2. U: the other processes' aggregates P's own or ghost rows name; B = [P_own; P_ghost].
    union_ =
        keep_resetup_state
            ? distinct_outside(ghost.columns, p.first_column, p.first_column + own, p.halo_columns)
            : distinct_outside_on_device(ghost_on_device.columns, p.first_column,
                                         p.first_column + own, p.halo_columns, stream);
    check_index_range(static_cast<std::int64_t>(own) + static_cast<std::int64_t>(union_.size()),
                      "columns of P's own and ghost rows on one process");
    const index_t width = own + static_cast<index_t>(union_.size());
    const ColumnSlots union_slots(union_);
    std::vector<index_t> slot_map(p.halo_columns.size());  // P's halo slot -> B's column
    for (std::size_t k = 0; k < slot_map.size(); ++k)
      slot_map[k] = own + union_slots.slot_of(p.halo_columns[k]);
    // P_own in B's columns: B's first rows and R_local's source; freed once both are built
    // (its values are P's, in P's order, so a re-setup reads P's values directly)
    trace.lap("B: U and the slot map");
    DeviceCsrMatrix<double> renumbered = remapped_copy(p.whole(), own, slot_map, width, stream);
    trace.lap("B: P_own renumbered");
    if (keep_resetup_state) {
      WholeRows ghost_rows = whole_rows(ghost, p.first_column, own, union_);
      ghost_order_ = std::move(ghost_rows.order);
      trace.lap("B: ghost rows renumbered (host)");
      stacked_ = stack_rows(renumbered, ghost_rows.matrix, width, stream);
    } else {
      const DeviceCsrMatrix<double> ghost_rows =
          whole_rows_on_device(ghost_on_device, p.first_column, own, union_, stream);
      trace.lap("B: ghost rows renumbered (device)");
      stacked_ = stack_rows(renumbered, ghost_rows, width, stream);
      setup_.synchronize();  // the ghost rows are freed on leaving
      ghost_on_device = DeviceGlobalRows();
    }
    trace.lap("B = [P_own; P_ghost] stacked");

    // 4. R_local = P_own^T first: the transpose's sort and the renumbered copy are gone before
    // A B, the largest array of the setup, exists; 3. A B; R_local (A B).
    transpose_ = std::make_unique<DeviceTranspose>(renumbered, transposed_, setup_);
    setup_.synchronize();
    renumbered = DeviceCsrMatrix<double>();
    trace.lap("R_local = P_own^T");
    ap_ = std::make_unique<DeviceSparseProduct>(a.whole(), stacked_, product_ap_, setup_);
    if (!keep_resetup_state) {  // no re-setup: B is not needed past A B
      setup_.synchronize();
      stacked_ = DeviceCsrMatrix<double>();
    }
    trace.lap("A B");
    rap_ = std::make_unique<DeviceSparseProduct>(transposed_, product_ap_, product_rap_, setup_);
    if (!rap_->holds_arrays()) ap_->release(product_ap_);  // found again by a re-setup
    if (!keep_resetup_state) {  // A B is not needed past R (A B), whatever the algorithm
      setup_.synchronize();
      product_ap_ = DeviceCsrMatrix<double>();
    }
    trace.lap("R_local (A B)");
  });

  // 5. The rows of U to their owners, added there to the own rows: A_{l+1}, then R. With a
  // re-setup to follow, through the host with the plans that move their values again; without,
  // GPU to GPU.
  DeviceCsrMatrix<double> coarse_rows;
  std::vector<global_index_t> coarse_halo;
  if (keep_resetup_state) {
    coarse_received_ = send_remote_rows(product_rap_, own, p.first_column, true, p.column_partition,
                                        p.global_cols(), &coarse_sums_);
    on_every_process(watch_, [&] {
      coarse_merge_ =
          std::make_unique<DeviceRowMerge>(own_rows(product_rap_, own), union_, coarse_received_,
                                           p.first_column, own, coarse_rows, coarse_halo, stream);
    });
  } else {
    const DeviceRowPieces pieces =
        send_rows_to_owners_on_device(watch_, nccl, product_rap_, own, union_, p.column_partition,
                                      p.first_column, own, union_, stream);
    on_every_process(watch_, [&] {
      coarse_merge_ =
          std::make_unique<DeviceRowMerge>(own_rows(product_rap_, own), union_, pieces,
                                           p.first_column, own, coarse_rows, coarse_halo, stream);
    });
  }
  trace.lap("rows of U sent and merged (A_{l+1})");
  coarse = make_device_level(watch_, p.column_partition, p.column_partition, std::move(coarse_halo),
                             std::move(coarse_rows));
  trace.lap("A_{l+1}'s level");

  DeviceCsrMatrix<double> restriction_rows;
  std::vector<global_index_t> restriction_halo;
  if (keep_resetup_state) {
    restriction_received_ =
        send_remote_rows(transposed_, own, a.first_row, false, p.column_partition, a.global_rows(),
                         &restriction_sums_);
    on_every_process(watch_, [&] {
      restriction_merge_ = std::make_unique<DeviceRowMerge>(
          own_rows(transposed_, own), std::vector<global_index_t>{}, restriction_received_,
          a.first_row, a.rows, restriction_rows, restriction_halo, stream);
    });
  } else {
    const DeviceRowPieces pieces = send_rows_to_owners_on_device(
        watch_, nccl, transposed_, own, union_, p.column_partition, a.first_row, transposed_.cols,
        std::vector<global_index_t>{}, stream);
    on_every_process(watch_, [&] {
      restriction_merge_ = std::make_unique<DeviceRowMerge>(
          own_rows(transposed_, own), std::vector<global_index_t>{}, pieces, a.first_row, a.rows,
          restriction_rows, restriction_halo, stream);
    });
  }
  trace.lap("rows of U sent and merged (R)");
  restriction_ = make_device_level(watch_, p.column_partition, a.row_partition,
                                   std::move(restriction_halo), std::move(restriction_rows));
  trace.lap("R's level");
}

void DeviceDistributedCoarseProduct::release_resetup_state() {
  released_algorithms_ = algorithms();
  setup_.synchronize();  // nothing queued may still read what is freed
  union_ = {};
  ghost_order_ = {};
  stacked_ = {};
  transposed_ = {};
  product_ap_ = {};
  product_rap_ = {};
  ghost_values_.reset();
  transpose_.reset();
  ap_.reset();
  rap_.reset();
  coarse_merge_.reset();
  restriction_merge_.reset();
  coarse_sums_ = {};
  restriction_sums_ = {};
  coarse_received_ = {};
  restriction_received_ = {};
}

void DeviceDistributedCoarseProduct::compute(const DeviceDistributedLevel& a,
                                             const DeviceDistributedLevel& p,
                                             DeviceDistributedLevel& coarse) {
  if (!released_algorithms_.empty())
    throw Error("amg: the Galerkin product's re-setup state was released (internal error)");
  const cudaStream_t stream = setup_.stream();
  const index_t own = own_coarse_;
  StepTrace trace = product_trace("galerkin re-setup", p, watch_, setup_);
  const std::vector<double> ghost = ghost_values(p);
  trace.lap("ghost values of P");
  on_every_process(watch_, [&] {
    const DeviceCsrMatrix<double>& p_rows = p.whole();
    stack_values(p_rows.values.data(), p_rows.nnz(), ghost, stacked_, stream);  // B
    trace.lap("B's values");
    ap_->compute(a.whole(), stacked_, product_ap_);  // A B
    trace.lap("A B");
    // R_local from P's rows: their halo slots order the entries as B's columns do (the slot
    // map increases), so the transpose's sort by column finds the same permutation
    transpose_->compute(p_rows, transposed_);
    trace.lap("R_local = P_own^T");
    rap_->compute(transposed_, product_ap_, product_rap_);  // R_local (A B)
    if (!rap_->holds_arrays()) ap_->release(product_ap_);
    trace.lap("R_local (A B)");
  });
  coarse_received_.values = remote_sums(product_rap_, own, coarse_sums_);
  on_every_process(watch_, [&] {
    coarse_merge_->compute(own_rows(product_rap_, own), coarse_received_, coarse.owned);
  });
  trace.lap("rows of U sent and merged (A_{l+1})");
  restriction_received_.values = remote_sums(transposed_, own, restriction_sums_);
  on_every_process(watch_, [&] {
    restriction_merge_->compute(own_rows(transposed_, own), restriction_received_,
                                restriction_.owned);
  });
  trace.lap("rows of U sent and merged (R)");
}

std::vector<double> DeviceDistributedCoarseProduct::ghost_values(const DeviceDistributedLevel& p) {
  const std::vector<double> fetched = ghost_values_->values(p);
  std::vector<double> values;
  on_every_process(watch_, [&] {
    if (fetched.size() != ghost_order_.size())
      throw Error("amg update_values: P's ghost rows have " + std::to_string(fetched.size()) +
                  " entries, not " + std::to_string(ghost_order_.size()) + " (internal error)");
    values.resize(ghost_order_.size());
    for (std::size_t k = 0; k < values.size(); ++k)
      values[k] = fetched[static_cast<std::size_t>(ghost_order_[k])];
  });
  return values;
}

std::vector<double> DeviceDistributedCoarseProduct::remote_sums(
    const DeviceCsrMatrix<double>& product, index_t own, const RowSumsPlan<double>& plan) {
  std::vector<double> values;
  on_every_process(watch_, [&] {  // rows [own, rows): the entries from the first of them on
    const index_t begin = download_array(product.row_offsets.data() + own, 1, setup_.stream())[0];
    values = download_array(product.values.data() + begin,
                            static_cast<std::size_t>(product.nnz() - begin), setup_.stream());
  });
  return plan.sum(watch_.comm(), values);
}

RowBlock<double> DeviceDistributedCoarseProduct::send_remote_rows(
    const DeviceCsrMatrix<double>& product, index_t own, global_index_t first_column,
    bool columns_in_union, const RowPartition& owners, global_index_t global_columns,
    RowSumsPlan<double>* plan) {
  GlobalRows<double> pieces;
  StepTrace trace = StepTrace::when_enabled([&] {
    return "amg rows of U to their owners (rank " + std::to_string(watch_.rank()) + ", " +
           std::to_string(product.rows - own) + " rows)";
  });
  on_every_process(watch_, [&] {
    const CsrMatrix<double> rows = download_row_range(product, own, product.rows, setup_.stream());
    trace.lap("download");
    pieces.ids = union_;  // product's rows [own, own + |U|) are U's
    pieces.row_offsets = rows.row_offsets;
    pieces.columns.resize(rows.columns.size());
    const auto entries = static_cast<std::int64_t>(rows.columns.size());
#pragma omp parallel for schedule(static) if (entries >= host_parallel_from)
    for (std::int64_t k = 0; k < entries; ++k) {
      const index_t column = rows.columns[static_cast<std::size_t>(k)];
      pieces.columns[static_cast<std::size_t>(k)] =
          columns_in_union ? global_column(column, first_column, own, union_)
                           : first_column + column;
    }
    pieces.values = rows.values;
    trace.lap("global columns");
  });
  RowBlock<double> received =
      send_rows_to_owners(watch_.comm(), owners, global_columns, pieces, plan);
  trace.lap("send_rows_to_owners");
  return received;
}

DeviceCsr<double> DeviceDistributedCoarseProduct::own_rows(const DeviceCsrMatrix<double>& product,
                                                           index_t rows) const {
  DeviceCsr<double> view;
  view.rows = rows;
  view.cols = product.cols;
  view.nnz = download_array(product.row_offsets.data() + rows, 1, setup_.stream())[0];
  view.row_offsets = product.row_offsets.data();
  view.columns = product.columns.data();
  view.values = product.values.data();
  return view;
}

std::string DeviceDistributedCoarseProduct::algorithms() const {
  if (!released_algorithms_.empty()) return released_algorithms_;
  return "gpu, distributed (ghost rows of P fetched; A P: " + ap_->algorithm() +
         ", R (A P): " + rap_->algorithm() + "; rows of other processes sent to their owners)";
}

}  // namespace spk
