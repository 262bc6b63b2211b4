#include <cstdint>
#include <utility>

#include "core/device_kernels.cuh"
#include "solver/amg/device_csr_check.hpp"
#include "solver/amg/device_row_hash_product.hpp"
#include "solver/amg/device_sparse_product.hpp"

namespace spk {

namespace {

struct Attempt {
  const char* name;
  cusparseSpGEMMAlg_t algorithm;
  float chunk_fraction;  // ALG2/ALG3: estimateMemory's chunk_fraction
  bool reuse;            // the reuse API
  bool row_hash;         // ours (device_row_hash_product.hpp), not cuSPARSE
};
constexpr Attempt kAttempts[DeviceSparseProduct::attempts] = {
    {"row hash", CUSPARSE_SPGEMM_DEFAULT, 1.0f, false, true},
    {"reuse", CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC, 1.0f, true, false},
    {"default", CUSPARSE_SPGEMM_DEFAULT, 1.0f, false, false},
    {"alg2", CUSPARSE_SPGEMM_ALG2, 1.0f, false, false},
    {"alg3 (chunk_fraction 0.2)", CUSPARSE_SPGEMM_ALG3, 0.2f, false, false},
    {"alg3 (chunk_fraction 0.05)", CUSPARSE_SPGEMM_ALG3, 0.05f, false, false},
    {"alg3 (chunk_fraction 0.01)", CUSPARSE_SPGEMM_ALG3, 0.01f, false, false}};

// An attempt that does not fit in device memory (caught by the constructor: the next one runs).
struct MemoryShortage {
  std::string call;
};

// SPK_CUSPARSE_CHECK, except that the two statuses of a memory shortage become MemoryShortage
// (cuSPARSE's own allocation failed: its CUDA error state is cleared too).
void check_spgemm(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  if (status == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES || status == CUSPARSE_STATUS_ALLOC_FAILED) {
    (void)cudaGetLastError();
    throw MemoryShortage{std::string(cusparseGetErrorName(status)) + " in " + call};
  }
  detail::throw_cusparse_error(status, call, file, line);
}
#define SPK_SPGEMM_CHECK(call) check_spgemm((call), #call, __FILE__, __LINE__)

// A workspace of `bytes` (at least 1, so the pointer is never null), cleared: the scan that
// cuSPARSE runs in it (its bundled CUB's decoupled look-back) reads tile words before their
// status says they are ready, which compute-sanitizer's initcheck reports on unwritten memory
// (NVIDIA/cccl#1891); cleared, every word it reads was written.
DeviceBuffer<unsigned char> workspace(std::size_t bytes, const char* what, cudaStream_t stream) {
  DeviceBuffer<unsigned char> buffer(bytes > 0 ? bytes : 1, what);
  SPK_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0, buffer.bytes(), stream));
  return buffer;
}

}  // namespace

struct DeviceSparseProduct::Plan {
  CusparseSpMatPtr a, b;
  CusparseMutableSpMatPtr c;
  CusparseSpGemmPtr spgemm;
  DeviceBuffer<unsigned char> buffer4, buffer5;  // the reuse API's plan, kept for compute()
};

const char* DeviceSparseProduct::attempt_name(int attempt) {
  return attempt >= 0 && attempt < attempts ? kAttempts[attempt].name : "none (empty product)";
}

