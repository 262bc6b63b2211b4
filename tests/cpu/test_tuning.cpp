// spmv.format auto without a GPU: the pattern fingerprint, the tuning cache file (read,
// write, corruption, atomic replacement), the pre-filter rules, and the choice logic driven
// by injected timings.
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "spkrylov/errors.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/tuning/matrix_fingerprint.hpp"
#include "spmv/tuning/tuner.hpp"
#include "spmv/tuning/tuning_cache.hpp"
#include "spmv/tuning/tuning_candidates.hpp"

namespace spk {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("spk-tuning-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::owner_all, ignored);
    fs::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TuningKey key_for(const CsrMatrix<double>& matrix, const std::string& gpu = "NVIDIA H100 80GB HBM3",
                  const std::string& precision = "double") {
  TuningKey key;
  key.matrix = fingerprint_of(matrix);
  key.gpu_name = gpu;
  key.compute_capability = 90;
  key.precision = precision;
  key.version = "0.1.0";
  return key;
}

TuningChoice hyb_choice() {
  TuningChoice choice;
  choice.options.format = Format::hyb;
  choice.options.block_size = 512;
  choice.options.x_cache = XCache::texture;
  choice.options.grid = GridShape::capped;
  choice.spmv_ms = 0.0811;
  return choice;
}

// ---------------------------------------------------------------- fingerprint

TEST(TuningFingerprint, PatternNotValues) {
  const CsrMatrix<double> a = generate_poisson3d(12, 7);
  CsrMatrix<double> scaled = a;
  for (double& value : scaled.values) value *= 3.0;
  const MatrixFingerprint fa = fingerprint_of(a);
  EXPECT_EQ(fa.rows, a.rows);
  EXPECT_EQ(fa.cols, a.cols);
  EXPECT_EQ(fa.nnz, a.nnz());
  EXPECT_EQ(fa.pattern_hash, fingerprint_of(scaled).pattern_hash);
  EXPECT_EQ(fingerprint_of(convert_values<float>(a)).pattern_hash, fa.pattern_hash);

  CsrMatrix<double> moved = a;  // one column index moved within its row's range
  moved.columns[5] += 1;
  EXPECT_NE(fingerprint_of(moved).pattern_hash, fa.pattern_hash);
  CsrMatrix<double> shifted = a;  // same columns, one entry moved to the next row
  shifted.row_offsets[3] += 1;
  EXPECT_NE(fingerprint_of(shifted).pattern_hash, fa.pattern_hash);
  EXPECT_NE(fingerprint_of(generate_poisson3d(13, 7)).pattern_hash, fa.pattern_hash);
  EXPECT_EQ(hex_text(fa.pattern_hash).size(), 16u);
}

TEST(TuningFingerprint, SameForAnyThreadCount) {
  // More than one hash chunk (2^20 words), so the parallel split matters.
  const CsrMatrix<double> a = generate_poisson3d(64, 7);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::uint64_t one = fingerprint_of(a).pattern_hash;
  omp_set_num_threads(3);
  const std::uint64_t three = fingerprint_of(a).pattern_hash;
  omp_set_num_threads(threads);
  EXPECT_EQ(one, three);
}

TEST(TuningFingerprint, EmptyMatrices) {
  CsrMatrix<double> empty;
  EXPECT_EQ(fingerprint_of(empty).nnz, 0);
  CsrMatrix<double> zero_rows;
  zero_rows.rows = zero_rows.cols = 5;
  zero_rows.row_offsets.assign(6, 0);
  EXPECT_NE(fingerprint_of(zero_rows).pattern_hash, fingerprint_of(empty).pattern_hash);
}

// ---------------------------------------------------------------- cache

TEST(TuningCacheFile, StoreThenFindInANewProcessView) {
  TempDir dir;
  const std::string path = dir.file("sub/dir/tuning-cache.txt");  // folders are created
  const CsrMatrix<double> a = generate_poisson3d(10, 7);
  {
    TuningCache cache(path);
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_FALSE(cache.find(key_for(a)).has_value());
    EXPECT_TRUE(cache.store(key_for(a), hyb_choice()));
  }
  const TuningCache reread(path);
  EXPECT_TRUE(reread.notes().empty());
  const auto found = reread.find(key_for(a));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->options.format, Format::hyb);
  EXPECT_EQ(found->options.block_size, 512);
  EXPECT_EQ(found->options.x_cache, XCache::texture);
  EXPECT_EQ(found->options.grid, GridShape::capped);
  EXPECT_NEAR(found->spmv_ms, 0.0811, 1e-9);
  // Human-readable: the key and the choice are on one line, spaces in the GPU name replaced.
  const std::string text = read_text(path);
  EXPECT_NE(text.find("gpu=NVIDIA_H100_80GB_HBM3 cc=90 precision=double version=0.1.0 -> "
                      "format=hyb threads_per_row=0 block_size=512 x_cache=texture grid=capped"),
            std::string::npos)
      << text;
  // No temporary file is left behind.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(TuningCacheFile, KeyCoversPatternGpuPrecisionAndVersion) {
  TempDir dir;
  const std::string path = dir.file("cache.txt");
  const CsrMatrix<double> a = generate_poisson3d(10, 7);
  TuningCache cache(path);
  cache.store(key_for(a), hyb_choice());
  EXPECT_TRUE(cache.find(key_for(a)).has_value());
  EXPECT_FALSE(cache.find(key_for(generate_poisson3d(10, 27))).has_value());  // other pattern
  EXPECT_FALSE(cache.find(key_for(a, "NVIDIA H200")).has_value());            // other GPU
  EXPECT_FALSE(cache.find(key_for(a, "NVIDIA H100 80GB HBM3", "single")).has_value());
  TuningKey other_version = key_for(a);
  other_version.version = "0.2.0";
  EXPECT_FALSE(cache.find(other_version).has_value());
  TuningKey other_arch = key_for(a);
  other_arch.compute_capability = 80;
  EXPECT_FALSE(cache.find(other_arch).has_value());
}

TEST(TuningCacheFile, CorruptLinesAreIgnoredNamedAndDropped) {
  TempDir dir;
  const std::string path = dir.file("cache.txt");
  const CsrMatrix<double> a = generate_poisson3d(10, 7);
  { TuningCache(path).store(key_for(a), hyb_choice()); }
  const std::string good = read_text(path);
  const std::string good_line = good.substr(good.find("n="));
  {
    std::ofstream file(path, std::ios::app | std::ios::binary);
    file << "garbage without an arrow\n";
    file << "n=1 cols=1 nnz=1 pattern=00 gpu=x cc=90 precision=double version=0.1.0 -> "
            "format=coo threads_per_row=0 block_size=256 x_cache=ldg grid=exact spmv_ms=1\n";
    file << "n=2 cols=2 nnz=2 pattern=00 gpu=x cc=90 precision=double version=0.1.0 -> "
            "format=hyb threads_per_row=0 block_size=100 x_cache=ldg grid=exact spmv_ms=1\n";
    file << "n=3 cols=3 -> format=hyb\n";
    file << std::string("\x00\xff\x1b[31m binary \x01", 16) << "\n";
  }
  TuningCache cache(path);
  EXPECT_TRUE(cache.find(key_for(a)).has_value());  // the good entry survives
  ASSERT_EQ(cache.notes().size(), 5u);
  EXPECT_EQ(cache.notes()[0].rfind(path + ":4: unreadable entry ignored", 0), 0u)
      << cache.notes()[0];
  EXPECT_NE(cache.notes()[1].find("format 'coo'"), std::string::npos) << cache.notes()[1];
  EXPECT_NE(cache.notes()[2].find("block_size 100"), std::string::npos) << cache.notes()[2];
  for (const std::string& note : cache.notes())
    EXPECT_EQ(note.find('\n'), std::string::npos) << "one line: " << note;
  // The next store rewrites the file without the bad lines.
  const CsrMatrix<double> b = generate_poisson2d(30);
  EXPECT_TRUE(cache.store(key_for(b), hyb_choice()));
  const TuningCache rewritten(path);
  EXPECT_TRUE(rewritten.notes().empty());
  EXPECT_EQ(rewritten.size(), 2u);
}

TEST(TuningCacheFile, WholeFileOfJunkIsAnEmptyCache) {
  TempDir dir;
  const std::string path = dir.file("cache.txt");
  { std::ofstream(path, std::ios::binary) << std::string(4096, '\xa5'); }
  const TuningCache cache(path);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.notes().size(), 1u);
}

