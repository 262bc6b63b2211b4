#include "spmv/tuning/auto_backend.hpp"

#include <chrono>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "core/event_timer.hpp"
#include "spmv/registry.hpp"
#include "spmv/tuning/tuner.hpp"
#include "spmv/tuning/tuning_cache.hpp"

namespace spk {

namespace {

constexpr int warmup_runs = 2;
constexpr int timed_runs = 10;

// The chosen backend, plus the two facts of its choice that details() reports.
template <class T>
class AutoTuned final : public SpmvBackend<T> {
 public:
  AutoTuned(std::unique_ptr<SpmvBackend<T>> chosen, const TuningReport& report, cudaStream_t stream)
      : SpmvBackend<T>(stream),
        chosen_(std::move(chosen)),
        chosen_label_(report.chosen_label),
        from_cache_(report.from_cache) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    chosen_->apply_scaled(alpha, x, beta, y);
  }
  bool apply_dots(const T* x, T* y, const T* w, T* sums, int count) const override {
    return chosen_->apply_dots(x, y, w, sums, count);
  }
  index_t rows() const override { return chosen_->rows(); }
  index_t cols() const override { return chosen_->cols(); }
  std::string name() const override { return chosen_->name() + " (auto)"; }
  std::size_t device_bytes() const override { return chosen_->device_bytes(); }
  std::size_t bytes_per_spmv() const override { return chosen_->bytes_per_spmv(); }
  std::vector<std::pair<std::string, std::string>> details() const override {
    std::vector<std::pair<std::string, std::string>> details{
        {"auto_choice", chosen_label_}, {"auto_source", from_cache_ ? "tuning cache" : "tuned"}};
    for (auto& detail : chosen_->details()) details.push_back(detail);
    return details;
  }
  void update_values(const T* values, index_t* first_non_finite) override {
    chosen_->update_values(values, first_non_finite);
  }
  void set_launch(const SpmvOptions& options) override { chosen_->set_launch(options); }
  void forget_x_vectors() override { chosen_->forget_x_vectors(); }

 private:
  std::unique_ptr<SpmvBackend<T>> chosen_;
  std::string chosen_label_;
  bool from_cache_;
};

// Builds and times candidates on the device, on the solver's stream.
template <class T>
class DeviceCandidateBench final : public CandidateBench {
 public:
  DeviceCandidateBench(const DeviceCsr<T>& matrix, cudaStream_t stream)
      : matrix_(matrix),
        stream_(stream),
        x_(std::vector<T>(static_cast<std::size_t>(matrix.cols), T(1)), "auto tuning x"),
        y_(static_cast<std::size_t>(matrix.rows), "auto tuning y"),
        start_(std::chrono::steady_clock::now()) {}

  double time_format(const SpmvOptions& options) override {
    current_.reset();  // free the previous candidate before converting the next
    current_ = make_spmv_backend(matrix_, options, stream_);
    return time(*current_);
  }
  void keep_current() override { kept_ = std::move(current_); }
  double time_launch(const SpmvOptions& options) override {
    set_launch(options);
    return time(*kept_);
  }
  void set_launch(const SpmvOptions& options) override { kept_->set_launch(options); }
  double elapsed_ms() const override {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

  // The chosen backend, without the texture objects it made over the tuning x (freed with
  // the bench: a solver vector allocated at its address would read through them).
  std::unique_ptr<SpmvBackend<T>> take_kept() {
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));
    kept_->forget_x_vectors();
    return std::move(kept_);
  }

 private:
  double time(const SpmvBackend<T>& backend) {
    return time_on_stream(stream_, warmup_runs, timed_runs,
                          [&] { backend.apply(x_.data(), y_.data()); })
        .median_ms;
  }

  const DeviceCsr<T>& matrix_;
  cudaStream_t stream_;
  DeviceBuffer<T> x_, y_;
  std::chrono::steady_clock::time_point start_;
  std::unique_ptr<SpmvBackend<T>> current_, kept_;
};

// The fingerprint (a host hash) of the device matrix's pattern: the row offsets and column
// indices come back to the host for it, the values do not.
template <class T>
MatrixFingerprint device_fingerprint(const DeviceCsr<T>& matrix, cudaStream_t stream) {
  const std::vector<index_t> row_offsets =
      download_array(matrix.row_offsets, static_cast<std::size_t>(matrix.rows) + 1, stream);
  const std::vector<index_t> columns =
      download_array(matrix.columns, static_cast<std::size_t>(matrix.nnz), stream);
  return fingerprint_pattern(matrix.rows, matrix.cols, row_offsets.data(), columns.data());
}

}  // namespace

const char* spkrylov_version() {
  return SPK_VERSION;
}

template <class T>
std::unique_ptr<SpmvBackend<T>> make_auto_backend(const DeviceCsr<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream,
                                                  TuningReport* tuning) {
  const auto started = std::chrono::steady_clock::now();
  const DeviceInfo device = current_device_info();
  TuningKey key;
  key.matrix = device_fingerprint(matrix, stream);
  key.gpu_name = device.name;
  key.compute_capability = device.compute_major * 10 + device.compute_minor;
  key.precision = sizeof(T) == 8 ? "double" : "single";
  key.version = spkrylov_version();

  TuningReport report;
  report.used = true;
  report.cache_path = resolve_tuning_cache_path(options.tune_cache);
  TuningCache cache(report.cache_path);
  if (const std::optional<TuningChoice> cached = cache.find(key)) {
    SpmvOptions chosen = options;  // the user's format-specific limits stay
    chosen.format = cached->options.format;
    chosen.threads_per_row = cached->options.threads_per_row;
    chosen.block_size = cached->options.block_size;
    chosen.x_cache = cached->options.x_cache;
    chosen.grid = cached->options.grid;
    try {
      auto backend = make_spmv_backend(matrix, chosen, stream);
      report.from_cache = true;
      report.chosen = chosen;
      report.chosen_label = candidate_label(chosen);
      report.chosen_ms = cached->spmv_ms;
      report.cache_notes = cache.notes();
      report.tuning_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      auto tuned = std::make_unique<AutoTuned<T>>(std::move(backend), report, stream);
      if (tuning != nullptr) *tuning = std::move(report);
      return tuned;
    } catch (const BadInput& error) {  // e.g. a cache written under other spmv limits
      report.cache_notes.push_back(std::string("cached choice refused, tuning again: ") +
                                   error.what());
    }
  }

  const CandidatePlan plan =
      plan_format_candidates(matrix.stats, options, sizeof(T), device.global_memory_bytes);
  DeviceCandidateBench<T> bench(matrix, stream);
  run_tuning(plan, options.tune_budget_ms, bench, report);
  if (!report.cache_path.empty()) cache.store(key, TuningChoice{report.chosen, report.chosen_ms});
  for (const std::string& note : cache.notes()) report.cache_notes.push_back(note);
  auto tuned = std::make_unique<AutoTuned<T>>(bench.take_kept(), report, stream);
  if (tuning != nullptr) *tuning = std::move(report);
  return tuned;
}

template std::unique_ptr<SpmvBackend<float>> make_auto_backend(const DeviceCsr<float>&,
                                                               const SpmvOptions&, cudaStream_t,
                                                               TuningReport*);
template std::unique_ptr<SpmvBackend<double>> make_auto_backend(const DeviceCsr<double>&,
                                                                const SpmvOptions&, cudaStream_t,
                                                                TuningReport*);

}  // namespace spk