DeviceSparseProduct::DeviceSparseProduct(const DeviceCsrMatrix<double>& a,
                                         const DeviceCsrMatrix<double>& b,
                                         DeviceCsrMatrix<double>& c,
                                         const DeviceSetupContext& context, int first_attempt)
    : context_(context) {
  if (a.cols != b.rows)
    throw BadInput("sparse product: inner dimensions differ (" + std::to_string(a.cols) + " and " +
                   std::to_string(b.rows) + ")");
  c.rows = a.rows;
  c.cols = b.cols;
  c.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(c.rows) + 1, "product offsets");
  if (a.nnz() == 0 || b.nnz() == 0 || a.rows == 0 || b.cols == 0) {  // C = 0 (no entries)
    attempt_ = -1;
    c.columns = DeviceBuffer<index_t>();
    c.values = DeviceBuffer<double>();
    SPK_CUDA_CHECK(
        cudaMemsetAsync(c.row_offsets.data(), 0, c.row_offsets.bytes(), context_.stream()));
    return;
  }
  // Operands cuSPARSE would misread (device_csr_check.hpp): checked in a debug run, and named
  // below when no algorithm runs (a small product that "does not fit" has a bad operand).
  const auto operand_problems = [&] {
    std::string problems;
    const std::string in_a = device_csr_problem(a, context_.stream());
    const std::string in_b = device_csr_problem(b, context_.stream());
    if (!in_a.empty()) problems += "left operand: " + in_a;
    if (!in_b.empty())
      problems += std::string(problems.empty() ? "" : "; ") + "right operand: " + in_b;
    return problems;
  };
  if (check_spgemm_operands()) {
    const std::string problems = operand_problems();
    if (!problems.empty())
      throw Error("amg setup: invalid operand of a sparse product (" + problems +
                  "; internal error)");
  }
  std::string tried;
  std::size_t requested = 0, free_bytes = 0;
  for (int attempt = first_attempt; attempt < attempts; ++attempt) {
    try {
      run(attempt, a, b, c, true);
      attempt_ = attempt;
      column_order_.arrange(c, context_.stream());
      return;
    } catch (const MemoryShortage& shortage) {
      tried +=
          std::string(tried.empty() ? "" : "; ") + kAttempts[attempt].name + ": " + shortage.call;
    } catch (const OutOfDeviceMemory& error) {
      tried += std::string(tried.empty() ? "" : "; ") + kAttempts[attempt].name + ": " +
               std::to_string(error.requested_bytes()) + " bytes requested";
      requested = error.requested_bytes();
      free_bytes = error.free_bytes();
    }
    plan_.reset();
  }
  const std::string problems = operand_problems();
  if (!problems.empty())
    throw Error("amg setup: the sparse product (" + std::to_string(a.rows) + " x " +
                std::to_string(a.cols) + ") x (" + std::to_string(b.rows) + " x " +
                std::to_string(b.cols) + ") failed with every cusparseSpGEMM algorithm on an " +
                "invalid operand (" + problems + "; internal error; " + tried + ")");
  throw OutOfDeviceMemory("amg setup: the sparse product (" + std::to_string(a.rows) + " x " +
                              std::to_string(a.cols) + ", " + std::to_string(a.nnz()) +
                              " nonzeros) x (" + std::to_string(b.rows) + " x " +
                              std::to_string(b.cols) + ", " + std::to_string(b.nnz()) +
                              " nonzeros) does not fit in device memory with any cusparseSpGEMM "
                              "algorithm (" +
                              tried + ")",
                          requested, free_bytes);
}

DeviceSparseProduct::~DeviceSparseProduct() = default;

bool DeviceSparseProduct::holds_arrays() const {
  return attempt_ >= 0 && !kAttempts[attempt_].row_hash;
}

bool DeviceSparseProduct::release(DeviceCsrMatrix<double>& c) {
  if (attempt_ < 0 || !kAttempts[attempt_].row_hash) return false;
  context_.synchronize();  // the product's readers have run
  c.row_offsets = DeviceBuffer<index_t>();
  c.columns = DeviceBuffer<index_t>();
  c.values = DeviceBuffer<double>();
  released_ = true;
  return true;
}