TEST(TuningCacheFile, StoreMergesWhatAnotherRunWrote) {
  TempDir dir;
  const std::string path = dir.file("cache.txt");
  const CsrMatrix<double> a = generate_poisson3d(10, 7), b = generate_poisson2d(40);
  TuningCache first(path), second(path);  // both read the empty file
  first.store(key_for(a), hyb_choice());
  second.store(key_for(b), hyb_choice());  // must not drop a's entry
  const TuningCache merged(path);
  EXPECT_TRUE(merged.find(key_for(a)).has_value());
  EXPECT_TRUE(merged.find(key_for(b)).has_value());
}

TEST(TuningCacheFile, UnwritableLocationIsANoteNotAnError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
  TuningCache cache(dir.file("cache.txt"));
  EXPECT_FALSE(cache.store(key_for(generate_poisson2d(8)), hyb_choice()));
  ASSERT_FALSE(cache.notes().empty());
  EXPECT_NE(cache.notes().back().find("could not"), std::string::npos);
}

TEST(TuningCacheFile, UnwritableTargetIsANoteNotAnError) {
  TempDir dir;
  fs::create_directories(dir.file("is-a-directory"));  // rename onto a directory fails
  TuningCache cache(dir.file("is-a-directory"));
  EXPECT_FALSE(cache.store(key_for(generate_poisson2d(8)), hyb_choice()));
  ASSERT_FALSE(cache.notes().empty());
  EXPECT_NE(cache.notes().back().find("could not"), std::string::npos) << cache.notes().back();
}

