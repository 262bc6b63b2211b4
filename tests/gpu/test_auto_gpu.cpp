// spmv.format auto and the launch variants it sweeps, on the GPU: every hand-written format
// under every launch (block size, x cache, exact or capped grid) against the fp64 reference
// with poisoned output; auto's choice is correct and the fastest it timed; a second build
// of the same pattern comes from the cache without tuning; the solve report carries it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/device.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/registry.hpp"
#include "spmv/tuning/tuning_cache.hpp"
#include "spmv/tuning/tuning_candidates.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk {
namespace {

namespace fs = std::filesystem;

std::string temp_cache_path() {
  return (fs::temp_directory_path() /
          ("spk-auto-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt"))
      .string();
}

struct NamedMatrix {
  std::string name;
  CsrMatrix<double> matrix;
};

// More rows than one full wave of an H100 (132 SMs x 2048 threads) so the capped grid's
// stride loop runs several times, plus the awkward shapes.
std::vector<NamedMatrix> launch_matrices(std::mt19937_64& rng) {
  std::vector<NamedMatrix> list;
  list.push_back({"poisson3d n=80 (512k rows)", generate_poisson3d(80, 7)});
  list.push_back({"powerlaw 300k rows", generate_powerlaw(300000, 8.0, 2.0, 5)});
  list.push_back({"n=1", test::random_pattern_matrix(
                             1, 1, [](index_t) { return 1; }, rng)});
  list.push_back({"nnz=0", test::random_pattern_matrix(
                               500, 500, [](index_t) { return 0; }, rng)});
  list.push_back(
      {"empty rows and one full row",
       test::random_pattern_matrix(
           3000, 3000, [](index_t row) { return row == 77 ? 3000 : (row % 4 == 0 ? 0 : row % 9); },
           rng)});
  return list;
}

TEST(LaunchVariants, EveryHandWrittenFormatUnderEveryLaunch) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(777);
  for (const NamedMatrix& entry : launch_matrices(rng)) {
    const CsrMatrix<double> matrix = test::with_random_values(entry.matrix, rng);
    const double tolerance = test::spmv_tolerance<double>(test::max_row_length(matrix));
    for (const char* format : {"csr-scalar", "csr-vector", "aligned-csr", "ellpack", "ellpack-r",
                               "hyb", "csr-merge", "sell"}) {
      SpmvOptions base;
      base.format = parse_format(format);
      base.max_ell_fill = 1e9;  // the test is about launches, not the fill guard
      std::unique_ptr<SpmvBackend<double>> backend;
      try {
        backend = make_spmv_backend(matrix, base, stream.get());
      } catch (const BadInput& error) {  // e.g. ellpack-r padding past the device memory
        SCOPED_TRACE(entry.name);
        EXPECT_NE(std::string(format).find("ell"), std::string::npos) << error.what();
        continue;
      }
      std::vector<SpmvOptions> launches = launch_variants(base);
      launches.push_back(base);  // and back to the first launch
      SpmvOptions warp_blocks = base;
      warp_blocks.block_size = 32;
      warp_blocks.grid = GridShape::capped;
      launches.push_back(warp_blocks);
      for (const SpmvOptions& launch : launches) {
        SCOPED_TRACE(entry.name + ": " + candidate_label(launch));
        backend->set_launch(launch);
        EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), tolerance);
      }
    }
  }
}

TEST(LaunchVariants, SinglePrecisionCappedGrid) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(778);
  const CsrMatrix<float> matrix =
      test::with_random_values(convert_values<float>(generate_poisson3d(80, 27)), rng);
  for (const char* format : {"csr-scalar", "csr-vector", "aligned-csr", "ellpack", "ellpack-r",
                             "hyb", "csr-merge", "sell"}) {
    SpmvOptions options;
    options.format = parse_format(format);
    options.grid = GridShape::capped;
    options.x_cache = XCache::texture;
    const auto backend = make_spmv_backend(matrix, options, stream.get());
    SCOPED_TRACE(format);
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream),
              test::spmv_tolerance<float>(27));
  }
}

