#pragma once
// C = A B on the GPU for the AMG setup, with cuSPARSE's generic SpGEMM, split as on the host
// (solver/amg/sparse_product.hpp) into a symbolic phase, once per hierarchy, and a numeric
// phase, again at each update_values. The product is structural, as on the host: an entry
// whose value cancels to zero stays stored, so the pattern depends on the input patterns only.
//
// cuSPARSE's SpGEMM can ask for far more memory than C needs (the intermediate products of its
// default algorithm: cupy#7044, CUDALibrarySamples#38; anchors-distributed-and-amg.md, 2.3).
// The constructor therefore tries these in order until one runs:
//   row hash ours (device_row_hash_product.hpp): a warp per row, its columns hashed in shared
//            memory; no memory beyond C, no plan kept (compute() is its numeric pass, which
//            gives bitwise the same values for the same inputs); for products whose rows have
//            at most row_hash_limit (384) distinct columns, which AMG's are; a wider row passes
//            to cuSPARSE:
//   reuse    cusparseSpGEMMreuse_* with CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC: workEstimation,
//            nnz and copy find C's pattern once and cuSPARSE keeps its plan (buffers 4 and 5);
//            compute() is then cusparseSpGEMMreuse_compute alone: the re-setup reuses the
//            symbolic phase, and the same inputs give bitwise the same values.
//   default  cusparseSpGEMM_* with CUSPARSE_SPGEMM_DEFAULT;
//   alg2     ... CUSPARSE_SPGEMM_ALG2, its buffer sized by getNumProducts and estimateMemory:
//            less memory than the default;
//   alg3     ... CUSPARSE_SPGEMM_ALG3, which computes the products in chunks of
//            chunk_fraction of them: 0.2 (NVIDIA's spgemm_mem example), then 0.05, then 0.01,
//            the buffer shrinking with the chunk.
// An attempt fails for memory when cuSPARSE answers CUSPARSE_STATUS_INSUFFICIENT_RESOURCES or
// CUSPARSE_STATUS_ALLOC_FAILED, or when a buffer or C's arrays cannot be allocated
// (OutOfDeviceMemory); it frees what it allocated and the next one runs. After the last,
// OutOfDeviceMemory names the product and every algorithm tried, unless an operand is not a
// valid sorted CSR matrix (device_csr_check.hpp, checked then; before the first attempt too
// when SPK_CHECK_SPGEMM_OPERANDS=1): then an Error names the operand's problem. Any other
// failure is a CudaError at once. The non-reuse algorithms keep no plan: compute() runs the
// chosen one again, symbolic phase included, into C's arrays (the pattern must come out the
// same size); when its buffers no longer fit (the solve's arrays came after the setup), the
// memory-lighter algorithms after it, and the one that runs is kept.
//
// C's columns are sorted within each row, as on the host (the SpMV formats' builders and the
// smoothed prolongator's search rely on it): checked once on the device after the symbolic
// phase. Should cuSPARSE leave a row unsorted, its output goes to arrays of its own, the
// entries are sorted by a segmented sort whose permutation is kept, and every compute()
// gathers the values into C's sorted order (device_column_order.hpp).
#include <memory>
#include <string>

#include "solver/amg/device_column_order.hpp"
#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

class DeviceSparseProduct {
 public:
  // The algorithms in the order they are tried; first_attempt skips the first ones (tests run
  // each algorithm this way).
  static constexpr int attempts = 7;
  static const char* attempt_name(int attempt);

  // c = A B: pattern and values (c's arrays are allocated here). a, b and c must stay where
  // they are (same arrays) for compute(). Asynchronous on the context's stream, except for
  // the read-backs of nnz(C) and of the sortedness check.
  DeviceSparseProduct(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
                      DeviceCsrMatrix<double>& c, const DeviceSetupContext& context,
                      int first_attempt = 0);
  ~DeviceSparseProduct();
  DeviceSparseProduct(const DeviceSparseProduct&) = delete;
  DeviceSparseProduct& operator=(const DeviceSparseProduct&) = delete;

  // c's values for new values of A and B (same matrices as at construction).
  void compute(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
               DeviceCsrMatrix<double>& c);

  // Frees c's arrays when the algorithm that ran keeps nothing of them (the row hash):
  // compute() then finds c's pattern again before its values. A product kept only for the
  // next one (A P, the input of R (A P)) needs no memory between re-setups. Returns whether
  // it freed them.
  bool release(DeviceCsrMatrix<double>& c);
  // Whether compute() needs a, b and c at the arrays they had at construction (cuSPARSE's
  // kept descriptors); the row hash does not.
  bool holds_arrays() const;

  // The algorithm that ran ("row hash", "reuse", "default", "alg2", "alg3 (chunk_fraction 0.2)",
  // ...).
  std::string algorithm() const { return attempt_name(attempt_); }
  // Whether cuSPARSE's columns had to be sorted (see above).
  bool sorted_here() const { return column_order_.active(); }

 private:
  struct Plan;  // cuSPARSE's descriptors and kept buffers

  // Runs attempt `attempt` into C's (or the raw) arrays; throws MemoryShortage (private) when
  // it does not fit.
  void run(int attempt, const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
           DeviceCsrMatrix<double>& c, bool first_time);

  const DeviceSetupContext& context_;
  int attempt_ = 0;
  bool released_ = false;  // c's arrays freed (release): compute() finds the pattern again
  std::unique_ptr<Plan> plan_;
  // When cuSPARSE's rows came out unsorted: its arrays and C's sorted order.
  DeviceColumnOrder column_order_;
};

}  // namespace spk