TEST(TuningCacheFile, DefaultLocationAndOff) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  EXPECT_EQ(resolve_tuning_cache_path("off"), "");
  EXPECT_EQ(resolve_tuning_cache_path("/x/y.txt"), "/x/y.txt");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(resolve_tuning_cache_path(""), "/xdg/spkrylov/tuning-cache.txt");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/u", 1);
  EXPECT_EQ(resolve_tuning_cache_path(""), "/home/u/.cache/spkrylov/tuning-cache.txt");
  ::unsetenv("HOME");
  EXPECT_EQ(resolve_tuning_cache_path(""), "");  // nowhere to put it: no cache
  if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

// ---------------------------------------------------------------- pre-filter

std::map<std::string, std::string> skipped_by_label(const CandidatePlan& plan) {
  std::map<std::string, std::string> reasons;
  for (const auto& skipped : plan.skipped)
    reasons[candidate_label(skipped.options)] = skipped.reason;
  return reasons;
}

std::vector<std::string> planned_labels(const CandidatePlan& plan) {
  std::vector<std::string> labels;
  for (const auto& options : plan.formats) labels.push_back(candidate_label(options));
  return labels;
}

constexpr std::size_t eighty_gb = 80ull << 30;

TEST(TuningPrefilter, RowStats) {
  CsrMatrix<double> a;  // rows of length 2, 0, 18
  a.rows = 3;
  a.cols = 20;
  a.row_offsets = {0, 2, 2, 20};
  const RowStats shape = compute_row_stats(a.rows, a.cols, a.row_offsets);
  EXPECT_EQ(shape.nnz, 20);
  EXPECT_EQ(shape.max_row_length, 18);
  EXPECT_DOUBLE_EQ(shape.avg_row_length, 20.0 / 3.0);
  EXPECT_DOUBLE_EQ(shape.ell_fill_ratio, 3.0 * 18.0 / 20.0);
  EXPECT_EQ(shape.aligned16_entries, 16 + 32);
  EXPECT_DOUBLE_EQ(shape.aligned16_padding(), (16.0 + 32.0 - 20.0) / 20.0);
  const double mean = 20.0 / 3.0;
  EXPECT_NEAR(shape.row_length_stddev, std::sqrt((4.0 + 0.0 + 324.0) / 3.0 - mean * mean), 1e-12);
}