void DeviceSparseProduct::run(int attempt, const DeviceCsrMatrix<double>& a,
                              const DeviceCsrMatrix<double>& b, DeviceCsrMatrix<double>& c,
                              bool first_time) {
  const Attempt& how = kAttempts[attempt];
  if (how.row_hash) {
    if (first_time && !row_hash_pattern(a, b, c, context_.stream()))
      throw MemoryShortage{"a row has more than " + std::to_string(row_hash_limit) +
                           " distinct columns"};
    row_hash_values(a, b, c, context_.stream());  // c_ij = sum_k a_ik b_kj
    return;
  }
  const cusparseHandle_t handle = context_.cusparse();
  const cusparseOperation_t none = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const double one = 1.0, zero = 0.0;  // C = 1 A B + 0 C
  auto plan = std::make_unique<Plan>();
  plan->a = csr_descriptor(a);
  plan->b = csr_descriptor(b);
  cusparseSpMatDescr_t matrix_c = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateCsr(&matrix_c, c.rows, c.cols, 0, c.row_offsets.data(), nullptr,
                                       nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  plan->c.reset(matrix_c);
  cusparseSpGEMMDescr_t spgemm = nullptr;
  SPK_CUSPARSE_CHECK(cusparseSpGEMM_createDescr(&spgemm));
  plan->spgemm.reset(spgemm);
  const cusparseConstSpMatDescr_t matrix_a = plan->a.get(), matrix_b = plan->b.get();

  // After the symbolic phase: C's arrays (allocated the first time, the same size after).
  const auto point_c_at_its_arrays = [&] {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    SPK_CUSPARSE_CHECK(cusparseSpMatGetSize(matrix_c, &rows, &cols, &nnz));
    if (first_time) {
      check_index_range(nnz, "nonzeros of a sparse product in the AMG setup");
      c.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(nnz), "product columns");
      c.values = DeviceBuffer<double>(static_cast<std::size_t>(nnz), "product values");
    } else if (nnz != c.nnz()) {
      throw Error("amg setup: a sparse product's pattern changed size on recomputation (" +
                  std::to_string(nnz) + " instead of " + std::to_string(c.nnz()) +
                  " nonzeros; internal error)");
    }
    const bool raw = column_order_.active();  // cuSPARSE writes its own arrays, then gather
    double* const values = raw ? column_order_.raw_values() : c.values.data();
    // C = 1 A B + 0 C: C starts at zero (NVIDIA's reuse example clears it too), so that no
    // stale value can enter through the 0 C term.
    if (nnz > 0)
      SPK_CUDA_CHECK(cudaMemsetAsync(values, 0, static_cast<std::size_t>(nnz) * sizeof(double),
                                     context_.stream()));
    SPK_CUSPARSE_CHECK(cusparseCsrSetPointers(matrix_c, c.row_offsets.data(),
                                              raw ? column_order_.raw_columns() : c.columns.data(),
                                              values));
  };

  if (how.reuse) {
    std::size_t bytes1 = 0, bytes2 = 0, bytes3 = 0, bytes4 = 0, bytes5 = 0;
    // Work estimation: buffer 1.
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_workEstimation(
        handle, none, none, matrix_a, matrix_b, matrix_c, how.algorithm, spgemm, &bytes1, nullptr));
    DeviceBuffer<unsigned char> buffer1 = workspace(bytes1, "SpGEMM buffer 1", context_.stream());
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_workEstimation(handle, none, none, matrix_a, matrix_b,
                                                        matrix_c, how.algorithm, spgemm, &bytes1,
                                                        buffer1.data()));
    // nnz(C) and C's row offsets: buffers 2, 3 and 4 (4 is kept for compute).
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_nnz(handle, none, none, matrix_a, matrix_b, matrix_c,
                                             how.algorithm, spgemm, &bytes2, nullptr, &bytes3,
                                             nullptr, &bytes4, nullptr));
    DeviceBuffer<unsigned char> buffer2 = workspace(bytes2, "SpGEMM buffer 2", context_.stream());
    DeviceBuffer<unsigned char> buffer3 = workspace(bytes3, "SpGEMM buffer 3", context_.stream());
    plan->buffer4 = workspace(bytes4, "SpGEMM buffer 4", context_.stream());
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_nnz(
        handle, none, none, matrix_a, matrix_b, matrix_c, how.algorithm, spgemm, &bytes2,
        buffer2.data(), &bytes3, buffer3.data(), &bytes4, plan->buffer4.data()));
    buffer1 = DeviceBuffer<unsigned char>();
    buffer2 = DeviceBuffer<unsigned char>();
    point_c_at_its_arrays();
    // C's columns: buffer 5 (kept for compute).
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_copy(handle, none, none, matrix_a, matrix_b, matrix_c,
                                              how.algorithm, spgemm, &bytes5, nullptr));
    plan->buffer5 = workspace(bytes5, "SpGEMM buffer 5", context_.stream());
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_copy(handle, none, none, matrix_a, matrix_b, matrix_c,
                                              how.algorithm, spgemm, &bytes5,
                                              plan->buffer5.data()));
    buffer3 = DeviceBuffer<unsigned char>();
    // C's values: c_ij = sum_k a_ik b_kj
    SPK_SPGEMM_CHECK(cusparseSpGEMMreuse_compute(handle, none, none, &one, matrix_a, matrix_b,
                                                 &zero, matrix_c, CUDA_R_64F, how.algorithm,
                                                 spgemm));
    plan_ = std::move(plan);
    return;
  }

  std::size_t bytes1 = 0, bytes2 = 0, bytes3 = 0;
  // Work estimation: buffer 1 (needed until the copy).
  SPK_SPGEMM_CHECK(cusparseSpGEMM_workEstimation(handle, none, none, &one, matrix_a, matrix_b,
                                                 &zero, matrix_c, CUDA_R_64F, how.algorithm, spgemm,
                                                 &bytes1, nullptr));
  DeviceBuffer<unsigned char> buffer1 = workspace(bytes1, "SpGEMM buffer 1", context_.stream());
  SPK_SPGEMM_CHECK(cusparseSpGEMM_workEstimation(handle, none, none, &one, matrix_a, matrix_b,
                                                 &zero, matrix_c, CUDA_R_64F, how.algorithm, spgemm,
                                                 &bytes1, buffer1.data()));
  if (how.algorithm == CUSPARSE_SPGEMM_ALG2 || how.algorithm == CUSPARSE_SPGEMM_ALG3) {
    // The memory-bounded algorithms: buffer 2 from the number of intermediate products and
    // the chunk fraction (buffer 3 is scratch of the estimate).
    std::int64_t products = 0;
    SPK_SPGEMM_CHECK(cusparseSpGEMM_getNumProducts(spgemm, &products));
    SPK_SPGEMM_CHECK(cusparseSpGEMM_estimateMemory(
        handle, none, none, &one, matrix_a, matrix_b, &zero, matrix_c, CUDA_R_64F, how.algorithm,
        spgemm, how.chunk_fraction, &bytes3, nullptr, nullptr));
    DeviceBuffer<unsigned char> buffer3 = workspace(bytes3, "SpGEMM buffer 3", context_.stream());
    SPK_SPGEMM_CHECK(cusparseSpGEMM_estimateMemory(
        handle, none, none, &one, matrix_a, matrix_b, &zero, matrix_c, CUDA_R_64F, how.algorithm,
        spgemm, how.chunk_fraction, &bytes3, buffer3.data(), &bytes2));
  } else {
    SPK_SPGEMM_CHECK(cusparseSpGEMM_compute(handle, none, none, &one, matrix_a, matrix_b, &zero,
                                            matrix_c, CUDA_R_64F, how.algorithm, spgemm, &bytes2,
                                            nullptr));
  }
  DeviceBuffer<unsigned char> buffer2 = workspace(bytes2, "SpGEMM buffer 2", context_.stream());
  // The product, held by cuSPARSE: c_ij = sum_k a_ik b_kj
  SPK_SPGEMM_CHECK(cusparseSpGEMM_compute(handle, none, none, &one, matrix_a, matrix_b, &zero,
                                          matrix_c, CUDA_R_64F, how.algorithm, spgemm, &bytes2,
                                          buffer2.data()));
  point_c_at_its_arrays();
  SPK_SPGEMM_CHECK(cusparseSpGEMM_copy(handle, none, none, &one, matrix_a, matrix_b, &zero,
                                       matrix_c, CUDA_R_64F, how.algorithm, spgemm));
  // cuSPARSE reads buffers 1 and 2 until the copy has run: wait before they are freed.
  context_.synchronize();
  plan_ = std::move(plan);
}

