#pragma once
// generate_device_grid_rows: one process's rows [first, end) of a grid operator (the `generate`
// grid kinds: poisson2d/3d, convdiff2d/3d, elasticity3d; spmv/host/grid_stencil.hpp) built on the
// device, already split as the distributed solver keeps them (distributed/local_halo_split.hpp),
// so the matrix never exists on the host:
//
//   local        rows x rows, the entries in the process's own columns, column j - first
//   halo         the rows that reach other processes' columns (the non-empty rows of the halo
//                block, as compressed_rows_operator.hpp stores it): halo_rows[k] is the local
//                row of halo row k; column s is halo slot s, global column halo_columns[s]
//   halo_columns the distinct columns outside [first, end) the rows use, ascending (on the
//                host: a few planes, 2 n^2 for a 7-point stencil)
//   pattern      (asked for) the whole rows, own columns as local ids and halo slot s as
//                column rows + s, in storage order (SplitRows::pattern: what the preconditioners
//                read)
//   halo_starts  rows + 1: the halo block's offsets over every row (the whole form over the
//                same entries; DeviceSplitRows::halo_starts)
//   local_positions (asked for: block Jacobi) the pattern position of each local entry
//   rhs          (asked for) b = ones, or b = A 1 (the row sums: rhs from_solution with the
//                solution ones, every entry of x* being 1, halo included)
//
// The arrays equal, entry for entry, assemble_grid_rows followed by split_local_and_halo and
// drop_empty_rows on the host (tests/gpu/test_device_grid_rows.cpp).
//
// How (three kernels and five scans, all on `stream`): the halo columns of a row block lie in a
// window of at most 2R columns next to it (grid_rows_geometry.hpp). Pass 1, a thread per row:
// count the row's own and halo entries, and flag the window positions of its halo columns.
// Scans: the local offsets, each row's first halo entry, the kept (non-empty halo) rows'
// numbers, and the flags' slots; then the kept rows' ids and offsets and the halo column list
// are compacted from them. Pass 2, a thread per row: write the entries (own column - first, or
// the slot of the window position), the pattern, and b. Only the sizes come back to the host
// (4 integers) and the halo column list. The checks (32-bit rows and entries of the block,
// check_grid_block) come first, before any allocation.
//
// Memory: the result, plus 3 (rows + 1) index_t scratch arrays during the build (1 GB each at
// 250M rows); the pattern, when asked, is a second copy of the rows (columns and values).
//
// Where it plugs in: the app (apps/distributed/distributed_problem.cpp) calls it for `device:
// gpu` grid kinds and hands the rows to the GPU solver as a DeviceSplitRows (split_rows_of),
// which skips the host assembly, the upload and the device split (device_split_rows.hpp); the
// time is the report's load.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/device_split_rows.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/grid_stencil.hpp"

namespace spk {

enum class DeviceRhs { none, ones, row_sums };

struct DeviceGridRowsRequest {
  bool pattern = false;
  bool local_positions = false;  // needs pattern
  DeviceRhs rhs = DeviceRhs::none;
};

template <class T>
struct DeviceGridRows {
  global_index_t global_rows = 0;
  global_index_t first_row = 0;
  index_t rows = 0;
  DeviceCsrMatrix<T> local;
  DeviceCsrMatrix<T> halo;          // halo_rows.size() rows, halo_columns.size() columns
  DeviceBuffer<index_t> halo_rows;  // local ids of the halo block's non-empty rows, ascending
  std::vector<global_index_t> halo_columns;
  DeviceBuffer<index_t> halo_starts;      // rows + 1
  DeviceCsrMatrix<T> pattern;             // empty unless asked for
  DeviceBuffer<index_t> local_positions;  // empty unless asked for
  DeviceBuffer<T> rhs;                    // empty unless asked for

  index_t halo_row_count() const { return halo.rows; }
  index_t nnz() const { return local.nnz() + halo.nnz(); }
};

// `name` prefixes the size errors (e.g. "poisson3d n=1000 (rank 2)"). Synchronizes `stream`
// before it returns.
template <class T>
DeviceGridRows<T> generate_device_grid_rows(const GridStencil& stencil, int n,
                                            global_index_t first_row, global_index_t end_row,
                                            const DeviceGridRowsRequest& request,
                                            const std::string& name, cudaStream_t stream);

// The rows as the GPU solver takes them (a square block: own columns = rows); moves the arrays
// out of `rows` (its rhs stays).
template <class T>
DeviceSplitRows<T> split_rows_of(DeviceGridRows<T>& rows);

}  // namespace spk