TEST(TuningPrefilter, SevenPointStencilKeepsTheEllFamily) {
  const CsrMatrix<double> a = generate_poisson3d(20, 7);  // rows 4..7, fill 7/6.7
  const CandidatePlan plan = plan_format_candidates(
      compute_row_stats(a.rows, a.cols, a.row_offsets), SpmvOptions{}, 8, eighty_gb);
  const auto labels = planned_labels(plan);
  ASSERT_FALSE(labels.empty());
  EXPECT_EQ(labels[0], "csr-vector w=4 bs=256 ldg exact");  // the default format's rule, first
  for (const char* kept :
       {"hyb bs=256 ldg exact", "ellpack bs=256 ldg exact", "ellpack-r bs=256 ldg exact",
        "cusparse alg1", "csr-scalar bs=256 ldg exact", "csr-vector w=2 bs=256 ldg exact",
        "csr-vector w=8 bs=256 ldg exact"})
    EXPECT_NE(std::find(labels.begin(), labels.end(), kept), labels.end()) << kept;
  const auto skipped = skipped_by_label(plan);
  ASSERT_EQ(skipped.count("aligned-csr w=16 bs=256 ldg exact"), 1u);
  EXPECT_NE(skipped.at("aligned-csr w=16 bs=256 ldg exact").find("< 16"), std::string::npos);
  // Rows this alike: no merge path, no sorting.
  EXPECT_NE(skipped.at("csr-merge bs=256 ldg exact").find("too alike for merge path"),
            std::string::npos);
  EXPECT_NE(skipped.at("sell bs=256 ldg exact").find("too alike to gain from sorting"),
            std::string::npos);
}

TEST(TuningPrefilter, PowerLawRowsSkipPaddedAndThreadPerRowFormats) {
  const CsrMatrix<double> a = generate_powerlaw(20000, 8.0, 2.0, 1);
  const RowStats shape = compute_row_stats(a.rows, a.cols, a.row_offsets);
  ASSERT_GT(shape.ell_fill_ratio, 4.0);
  const CandidatePlan plan = plan_format_candidates(shape, SpmvOptions{}, 8, eighty_gb);
  const auto skipped = skipped_by_label(plan);
  EXPECT_NE(skipped.at("ellpack bs=256 ldg exact").find("ELL fill ratio"), std::string::npos);
  EXPECT_NE(skipped.at("ellpack-r bs=256 ldg exact").find("> 4"), std::string::npos);
  EXPECT_NE(skipped.at("csr-scalar bs=256 ldg exact").find("stddev/mean"), std::string::npos);
  const auto labels = planned_labels(plan);
  EXPECT_NE(std::find(labels.begin(), labels.end(), "hyb bs=256 ldg exact"), labels.end());
  EXPECT_NE(std::find(labels.begin(), labels.end(), "cusparse alg1"), labels.end());
  EXPECT_NE(std::find(labels.begin(), labels.end(), "csr-merge bs=256 ldg exact"), labels.end());
  // sell splits long rows off (sell_layout.hpp): a power law keeps it whatever its longest row.
  EXPECT_NE(std::find(labels.begin(), labels.end(), "sell bs=256 ldg exact"), labels.end());
}

TEST(TuningPrefilter, SellKeepsAMatrixWithAVeryLongRow) {
  RowStats shape;  // the power-law suite matrix's shape: mean 10, one row of 10004
  shape.rows = 2000000;
  shape.cols = 2000000;
  shape.nnz = 20000000;
  shape.avg_row_length = 10.0;
  shape.row_length_stddev = 30.0;
  shape.max_row_length = 10004;
  shape.ell_fill_ratio = 1000.4;
  // Its long row goes to whole warps (the split), so sell is timed like the others.
  const auto labels = planned_labels(plan_format_candidates(shape, SpmvOptions{}, 8, eighty_gb));
  EXPECT_NE(std::find(labels.begin(), labels.end(), "sell bs=256 ldg exact"), labels.end());
}

