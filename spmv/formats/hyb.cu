// `hyb`: ELLPACK + COO (Bell & Garland's hybrid; reviewed as "HYB [13]" in the ELLPACK-R
// paper, seed /work/shared/seeds/ellpack-r.txt).
//
// Layout: hyb_layout.hpp, built on the device from the device CSR arrays (ell_build.hpp, the
// row-length histogram included; to_hyb is its CPU reference). The first K entries of every row in
// a column-major, pitch-aligned ELL array (-1 padding); the overflow as row-sorted COO triples. K
// is spmv.hyb_width when
// >= 0, otherwise the documented cost rule over the row-length histogram (hyb_layout.hpp),
// which keeps small regular matrices entirely in ELL. The ELL part must fit the device
// memory (BadInput otherwise).
//
// Thread mapping: the ELL kernel (one thread per row, ell_kernels.cuh) writes y[i] for every
// row; then, on the same stream, the COO kernel (one warp per 256 triples, segmented warp
// reduction, one atomicAdd per row segment; coo_kernel.cuh) adds the overflow. The atomics
// make the float result of rows split across chunks nondeterministic in the last bits.
//
// bytes_per_spmv = rows * K * (sizeof(Value) + 4)          ELL slots, padding included
//                + coo_entries * (sizeof(Value) + 8)       COO triples
//                + cols * sizeof(T) + rows * sizeof(T) x read once, y written once
//                + coo_rows * 2 * sizeof(T)            y re-read and re-written by the COO
//                                                      atomics, once per overflowing row.
// device_bytes   = pitch * K * (sizeof(Value) + 4) + coo_entries * (sizeof(T) + 8) + (rows + 1) * 4
//                  (the CSR row offsets update_values scatters with) + rows * 8 when some row
//                  spills into COO (where each row's COO entries start, device_values.hpp).
// Values: one device array (held by HandWrittenBackend), the pitch * K ELL slots followed by
// the coo_entries COO values.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "spmv/formats/coo_kernel.cuh"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/ell_device_part.cuh"
#include "spmv/formats/hand_written_backend.cuh"
#include "spmv/formats/hyb_layout.hpp"

namespace spk {

namespace {

EllPaddingLimits hyb_limits() {
  EllPaddingLimits limits;  // the width rule bounds the padding: only the size rule
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = to_string(Format::hyb);
  return limits;
}

template <class T, class Value = T>
class Hyb final : public HandWrittenBackend<T, Value, Hyb<T, Value>> {
 public:
  Hyb(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : Hyb(matrix, build_hyb(matrix, options.hyb_width, hyb_limits(), stream), options, stream) {}

  // The ELL part writes every y[i] = alpha (ELL row . x) + beta y[i]; the COO part then adds
  // alpha times its sums, on the same stream.
  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    ell_.multiply(this->values(), x, output, y, this->launch(), this->stream());
    const std::int64_t entries = choice_.coo_entries;
    if (entries == 0) return;
    const int block_size = this->launch().block_size();
    with_block_class(block_size, [&](auto block_class) {
      coo_kernels::coo_add_kernel<decltype(block_class)::value>
          <<<coo_kernels::coo_blocks(entries, block_size), block_size, 0, this->stream()>>>(
              entries, coo_rows_.data(), coo_columns_.data(), this->values() + ell_.slots(), x,
              output, y);
    });
    SPK_CHECK_LAUNCH("coo_add_kernel");
  }
  std::size_t device_bytes() const override {
    return this->values_device_bytes() + ell_.column_bytes() + coo_rows_.bytes() +
           coo_columns_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    const std::size_t coo_entries = static_cast<std::size_t>(choice_.coo_entries);
    const std::size_t coo_rows = static_cast<std::size_t>(choice_.coo_rows);
    return ell_.bytes_read<Value>() + coo_entries * (sizeof(Value) + 2 * sizeof(index_t)) +
           (static_cast<std::size_t>(this->cols()) + this->rows()) * sizeof(T) +
           coo_rows * 2 * sizeof(T);
  }

 private:
  Hyb(const DeviceCsr<Value>& matrix, DeviceHyb<Value>&& hyb, const SpmvOptions& options,
      cudaStream_t stream)
      : HandWrittenBackend<T, Value, Hyb<T, Value>>(
            Format::hyb, matrix, options, stream,
            DeviceValues<Value>(std::move(hyb.ell.values), matrix.nnz, matrix.rows,
                                matrix.row_offsets, hyb.ell.width, hyb.ell.pitch,
                                std::move(hyb.tail_starts), "hyb values", stream)),
        choice_(hyb.choice),
        ell_(hyb.ell),
        coo_rows_(std::move(hyb.coo_rows)),
        coo_columns_(std::move(hyb.coo_columns)) {}

  typename HandWrittenBackend<T, Value, Hyb<T, Value>>::Details format_details() const override {
    const index_t nnz_count = this->nnz();
    const double nnz = static_cast<double>(nnz_count);
    const double ell_slots = static_cast<double>(this->rows()) * choice_.width;
    const double ell_entries = static_cast<double>(choice_.ell_entries);
    return {{"threads_per_row", "1 (ELL part)"},
            {"ell_width", std::to_string(choice_.width)},
            {"width_rule", choice_.rule},
            {"pitch", std::to_string(ell_.pitch())},
            {"ell_entries", std::to_string(choice_.ell_entries)},
            {"ell_share", nnz_count == 0 ? "-" : percent_text(ell_entries / nnz)},
            {"coo_entries", std::to_string(choice_.coo_entries)},
            {"coo_share",
             nnz_count == 0 ? "-" : percent_text(static_cast<double>(choice_.coo_entries) / nnz)},
            {"coo_rows", std::to_string(choice_.coo_rows)},
            {"ell_padding_overhead",
             ell_entries == 0 ? "-" : percent_text(ell_slots / ell_entries - 1.0)},
            {"coo_reduction", "segmented warp scan, atomicAdd per row segment (last bits vary)"}};
  }

  HybWidthChoice choice_;
  EllDevicePart ell_;
  DeviceBuffer<index_t> coo_rows_;
  DeviceBuffer<index_t> coo_columns_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::hyb, Hyb);

}  // namespace spk
