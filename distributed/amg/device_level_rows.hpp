#pragma once
// Rows of a device CSR matrix moved between the device and the host, for the GPU path's
// distributed AMG setup (device_distributed_prolongator.hpp,
// device_distributed_coarse_product.hpp): the bulk of each level stays on the device, and only the
// rows other processes need cross to the host (the boundary rows of T and P that neighbours fetch,
// the coarse rows owned elsewhere), as PETSc's MatPtAP for MPIAIJ moves only those rows between
// processes.
//
//   download_rows        chosen rows (a thread per row gathers them into a compact CSR on the
//                        device; their lengths are summed on the host), then one copy each of
//                        the offsets, columns and values
//   download_row_range   consecutive rows: three copies, no kernel
//   stack_rows           a device matrix with device or host rows appended below it (the
//                        ghost rows of a product's right factor), and stack_values for new
//                        values
//   remapped_copy        a device matrix whose columns >= own are renumbered by a map (a halo
//                        numbering widened to a larger one: the map must increase, so that
//                        each row stays sorted)
//   fill_on_device       x[i] = value
// Everything runs on `stream`; what returns host data has synchronized it.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "spmv/device/device_csr.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// Rows `rows` (local row ids, any order, repeats allowed) of `m`, in that order, with m's
// columns (cols = m.cols).
CsrMatrix<double> download_rows(const DeviceCsrMatrix<double>& m, const std::vector<index_t>& rows,
                                cudaStream_t stream);

// Rows [first, end) of `m`.
CsrMatrix<double> download_row_range(const DeviceCsrMatrix<double>& m, index_t first, index_t end,
                                     cudaStream_t stream);

// [top; bottom]: top.rows + bottom.rows rows, `cols` columns (bottom's columns must be < cols
// and sorted within each row, as top's are). Asynchronous on `stream` for a device bottom.
DeviceCsrMatrix<double> stack_rows(const DeviceCsrMatrix<double>& top,
                                   const DeviceCsrMatrix<double>& bottom, index_t cols,
                                   cudaStream_t stream);
DeviceCsrMatrix<double> stack_rows(const DeviceCsrMatrix<double>& top,
                                   const CsrMatrix<double>& bottom, index_t cols,
                                   cudaStream_t stream);
// New values of the same two parts: top's values (device, top_nnz of them), then bottom's.
void stack_values(const double* top_values, index_t top_nnz,
                  const std::vector<double>& bottom_values, DeviceCsrMatrix<double>& stacked,
                  cudaStream_t stream);

// A copy of `m` whose column c >= own becomes slot_map[c - own] (c < own stays), `cols`
// columns. slot_map must increase.
DeviceCsrMatrix<double> remapped_copy(const DeviceCsrMatrix<double>& m, index_t own,
                                      const std::vector<index_t>& slot_map, index_t cols,
                                      cudaStream_t stream);

void fill_on_device(std::size_t n, double value, double* x, cudaStream_t stream);

}  // namespace spk