TEST(TuningPrefilter, LongRowsSkipScalarAndNarrowGroups) {
  const CsrMatrix<double> a = generate_elasticity3d(8);  // ~81 a row inside
  const RowStats shape = compute_row_stats(a.rows, a.cols, a.row_offsets);
  const CandidatePlan plan = plan_format_candidates(shape, SpmvOptions{}, 8, eighty_gb);
  const auto skipped = skipped_by_label(plan);
  EXPECT_NE(skipped.at("csr-scalar bs=256 ldg exact").find("> 12"), std::string::npos);
  const auto labels = planned_labels(plan);
  EXPECT_EQ(labels[0], "csr-vector w=16 bs=256 ldg exact");
  EXPECT_NE(std::find(labels.begin(), labels.end(), "csr-vector w=32 bs=256 ldg exact"),
            labels.end());
  // Narrow groups on long rows: w=2 with mean 70 is never planned.
  for (const auto& label : labels) EXPECT_EQ(label.find("w=2 "), std::string::npos) << label;
}

TEST(TuningPrefilter, EllpackLimitAndDeviceMemory) {
  const CsrMatrix<double> a = generate_poisson3d(10, 7);
  RowStats shape = compute_row_stats(a.rows, a.cols, a.row_offsets);
  SpmvOptions strict;
  strict.max_ell_fill = 1.0;  // the user's limit is tighter than the rule's 1.25
  const auto skipped = skipped_by_label(plan_format_candidates(shape, strict, 8, eighty_gb));
  EXPECT_EQ(skipped.count("ellpack bs=256 ldg exact"), 1u);
  const auto tiny = skipped_by_label(plan_format_candidates(shape, SpmvOptions{}, 8, 1000));
  EXPECT_NE(tiny.at("ellpack-r bs=256 ldg exact").find("half the device memory"),
            std::string::npos);
}

TEST(TuningPrefilter, LaunchVariants) {
  SpmvOptions hyb;
  hyb.format = Format::hyb;
  const auto variants = launch_variants(hyb);
  EXPECT_EQ(variants.size(), 11u);  // 3 block sizes x 2 caches x 2 grids, minus the winner
  for (const auto& variant : variants) {
    EXPECT_EQ(variant.format, Format::hyb);
    EXPECT_FALSE(variant.block_size == 256 && variant.x_cache == XCache::ldg &&
                 variant.grid == GridShape::exact);
  }
  SpmvOptions cusparse;
  cusparse.format = Format::cusparse;
  EXPECT_TRUE(launch_variants(cusparse).empty());
  SpmvOptions merge;  // capped: fewer blocks, each looping over tiles
  merge.format = Format::csr_merge;
  EXPECT_EQ(launch_variants(merge).size(), 11u);
  SpmvOptions mixed;  // fp32 values: cusparse is no candidate
  mixed.matrix_values = MatrixValues::single;
  const CsrMatrix<double> a = generate_poisson3d(10, 7);
  const auto skipped = skipped_by_label(plan_format_candidates(
      compute_row_stats(a.rows, a.cols, a.row_offsets), mixed, 8, eighty_gb));
  EXPECT_NE(skipped.at("cusparse alg1").find("fp64 values only"), std::string::npos);
}

