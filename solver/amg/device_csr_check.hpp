#pragma once
// What is wrong with a device CSR matrix as an operand of cuSPARSE (SpGEMM, csr2csc), found on
// the host: cuSPARSE does not check its operands, and an invalid one (a column index past the
// declared width, offsets that do not end at nnz) shows up as a wrong result or a misleading
// status (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES for a product of a few dozen rows: the count
// of intermediate products is read through the bad offsets). Checked:
//   - rows + 1 offsets, starting at 0, never decreasing, ending at nnz (= the columns' count,
//     = the values' count);
//   - every column in [0, cols);
//   - each row's columns strictly increasing (sorted, no repeats: the setup's CSR invariant).
// It copies the offsets and columns to the host (O(nnz)): for tests, for the message of a
// failed product, and for a debug run (SPK_CHECK_SPGEMM_OPERANDS=1 checks every operand).
#include <cstdlib>
#include <string>
#include <vector>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

// "" when `m` is a valid sorted CSR matrix, else the first problem found (synchronizes stream).
template <class V>
std::string device_csr_problem(const DeviceCsrMatrix<V>& m, cudaStream_t stream) {
  if (m.rows < 0 || m.cols < 0)
    return "negative shape " + std::to_string(m.rows) + " x " + std::to_string(m.cols);
  if (m.row_offsets.size() != static_cast<std::size_t>(m.rows) + 1)
    return std::to_string(m.row_offsets.size()) + " row offsets for " + std::to_string(m.rows) +
           " rows";
  if (m.values.size() != m.columns.size())
    return std::to_string(m.values.size()) + " values for " + std::to_string(m.columns.size()) +
           " columns";
  const std::vector<index_t> offsets =
      download_array(m.row_offsets.data(), m.row_offsets.size(), stream);
  const std::vector<index_t> columns = download_array(m.columns.data(), m.columns.size(), stream);
  if (offsets.front() != 0) return "row_offsets[0] = " + std::to_string(offsets.front());
  if (offsets.back() != static_cast<index_t>(columns.size()))
    return "row_offsets[rows] = " + std::to_string(offsets.back()) + ", nnz " +
           std::to_string(columns.size());
  for (index_t row = 0; row < m.rows; ++row) {
    const index_t begin = offsets[static_cast<std::size_t>(row)];
    const index_t end = offsets[static_cast<std::size_t>(row) + 1];
    if (end < begin) return "row " + std::to_string(row) + ": offsets decrease";
    for (index_t k = begin; k < end; ++k) {
      const index_t c = columns[static_cast<std::size_t>(k)];
      if (c < 0 || c >= m.cols)
        return "row " + std::to_string(row) + ": column " + std::to_string(c) + " outside [0, " +
               std::to_string(m.cols) + ")";
      if (k > begin && columns[static_cast<std::size_t>(k) - 1] >= c)
        return "row " + std::to_string(row) + ": columns not strictly increasing (" +
               std::to_string(columns[static_cast<std::size_t>(k) - 1]) + " then " +
               std::to_string(c) + ")";
    }
  }
  return "";
}

// Whether SPK_CHECK_SPGEMM_OPERANDS is set (to anything but 0): check every SpGEMM operand.
inline bool check_spgemm_operands() {
  static const bool on = [] {
    const char* value = std::getenv("SPK_CHECK_SPGEMM_OPERANDS");
    return value != nullptr && std::string(value) != "0" && std::string(value) != "";
  }();
  return on;
}

}  // namespace spk