void DeviceSparseProduct::compute(const DeviceCsrMatrix<double>& a,
                                  const DeviceCsrMatrix<double>& b, DeviceCsrMatrix<double>& c) {
  if (attempt_ < 0) return;  // an empty product stays empty
  if (kAttempts[attempt_].row_hash) {
    if (released_) {  // the pattern again (the same one: the inputs' patterns are the same)
      if (!row_hash_pattern(a, b, c, context_.stream()))
        throw Error(
            "amg update_values: a sparse product's row outgrew the row hash on "
            "recomputation (internal error)");
      released_ = false;
    }
    row_hash_values(a, b, c, context_.stream());  // the pattern is kept: values only
    return;
  }
  if (kAttempts[attempt_].reuse) {
    // The kept plan: values only, c_ij = sum_k a_ik b_kj (C cleared first, as above).
    const bool raw = column_order_.active();
    SPK_CUDA_CHECK(cudaMemsetAsync(raw ? column_order_.raw_values() : c.values.data(), 0,
                                   c.values.bytes(), context_.stream()));
    const double one = 1.0, zero = 0.0;
    SPK_CUSPARSE_CHECK(cusparseSpGEMMreuse_compute(
        context_.cusparse(), CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
        &one, plan_->a.get(), plan_->b.get(), &zero, plan_->c.get(), CUDA_R_64F,
        kAttempts[attempt_].algorithm, plan_->spgemm.get()));
    column_order_.gather(c, context_.stream());  // cuSPARSE's order -> C's sorted order
    return;
  }
  // The whole algorithm again, into C's arrays. Its buffers may no longer fit (the solve's
  // vectors came after the setup): then the algorithms after it, as the constructor tries
  // them, and the first that runs is kept for later calls. Only while C's rows came out
  // sorted: a kept permutation is the first algorithm's order.
  std::string tried;
  for (int attempt = attempt_; attempt < attempts; ++attempt) {
    if (kAttempts[attempt].reuse || kAttempts[attempt].row_hash) continue;
    if (attempt != attempt_ && column_order_.active()) break;
    try {
      run(attempt, a, b, c, false);
      if (attempt == attempt_) {
        column_order_.gather(c, context_.stream());  // cuSPARSE's order -> C's sorted order
      } else {
        attempt_ = attempt;
        column_order_.arrange(c, context_.stream());  // checked: sorted, or sorted now
      }
      return;
    } catch (const MemoryShortage& shortage) {
      tried +=
          std::string(tried.empty() ? "" : "; ") + kAttempts[attempt].name + ": " + shortage.call;
    } catch (const OutOfDeviceMemory& error) {
      tried += std::string(tried.empty() ? "" : "; ") + kAttempts[attempt].name + ": " +
               std::to_string(error.requested_bytes()) + " bytes requested";
    }
  }
  throw OutOfDeviceMemory(
      "amg update_values: the sparse product no longer fits in device memory (" + tried + ")", 0,
      0);
}

}  // namespace spk