TEST(TuningPrefilter, SharedXIsTriedOnlyOnWarpPerRowCsrVector) {
  const auto shared_count = [](const std::vector<SpmvOptions>& variants) {
    return std::count_if(variants.begin(), variants.end(),
                         [](const SpmvOptions& o) { return o.x_cache == XCache::shared; });
  };
  SpmvOptions warp_per_row;
  warp_per_row.format = Format::csr_vector;
  warp_per_row.threads_per_row = 32;
  EXPECT_TRUE(tries_shared_x(warp_per_row));
  const auto variants = launch_variants(warp_per_row);
  EXPECT_EQ(variants.size(), 17u);  // 3 block sizes x 3 caches x 2 grids, minus the winner
  EXPECT_EQ(shared_count(variants), 6);
  for (const auto& variant : variants) {
    EXPECT_EQ(variant.format, Format::csr_vector);
    EXPECT_EQ(variant.threads_per_row, 32);
  }
  EXPECT_NE(std::find_if(variants.begin(), variants.end(),
                         [](const SpmvOptions& o) {
                           return candidate_label(o) == "csr-vector w=32 bs=512 shared capped";
                         }),
            variants.end());
  SpmvOptions two_rows_a_warp = warp_per_row;
  two_rows_a_warp.format = Format::csr;
  two_rows_a_warp.threads_per_row = 16;
  EXPECT_EQ(shared_count(launch_variants(two_rows_a_warp)), 6);
  // Narrower sub-warps, other formats: no shared variant (the other formats refuse it).
  for (const auto& [format, threads] :
       std::vector<std::pair<Format, int>>{{Format::csr_vector, 8},
                                           {Format::csr_vector, 2},
                                           {Format::aligned_csr, 32},
                                           {Format::csr_scalar, 0},
                                           {Format::ellpack_r, 0},
                                           {Format::hyb, 0}}) {
    SpmvOptions winner;
    winner.format = format;
    winner.threads_per_row = threads;
    SCOPED_TRACE(candidate_label(winner));
    EXPECT_FALSE(tries_shared_x(winner));
    EXPECT_EQ(shared_count(launch_variants(winner)), 0);
  }
}

TEST(TuningPrefilter, LongRowsPlanWideSubWarpsThatTrySharedX) {
  // Elasticity rows (81 entries inside): the rule's w = 16 and the w = 32 candidate both let
  // stage 2 try the shared-memory x; 7-point rows (mean ~6) never plan such a width.
  const auto shared_candidates = [](const CsrMatrix<double>& a) {
    const RowStats shape = compute_row_stats(a.rows, a.cols, a.row_offsets);
    const CandidatePlan plan = plan_format_candidates(shape, SpmvOptions{}, 8, eighty_gb);
    return std::count_if(plan.formats.begin(), plan.formats.end(), tries_shared_x);
  };
  EXPECT_EQ(shared_candidates(generate_elasticity3d(8)), 2);
  EXPECT_EQ(shared_candidates(generate_poisson3d(10, 7)), 0);
}

// ---------------------------------------------------------------- choice, injected timings

// Times come from a table by label; each call costs `cost_ms` of fake wall-clock time.
class FakeBench final : public CandidateBench {
 public:
  std::map<std::string, double> times;
  std::map<std::string, std::string> refusals;
  double cost_ms = 10.0;
  double clock_ms = 0.0;
  std::string kept, current, launched;
  std::vector<std::string> calls;

  double time_format(const SpmvOptions& options) override {
    return measure(options, current = candidate_label(options));
  }
  void keep_current() override { kept = current; }
  double time_launch(const SpmvOptions& options) override {
    set_launch(options);
    return measure(options, launched);
  }
  void set_launch(const SpmvOptions& options) override { launched = candidate_label(options); }
  double elapsed_ms() const override { return clock_ms; }

 private:
  double measure(const SpmvOptions&, const std::string& label) {
    calls.push_back(label);
    clock_ms += cost_ms;
    if (refusals.count(label)) throw BadInput(refusals.at(label));
    return times.count(label) ? times.at(label) : 1.0;
  }
};

CandidatePlan stencil_plan() {
  const CsrMatrix<double> a = generate_poisson3d(20, 7);
  return plan_format_candidates(compute_row_stats(a.rows, a.cols, a.row_offsets), SpmvOptions{}, 8,
                                eighty_gb);
}

