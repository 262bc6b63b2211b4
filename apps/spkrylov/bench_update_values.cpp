#include "bench_update_values.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "core/event_timer.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/generators.hpp"

namespace spk::app {

namespace {

struct UpdateRow {
  std::string format;
  double spmv_ms = 0.0;
  double device_values_gpu_ms = 0.0;   // CUDA events around the call
  double device_values_host_ms = 0.0;  // until the call returns
  double host_values_ms = 0.0;         // until the call returns + stream synchronize
  double ratio() const { return spmv_ms > 0.0 ? device_values_gpu_ms / spmv_ms : 0.0; }
};

double host_ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

class StreamTimer {
 public:
  StreamTimer() {
    SPK_CUDA_CHECK(cudaEventCreate(&start_));
    SPK_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~StreamTimer() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  StreamTimer(const StreamTimer&) = delete;
  StreamTimer& operator=(const StreamTimer&) = delete;
  void start(cudaStream_t stream) { SPK_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  double stop_ms(cudaStream_t stream) {
    SPK_CUDA_CHECK(cudaEventRecord(stop_, stream));
    SPK_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    SPK_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms);
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

UpdateRow measure(const CsrMatrix<double>& a, const std::vector<double>& new_values,
                  const std::string& format, const BenchCommandOptions& bench,
                  cudaStream_t stream) {
  const DeviceBuffer<index_t> offsets(a.row_offsets, "row offsets"), columns(a.columns, "columns");
  const DeviceBuffer<double> values(a.values, "values"), values_next(new_values, "new values");
  Options options;
  options.device = Device::gpu;
  options.solver.preconditioner = Preconditioner::jacobi;
  options.spmv.format = parse_format(format);
  Solver<double> solver({a.rows, a.cols, offsets.data(), columns.data(), values.data(), true},
                        options, stream);
  UpdateRow row;
  row.format = solver.setup_info().operator_name;
  row.spmv_ms = solver.time_spmv_ms(bench.runs);
  StreamTimer timer;
  std::vector<double> gpu_ms, host_ms, from_host_ms;
  for (int run = 0; run < bench.warmup + bench.runs; ++run) {
    const double* next = run % 2 ? values.data() : values_next.data();
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
    timer.start(stream);
    const auto start = std::chrono::steady_clock::now();
    solver.update_values(next);
    const double returned_ms = host_ms_since(start);
    const double elapsed_ms = timer.stop_ms(stream);
    const auto host_start = std::chrono::steady_clock::now();
    solver.update_values(run % 2 ? a.values : new_values);
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
    const double host_values_ms = host_ms_since(host_start);
    if (run < bench.warmup) continue;
    gpu_ms.push_back(elapsed_ms);
    host_ms.push_back(returned_ms);
    from_host_ms.push_back(host_values_ms);
  }
  row.device_values_gpu_ms = median(gpu_ms);
  row.device_values_host_ms = median(host_ms);
  row.host_values_ms = median(from_host_ms);
  return row;
}

}  // namespace

int run_update_values_bench(const BenchCommandOptions& bench) {
  const DeviceInfo device = current_device_info();
  int n = 160;
  if (bench.only.rfind("n=", 0) == 0) n = std::stoi(bench.only.substr(2));
  const CsrMatrix<double> a = generate_poisson3d(n, 7);
  std::vector<double> new_values = a.values;
  for (double& value : new_values) value *= 1.01;
  const std::vector<std::string> formats =
      bench.formats.empty()
          ? std::vector<std::string>{"csr-scalar", "csr-vector", "aligned-csr", "ellpack",
                                     "ellpack-r",  "hyb",        "cusparse"}
          : bench.formats;
  cudaStream_t stream = nullptr;
  SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::printf(
      "update_values on %s: poisson3d-7pt n=%d (%d rows, %zu nonzeros), Jacobi, fp64, "
      "median of %d after %d warm-up\n",
      device.name.c_str(), n, a.rows, a.values.size(), bench.runs, bench.warmup);
  std::printf("%-22s %9s %15s %16s %14s %12s\n", "format", "SpMV ms", "update GPU ms",
              "update return ms", "host values ms", "GPU / SpMV");
  std::vector<UpdateRow> rows;
  try {
    for (const auto& format : formats) {
      rows.push_back(measure(a, new_values, format, bench, stream));
      const UpdateRow& row = rows.back();
      std::printf("%-22s %9.4f %15.4f %16.4f %14.3f %12.2f\n", row.format.c_str(), row.spmv_ms,
                  row.device_values_gpu_ms, row.device_values_host_ms, row.host_values_ms,
                  row.ratio());
    }
  } catch (...) {
    (void)cudaStreamDestroy(stream);
    throw;
  }
  SPK_CUDA_CHECK(cudaStreamDestroy(stream));
  if (!bench.csv_path.empty()) {
    std::ofstream csv(bench.csv_path);
    if (!csv) throw BadInput(bench.csv_path + ": cannot open for writing");
    csv << "format,spmv_ms,update_gpu_ms,update_return_ms,host_values_ms,gpu_over_spmv\n";
    for (const auto& row : rows)
      csv << row.format << ',' << row.spmv_ms << ',' << row.device_values_gpu_ms << ','
          << row.device_values_host_ms << ',' << row.host_values_ms << ',' << row.ratio() << '\n';
  }
  return 0;
}

}  // namespace spk::app