// Stage 2 on a csr-vector winner of 32 (and 16) threads per row adds x_cache: shared, switched
// to and from by set_launch on the same backend.
TEST(LaunchVariants, CsrVectorWarpPerRowUnderEveryLaunchWithSharedX) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(780);
  for (const NamedMatrix& entry : launch_matrices(rng)) {
    const CsrMatrix<double> matrix = test::with_random_values(entry.matrix, rng);
    const double tolerance = test::spmv_tolerance<double>(test::max_row_length(matrix));
    for (const int threads : {16, 32}) {
      SpmvOptions base;
      base.format = Format::csr_vector;
      base.threads_per_row = threads;
      const auto backend = make_spmv_backend(matrix, base, stream.get());
      std::vector<SpmvOptions> launches = launch_variants(base);
      launches.push_back(base);
      for (const SpmvOptions& launch : launches) {
        SCOPED_TRACE(entry.name + ": " + candidate_label(launch));
        backend->set_launch(launch);
        EXPECT_EQ(backend->name(), std::string("csr-vector/") + to_string(launch.x_cache));
        EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), tolerance);
      }
    }
  }
}

TEST(LaunchVariants, InvalidLaunchIsRefusedAndChangesNothing) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(779);
  const CsrMatrix<double> matrix = test::with_random_values(generate_poisson3d(16, 7), rng);
  SpmvOptions options;
  options.format = Format::ellpack_r;
  const auto backend = make_spmv_backend(matrix, options, stream.get());
  SpmvOptions bad = options;
  bad.block_size = 100;
  EXPECT_THROW(backend->set_launch(bad), BadInput);
  EXPECT_EQ(backend->name(), "ellpack-r/ldg");
  EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
  SpmvOptions shared = options;  // ellpack-r has no shared-memory x
  shared.x_cache = XCache::shared;
  test::expect_error<BadInput>([&] { backend->set_launch(shared); },
                               "spmv.x_cache: shared is not supported by format 'ellpack-r'", "");
  EXPECT_EQ(backend->name(), "ellpack-r/ldg");
  EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
}

template <class T>
void check_auto(const CsrMatrix<double>& source, const std::string& name, std::mt19937_64& rng,
                const test::TestStream& stream) {
  SCOPED_TRACE(name + (sizeof(T) == 8 ? " [double]" : " [float]"));
  const CsrMatrix<T> matrix = test::with_random_values(convert_values<T>(source), rng);
  SpmvOptions options;
  options.format = Format::automatic;
  options.tune_cache = "off";
  TuningReport tuning;
  const auto backend = make_spmv_backend(matrix, options, stream.get(), &tuning);
  const TuningReport* report = &tuning;
  EXPECT_TRUE(report->used);
  EXPECT_FALSE(report->from_cache);
  EXPECT_GE(report->baseline_ms, 0.0);
  // The choice is the fastest of everything timed.
  bool chosen_was_timed = false;
  for (const TuningTrial& trial : report->trials) {
    if (trial.spmv_ms < 0.0) continue;
    EXPECT_LE(report->chosen_ms, trial.spmv_ms) << trial.label;
    chosen_was_timed |= trial.label == report->chosen_label;
  }
  EXPECT_TRUE(chosen_was_timed) << report->chosen_label;
  EXPECT_NE(backend->name().find("(auto)"), std::string::npos);
  const double tolerance = test::spmv_tolerance<T>(test::max_row_length(matrix));
  EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), tolerance);
  test::expect_scaled_products_match(*backend, matrix, rng, stream);  // forwarded to the choice
  // update_values keeps the choice and scatters only the values (forwarded to the choice).
  test::expect_update_values_contract(*backend, matrix, rng, stream);
  test::expect_update_values_capturable(*backend, matrix, rng, stream);
}

TEST(AutoFormat, ChoiceIsCorrectAndTheFastestTimed) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(780);
  for (const NamedMatrix& entry : launch_matrices(rng)) {
    check_auto<double>(entry.matrix, entry.name, rng, stream);
    check_auto<float>(entry.matrix, entry.name, rng, stream);
  }
  for (const std::string& path : test::shared_matrix_paths()) {
    const CsrMatrix<double> matrix = read_matrix_market(path);
    check_auto<double>(matrix, path, rng, stream);
  }
}