TEST(TuningChoice, PicksTheFastestFormatThenTheFastestLaunch) {
  FakeBench bench;
  bench.times = {{"csr-vector w=4 bs=256 ldg exact", 0.20}, {"hyb bs=256 ldg exact", 0.15},
                 {"ellpack bs=256 ldg exact", 0.12},        {"cusparse alg1", 0.18},
                 {"ellpack bs=512 texture capped", 0.11},   {"ellpack bs=128 ldg exact", 0.125}};
  TuningReport report;
  run_tuning(stencil_plan(), 1e9, bench, report);
  EXPECT_TRUE(report.used);
  EXPECT_EQ(report.chosen.format, Format::ellpack);
  EXPECT_EQ(report.chosen_label, "ellpack bs=512 texture capped");
  EXPECT_DOUBLE_EQ(report.chosen_ms, 0.11);
  EXPECT_DOUBLE_EQ(report.baseline_ms, 0.20);
  EXPECT_EQ(bench.kept, "ellpack bs=256 ldg exact");           // the format kept from stage 1
  EXPECT_EQ(bench.launched, "ellpack bs=512 texture capped");  // and launched as chosen
  EXPECT_DOUBLE_EQ(report.tuning_ms, bench.clock_ms);
  // Every planned format and every launch variant of the winner was timed.
  int timed = 0;
  for (const auto& trial : report.trials) {
    timed += trial.outcome == "timed";
    if (trial.outcome == "timed") {
      EXPECT_GE(trial.spmv_ms, 0.0);
    } else {
      EXPECT_LT(trial.spmv_ms, 0.0);
    }
  }
  EXPECT_EQ(timed, static_cast<int>(stencil_plan().formats.size()) + 11);
}

TEST(TuningChoice, RefusedFormatsAreRecordedNotChosen) {
  FakeBench bench;
  bench.times = {{"csr-vector w=4 bs=256 ldg exact", 0.20}, {"ellpack bs=256 ldg exact", 0.01}};
  bench.refusals = {{"ellpack bs=256 ldg exact", "ellpack: padded size too large"}};
  TuningReport report;
  run_tuning(stencil_plan(), 1e9, bench, report);
  EXPECT_NE(report.chosen.format, Format::ellpack);
  bool found = false;
  for (const auto& trial : report.trials)
    if (trial.label == "ellpack bs=256 ldg exact") {
      found = true;
      EXPECT_EQ(trial.outcome, "refused: ellpack: padded size too large");
    }
  EXPECT_TRUE(found);
}

TEST(TuningChoice, BudgetStopsNewCandidatesButTheDefaultIsAlwaysTimed) {
  FakeBench bench;
  bench.times = {{"csr-vector w=4 bs=256 ldg exact", 0.20}, {"hyb bs=256 ldg exact", 0.15}};
  TuningReport report;
  run_tuning(stencil_plan(), 0.0, bench, report);  // budget 0: only the first candidate
  EXPECT_EQ(bench.calls.size(), 1u);
  EXPECT_EQ(report.chosen_label, "csr-vector w=4 bs=256 ldg exact");
  int over_budget = 0;
  for (const auto& trial : report.trials)
    over_budget += trial.outcome == "skipped: tune_budget_ms spent";
  EXPECT_EQ(over_budget, static_cast<int>(stencil_plan().formats.size()) - 1 + 11);

  FakeBench partial;
  partial.times = bench.times;
  TuningReport partial_report;
  run_tuning(stencil_plan(), 25.0, partial, partial_report);  // 10 ms each: 3 are started
  EXPECT_EQ(partial.calls.size(), 3u);
  EXPECT_EQ(partial_report.chosen.format, Format::hyb);
}

TEST(TuningChoice, EveryFormatRefusedIsAnError) {
  FakeBench bench;
  for (const auto& options : stencil_plan().formats)
    bench.refusals[candidate_label(options)] = "no";
  TuningReport report;
  EXPECT_THROW(run_tuning(stencil_plan(), 1e9, bench, report), BadInput);
}

TEST(TuningChoice, CusparseWinnerHasNoLaunchStage) {
  FakeBench bench;
  bench.times = {{"csr-vector w=4 bs=256 ldg exact", 0.20}, {"cusparse alg1", 0.05}};
  TuningReport report;
  run_tuning(stencil_plan(), 1e9, bench, report);
  EXPECT_EQ(report.chosen_label, "cusparse alg1");
  EXPECT_EQ(bench.launched, "");
  EXPECT_EQ(bench.calls.size(), stencil_plan().formats.size());
}

}  // namespace
}  // namespace spk
