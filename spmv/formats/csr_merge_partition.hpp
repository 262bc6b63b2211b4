#pragma once
// csr-merge's partition built on the device: the start coordinate of every tile of
// `tile_items` path items and the path's end, merge_tiles(rows + nnz, tile_items) + 1
// coordinates, bit for bit those of the host reference merge_path_partition (merge_path.hpp;
// the same merge_path_search, a thread per tile). row_offsets: the rows + 1 device row offsets.
// Asynchronous on `stream`; writes nothing for an empty path.
#include <cuda_runtime.h>

#include <cstdint>

#include "spmv/formats/merge_path.hpp"

namespace spk {

void fill_merge_tile_starts(const index_t* row_offsets, index_t rows, index_t nnz,
                            std::int64_t tile_items, MergeCoordinate* starts, cudaStream_t stream);

}  // namespace spk
