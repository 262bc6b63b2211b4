// IC(0)/ILU(0) on the GPU: the level-scheduled factors against cuSPARSE's csric02/csrilu02
// (deprecated in CUDA 13, used here as the reference while they exist), and PCG/BiCGSTAB
// iteration counts against the CPU path's sequential factorization.
//
// The deprecation warning is silenced for this file alone, as cusparse.h allows.
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/cusparse_objects.hpp"
#include "solver/device_factors.hpp"
#include "spkrylov/errors.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// cuSPARSE's IC(0)/ILU(0) of the sorted storage of `pattern` with values `sorted`, in place.
std::vector<double> cusparse_factor(const FactorPattern& pattern, std::vector<double> sorted) {
  const DeviceBuffer<index_t> offsets(pattern.row_offsets, "offsets"),
      columns(pattern.columns, "columns");
  DeviceBuffer<double> values(sorted, "values");
  const CusparseHandlePtr handle = make_cusparse_handle(nullptr);
  cusparseMatDescr_t descriptor = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateMatDescr(&descriptor));
  SPK_CUSPARSE_CHECK(cusparseSetMatIndexBase(descriptor, CUSPARSE_INDEX_BASE_ZERO));
  SPK_CUSPARSE_CHECK(cusparseSetMatType(descriptor, CUSPARSE_MATRIX_TYPE_GENERAL));
  const int n = pattern.rows, nnz = static_cast<int>(pattern.nnz());
  int bytes = 0;
  if (pattern.kind == FactorKind::ic0) {
    csric02Info_t info = nullptr;
    SPK_CUSPARSE_CHECK(cusparseCreateCsric02Info(&info));
    SPK_CUSPARSE_CHECK(cusparseDcsric02_bufferSize(handle.get(), n, nnz, descriptor, values.data(),
                                                   offsets.data(), columns.data(), info, &bytes));
    DeviceBuffer<unsigned char> buffer(static_cast<std::size_t>(bytes), "csric02 buffer");
    SPK_CUSPARSE_CHECK(cusparseDcsric02_analysis(handle.get(), n, nnz, descriptor, values.data(),
                                                 offsets.data(), columns.data(), info,
                                                 CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.data()));
    SPK_CUSPARSE_CHECK(cusparseDcsric02(handle.get(), n, nnz, descriptor, values.data(),
                                        offsets.data(), columns.data(), info,
                                        CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.data()));
    int zero = -1;
    EXPECT_EQ(cusparseXcsric02_zeroPivot(handle.get(), info, &zero), CUSPARSE_STATUS_SUCCESS);
    SPK_CUSPARSE_CHECK(cusparseDestroyCsric02Info(info));
  } else {
    csrilu02Info_t info = nullptr;
    SPK_CUSPARSE_CHECK(cusparseCreateCsrilu02Info(&info));
    SPK_CUSPARSE_CHECK(cusparseDcsrilu02_bufferSize(handle.get(), n, nnz, descriptor, values.data(),
                                                    offsets.data(), columns.data(), info, &bytes));
    DeviceBuffer<unsigned char> buffer(static_cast<std::size_t>(bytes), "csrilu02 buffer");
    SPK_CUSPARSE_CHECK(cusparseDcsrilu02_analysis(handle.get(), n, nnz, descriptor, values.data(),
                                                  offsets.data(), columns.data(), info,
                                                  CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.data()));
    SPK_CUSPARSE_CHECK(cusparseDcsrilu02(handle.get(), n, nnz, descriptor, values.data(),
                                         offsets.data(), columns.data(), info,
                                         CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.data()));
    int zero = -1;
    EXPECT_EQ(cusparseXcsrilu02_zeroPivot(handle.get(), info, &zero), CUSPARSE_STATUS_SUCCESS);
    SPK_CUSPARSE_CHECK(cusparseDestroyCsrilu02Info(info));
  }
  SPK_CUSPARSE_CHECK(cusparseDestroyMatDescr(descriptor));
  return values.to_host();
}

// ||ours - theirs||_F / ||theirs||_F over the entries each factorization defines (IC(0): the
// lower triangle; ILU(0): all).
double relative_frobenius(const FactorPattern& pattern, const std::vector<double>& ours,
                          const std::vector<double>& theirs) {
  double difference = 0.0, norm = 0.0;
  for (index_t row = 0; row < pattern.rows; ++row)
    for (index_t p = pattern.row_offsets[row]; p < pattern.row_offsets[row + 1]; ++p) {
      if (pattern.kind == FactorKind::ic0 && pattern.columns[p] > row) continue;
      difference += (ours[p] - theirs[p]) * (ours[p] - theirs[p]);
      norm += theirs[p] * theirs[p];
    }
  return std::sqrt(difference / norm);
}

CsrMatrix<double> convection_diffusion(int n) {
  GeneratorSpec spec;
  spec.kind = "convdiff3d";
  spec.n = n;
  spec.peclet = 2.0;
  return generate_matrix(spec);
}