TEST(AutoFormat, SecondBuildComesFromTheCache) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(781);
  const std::string cache = temp_cache_path();
  fs::remove(cache);
  SpmvOptions options;
  options.format = Format::automatic;
  options.tune_cache = cache;
  const CsrMatrix<double> a = test::with_random_values(generate_poisson3d(40, 7), rng);

  TuningReport first_tuning;
  const auto first = make_spmv_backend(a, options, stream.get(), &first_tuning);
  ASSERT_TRUE(first_tuning.used);
  ASSERT_FALSE(first_tuning.from_cache);
  EXPECT_FALSE(first_tuning.trials.empty());
  EXPECT_TRUE(fs::exists(cache));
  EXPECT_EQ(TuningCache(cache).size(), 1u);

  // Same pattern, new values: from the cache, nothing timed, the same choice.
  const CsrMatrix<double> revalued = test::with_random_values(a, rng);
  TuningReport report;
  const auto second = make_spmv_backend(revalued, options, stream.get(), &report);
  EXPECT_TRUE(report.used);
  EXPECT_TRUE(report.from_cache);
  EXPECT_TRUE(report.trials.empty());
  EXPECT_EQ(report.chosen_label, first_tuning.chosen_label);
  EXPECT_EQ(report.cache_path, cache);
  EXPECT_LT(test::spmv_relative_error(*second, revalued, rng, stream), 1e-12);

  // Another precision or pattern tunes again and adds an entry.
  TuningReport single_tuning, other_tuning;
  const auto single =
      make_spmv_backend(convert_values<float>(a), options, stream.get(), &single_tuning);
  EXPECT_TRUE(single_tuning.used);
  EXPECT_FALSE(single_tuning.from_cache);
  const auto other =
      make_spmv_backend(generate_poisson3d(41, 7), options, stream.get(), &other_tuning);
  EXPECT_TRUE(other_tuning.used);
  EXPECT_FALSE(other_tuning.from_cache);
  EXPECT_EQ(TuningCache(cache).size(), 3u);
  fs::remove(cache);
}

TEST(AutoFormat, CorruptCacheIsRetunedAndRepaired) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  const std::string cache = temp_cache_path();
  { std::ofstream(cache) << "not a cache line\n"; }
  SpmvOptions options;
  options.format = Format::automatic;
  options.tune_cache = cache;
  TuningReport report;
  const auto backend = make_spmv_backend(generate_poisson3d(20, 7), options, stream.get(), &report);
  EXPECT_TRUE(report.used);
  EXPECT_FALSE(report.from_cache);
  ASSERT_FALSE(report.cache_notes.empty());
  EXPECT_NE(report.cache_notes[0].find(":1: unreadable entry ignored"), std::string::npos);
  const TuningCache repaired(cache);
  EXPECT_TRUE(repaired.notes().empty());
  EXPECT_EQ(repaired.size(), 1u);
  fs::remove(cache);
}

// Other formats leave the report empty: make_spmv_backend resets it, only auto fills it.
TEST(AutoFormat, OtherFormatsLeaveTheTuningReportEmpty) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  SpmvOptions options;
  options.format = Format::hyb;
  TuningReport report;
  report.used = true;
  report.chosen_label = "stale";
  const auto backend = make_spmv_backend(generate_poisson3d(10, 7), options, stream.get(), &report);
  EXPECT_FALSE(report.used);
  EXPECT_TRUE(report.chosen_label.empty());
  EXPECT_TRUE(report.trials.empty());
}

TEST(AutoFormat, SolverReportsTheTuning) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = generate_poisson3d(30, 7);
  Options options;
  options.device = Device::gpu;
  options.spmv.format = Format::automatic;
  options.spmv.tune_cache = "off";
  Solver<double> solver(arrays_of(a), options);
  const SetupInfo& setup = solver.setup_info();
  EXPECT_TRUE(setup.tuning.used);
  EXPECT_FALSE(setup.tuning.chosen_label.empty());
  EXPECT_NE(setup.operator_name.find("(auto)"), std::string::npos);
  std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0), x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_TRUE(result.converged()) << result.message;
}

}  // namespace
}  // namespace spk
