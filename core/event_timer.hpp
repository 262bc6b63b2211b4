#pragma once
// Timing device work with CUDA events: warm-up runs, then the median of many timed runs.
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace spk {

// A pair of CUDA events, destroyed on every path.
class EventPair {
 public:
  EventPair();
  ~EventPair();
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  void record_start(cudaStream_t stream);
  void record_stop(cudaStream_t stream);
  // Waits for the stop event; milliseconds between the two.
  float elapsed_ms();

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// The median of `values` (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> values);

struct TimingSummary {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int runs = 0;
};

// Runs `work` (which enqueues on `stream`) warmup times untimed, then `runs` times each
// between two events, and summarizes.
TimingSummary time_on_stream(cudaStream_t stream, int warmup, int runs,
                             const std::function<void()>& work);

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), measured on a
// buffer of `bytes` bytes (choose several times the L2 size).
double measure_copy_bandwidth_gbs(cudaStream_t stream, std::size_t bytes);

}  // namespace spk
