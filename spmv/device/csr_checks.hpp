#pragma once
// The facts the checks of a caller's CSR arrays look at, gathered where the arrays live: on the
// host by loops (row_offsets_facts, entry_facts), on the device by reductions that read back a
// few integers (device_row_offsets_facts, device_entry_facts). Both give the same facts, so the
// one-line errors spk::Solver builds from them (solver/csr_input_checks.hpp) are the same for
// host and device arrays.
//
//   row offsets   the first and last offset, and the first row whose offsets decrease
//   entries       the first entry (CSR order) whose column is outside [0, cols), and the first
//                 whose value is NaN or infinite, each with its row and column (the row of
//                 entry k is the least r with row_offsets[r + 1] > k)
// The entry facts need valid row offsets (start at 0, never decrease): check those first.
#include <cuda_runtime.h>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct RowOffsetsFacts {
  index_t first = 0;                  // row_offsets[0]
  index_t last = 0;                   // row_offsets[rows]
  index_t first_decreasing_row = -1;  // least r with row_offsets[r + 1] < row_offsets[r], or -1
};

// One entry of the CSR arrays; entry == -1 when there is none.
struct EntryFact {
  index_t entry = -1;
  index_t row = -1;
  index_t column = -1;
  bool found() const { return entry >= 0; }
};

struct EntryFacts {
  EntryFact column_out_of_range;  // the first entry whose column is not in [0, cols)
  EntryFact non_finite_value;     // the first entry whose value is NaN or infinite
};

// Host arrays: row_offsets has rows + 1 entries; columns and values row_offsets[rows].
RowOffsetsFacts row_offsets_facts(index_t rows, const index_t* row_offsets);
template <class T>
EntryFacts entry_facts(index_t rows, index_t cols, const index_t* row_offsets,
                       const index_t* columns, const T* values);

// The same of device arrays, computed on `stream`; returns when the facts are on the host.
RowOffsetsFacts device_row_offsets_facts(index_t rows, const index_t* row_offsets,
                                         cudaStream_t stream);
template <class T>
EntryFacts device_entry_facts(index_t rows, index_t cols, const index_t* row_offsets,
                              const index_t* columns, const T* values, cudaStream_t stream);

}  // namespace spk