TEST(IncompleteFactorizationGpu, FactorsAgreeWithCusparse) {
  SPK_REQUIRE_GPU_OR_SKIP();
  struct Case {
    FactorKind kind;
    CsrMatrix<double> matrix;
  };
  std::vector<Case> cases;
  cases.push_back({FactorKind::ic0, test::generated("poisson3d", 24)});
  cases.push_back({FactorKind::ic0, test::generated("poisson3d", 16, 27)});
  cases.push_back({FactorKind::ilu0, test::generated("poisson3d", 24)});
  cases.push_back({FactorKind::ilu0, convection_diffusion(20)});
  for (const Case& c : cases) {
    SCOPED_TRACE(to_string(c.kind));
    const FactorPattern pattern = make_factor_pattern(c.kind, c.matrix);
    DeviceContext context;
    DeviceSpace<double> space(context);
    DeviceFactors<double> factors(space, pattern);
    const DeviceBuffer<double> csr_values(c.matrix.values, "values");
    DeviceBuffer<std::uint64_t> status(factor_status::words, "factorization status");
    factors.factor(csr_values.data(), FactorRequest{}, status.data());
    context.synchronize();
    EXPECT_EQ(status.to_host()[factor_status::fault], diagonal_fault::no_fault);
    std::vector<double> ours(pattern.nnz());
    SPK_CUDA_CHECK(cudaMemcpy(ours.data(), factors.values(), ours.size() * sizeof(double),
                              cudaMemcpyDeviceToHost));
    std::vector<double> sorted(pattern.nnz());
    for (std::size_t k = 0; k < sorted.size(); ++k)
      sorted[k] = c.matrix.values[pattern.csr_position[k]];
    const std::vector<double> theirs = cusparse_factor(pattern, sorted);
    EXPECT_LE(relative_frobenius(pattern, ours, theirs), 1e-6);
    EXPECT_LE(relative_frobenius(pattern, ours, theirs), 1e-12);  // both exact: round-off
  }
}

Options options_for(Device device, Method method, Preconditioner preconditioner,
                    Format format = Format::csr) {
  Options options;
  options.device = device;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.spmv.format = format;
  options.spmv.tune_cache = "off";
  return options;
}

TEST(IncompleteFactorizationGpu, IterationCountsMatchTheCpuPath) {
  SPK_REQUIRE_GPU_OR_SKIP();
  struct Case {
    Method method;
    Preconditioner preconditioner;
    CsrMatrix<double> matrix;
  };
  std::vector<Case> cases;
  cases.push_back({Method::cg, Preconditioner::ic0, test::generated("poisson3d", 24)});
  cases.push_back({Method::bicgstab, Preconditioner::ilu0, convection_diffusion(24)});
  for (const Case& c : cases) {
    const auto b = test::random_vector(static_cast<std::size_t>(c.matrix.rows), 31);
    Solver<double> cpu(arrays_of(c.matrix), options_for(Device::cpu, c.method, c.preconditioner));
    std::vector<double> x_cpu(b.size(), 0.0);
    const SolveResult on_cpu = cpu.solve(b, x_cpu);
    ASSERT_TRUE(on_cpu.converged()) << on_cpu.message;
    for (const Format format : {Format::csr, Format::ellpack_r, Format::cusparse}) {
      for (const bool graph : {false, true}) {
        SCOPED_TRACE(std::string(to_string(c.preconditioner)) + " " + to_string(format) +
                     (graph ? " graph" : ""));
        Options options = options_for(Device::gpu, c.method, c.preconditioner, format);
        options.solver.cuda_graph = graph;
        Solver<double> gpu(arrays_of(c.matrix), options);
        std::vector<double> x_gpu(b.size(), 0.0);
        const SolveResult on_gpu = gpu.solve(b, x_gpu);
        ASSERT_TRUE(on_gpu.converged()) << on_gpu.message;
        EXPECT_LE(std::abs(on_gpu.iterations - on_cpu.iterations),
                  std::max(1, on_cpu.iterations / 50));
        EXPECT_LE(test::true_relative_residual(c.matrix, b, x_gpu), 1e-8);
      }
    }
  }
}

TEST(IncompleteFactorizationGpu, UpdateValuesOnTheDeviceRefactors) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = test::generated("poisson3d", 16);
  const CsrMatrix<double> shifted = test::with_scaled_diagonal(a, 1.4);
  const auto b = test::random_vector(static_cast<std::size_t>(a.rows), 32);
  const Options options = options_for(Device::gpu, Method::cg, Preconditioner::ic0);
  Solver<double> updated(arrays_of(a), options);
  const DeviceBuffer<double> device_values(shifted.values, "values");
  updated.update_values(device_values.data());
  Solver<double> fresh(arrays_of(shifted), options);
  std::vector<double> x1(b.size(), 0.0), x2(b.size(), 0.0);
  const SolveResult after = updated.solve(b, x1);
  const SolveResult reference = fresh.solve(b, x2);
  ASSERT_TRUE(after.converged()) << after.message;
  EXPECT_EQ(after.iterations, reference.iterations);
  EXPECT_LE(test::relative_error(x1, x2), 1e-12);
}

TEST(IncompleteFactorizationGpu, NegativePivotIsBadDiagonalNamingTheRow) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> a = test::generated("poisson2d", 6);
  for (index_t k = a.row_offsets[7]; k < a.row_offsets[8]; ++k)
    if (a.columns[k] == 7) a.values[k] = -4.0;
  try {
    Solver<double> solver(arrays_of(a), options_for(Device::gpu, Method::cg, Preconditioner::ic0));
    FAIL() << "expected BadDiagonal";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 7);
  }
}

}  // namespace
}  // namespace spk
