#include "core/event_timer.hpp"

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace spk {

EventPair::EventPair() {
  SPK_CUDA_CHECK(cudaEventCreate(&start_));
  const cudaError_t status = cudaEventCreate(&stop_);
  if (status != cudaSuccess) {
    (void)cudaEventDestroy(start_);
    SPK_CUDA_CHECK(status);
  }
}

EventPair::~EventPair() {
  (void)cudaEventDestroy(start_);
  (void)cudaEventDestroy(stop_);
}

void EventPair::record_start(cudaStream_t stream) {
  SPK_CUDA_CHECK(cudaEventRecord(start_, stream));
}
void EventPair::record_stop(cudaStream_t stream) {
  SPK_CUDA_CHECK(cudaEventRecord(stop_, stream));
}

float EventPair::elapsed_ms() {
  SPK_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0.0f;
  SPK_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

TimingSummary time_on_stream(cudaStream_t stream, int warmup, int runs,
                             const std::function<void()>& work) {
  for (int i = 0; i < warmup; ++i) work();
  EventPair events;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(std::max(1, runs)));
  for (int i = 0; i < std::max(1, runs); ++i) {
    events.record_start(stream);
    work();
    events.record_stop(stream);
    times.push_back(static_cast<double>(events.elapsed_ms()));
  }
  std::sort(times.begin(), times.end());
  TimingSummary summary;
  summary.runs = static_cast<int>(times.size());
  summary.min_ms = times.front();
  summary.max_ms = times.back();
  summary.median_ms = median(times);
  return summary;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

double measure_copy_bandwidth_gbs(cudaStream_t stream, std::size_t bytes) {
  DeviceBuffer<unsigned char> source(bytes, "copy-bandwidth source");
  DeviceBuffer<unsigned char> target(bytes, "copy-bandwidth target");
  SPK_CUDA_CHECK(cudaMemsetAsync(source.data(), 1, bytes, stream));
  const TimingSummary timing = time_on_stream(stream, 3, 20, [&] {
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  return 2.0 * static_cast<double>(bytes) / (timing.median_ms * 1e-3) / 1e9;
}

}  // namespace spk
