#include "bench_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>

#include "bench_results.hpp"
#include "bench_suite.hpp"
#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "core/event_timer.hpp"
#include "core/input_file.hpp"
#include "frontend/problem.hpp"
#include "solver/device_context.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "spmv/registry.hpp"

namespace spk::app {

namespace {

struct Candidate {
  std::string format;  // as given by --formats: parsed (and refused in its row) when it runs
  SpmvOptions options;
  std::string label;
};

std::vector<Candidate> candidates(const BenchCommandOptions& bench) {
  std::vector<std::string> formats = bench.formats;
  if (formats.empty())
    for (const Format format : all_formats())
      if (format != Format::csr) formats.push_back(to_string(format));  // csr: csr-vector's alias
  std::vector<Candidate> list;
  // cuSPARSE first: every other row is compared with it.
  for (const auto& format : formats)
    if (format == to_string(Format::cusparse)) {
      Candidate candidate;
      candidate.format = format;
      candidate.label = format;
      list.push_back(candidate);
    }
  for (const auto& format : formats) {
    if (format == to_string(Format::cusparse) || format == to_string(Format::automatic)) continue;
    for (const auto& cache : bench.x_caches) {
      Candidate candidate;
      candidate.format = format;
      candidate.options.x_cache = parse_x_cache(cache);
      candidate.label = format + "/" + cache;
      list.push_back(candidate);
    }
  }
  // auto last, so that it is compared with every exhaustive row. The cache is off: the bench
  // measures a fresh tuning every time.
  for (const auto& format : formats)
    if (format == to_string(Format::automatic)) {
      Candidate candidate;
      candidate.format = format;
      candidate.options.tune_cache = "off";
      candidate.label = format;
      list.push_back(candidate);
    }
  return list;
}

// "auto chose X: t ms; best exhaustive Y: u ms; auto / best = r": the 5% check.
void print_auto_check(const std::vector<BenchRow>& rows, std::size_t first_row) {
  const BenchRow* automatic = nullptr;
  const BenchRow* best = nullptr;
  for (std::size_t i = first_row; i < rows.size(); ++i) {
    const BenchRow& row = rows[i];
    if (row.status != "ok") continue;
    if (row.backend.find("(auto)") != std::string::npos)
      automatic = &row;
    else if (best == nullptr || row.median_ms < best->median_ms)
      best = &row;
  }
  if (automatic == nullptr || best == nullptr) return;
  const double ratio = automatic->median_ms / best->median_ms;
  char line[256];
  std::snprintf(line, sizeof line,
                "auto check    auto %.1f us vs best exhaustive %s %.1f us: %.3fx (%s 5%%)\n",
                1e3 * automatic->median_ms, best->backend.c_str(), 1e3 * best->median_ms, ratio,
                ratio <= 1.05 ? "within" : "NOT within");
  std::cout << line;
}

std::string join_details(const std::vector<std::pair<std::string, std::string>>& details) {
  std::string text;
  for (const auto& [name, value] : details) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

// Bytes of the CSR-minimal model (the one the targets use): each nonzero's value and column
// once, the row pointers, x and y once.
double useful_bytes(const CsrMatrix<double>& a, std::size_t value_size) {
  return static_cast<double>(a.nnz()) * static_cast<double>(value_size + sizeof(index_t)) +
         static_cast<double>(a.rows + 1) * sizeof(index_t) +
         static_cast<double>(a.cols + a.rows) * static_cast<double>(value_size);
}

template <class T>
void bench_precision(const BenchCommandOptions& bench, const std::string& label,
                     const CsrMatrix<double>& a, double copy_gbs, cudaStream_t stream,
                     std::vector<BenchRow>& rows, int& wrong) {
  const std::string precision = sizeof(T) == 8 ? "double" : "single";
  const CsrMatrix<T> matrix = convert_values<T>(a);
  DeviceBuffer<T> x(static_cast<std::size_t>(a.cols), "bench x");
  DeviceBuffer<T> y(static_cast<std::size_t>(a.rows), "bench y");
  std::vector<double> x_host(static_cast<std::size_t>(a.cols)),
      y_reference(static_cast<std::size_t>(a.rows));
  std::mt19937_64 engine(std::random_device{}());
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const double tolerance = sizeof(T) == 8 ? 1e-12 : 1e-5;
  double cusparse_ms = 0.0;
  const std::size_t first_row = rows.size();

  for (const Candidate& candidate : candidates(bench)) {
    BenchRow row;
    row.matrix = label;
    row.precision = precision;
    row.backend = candidate.label;
    row.rows = a.rows;
    row.nnz = a.nnz();
    try {
      SpmvOptions options = candidate.options;
      options.format = parse_format(candidate.format);
      TuningReport tuning;
      const auto backend = make_spmv_backend(matrix, options, stream, &tuning);
      row.backend = backend->name();
      row.device_bytes = backend->device_bytes();
      row.bytes_per_spmv = backend->bytes_per_spmv();
      row.details = join_details(backend->details());
      if (tuning.used) row.details += " auto_tuning_ms=" + std::to_string(tuning.tuning_ms);
      // Check first: fresh random x, poisoned y, fp64 reference.
      for (auto& value : x_host) value = uniform(engine);
      reference_spmv(a, x_host.data(), y_reference.data());
      x.copy_from_host(std::vector<T>(x_host.begin(), x_host.end()));
      SPK_CUDA_CHECK(cudaMemsetAsync(y.data(), 0xFF, y.bytes(), stream));
      backend->apply(x.data(), y.data());
      SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
      const std::vector<T> y_device = y.to_host();
      double diff = 0.0, norm = 0.0;
      for (std::size_t i = 0; i < y_reference.size(); ++i) {
        const double d = static_cast<double>(y_device[i]) - y_reference[i];
        diff += d * d;
        norm += y_reference[i] * y_reference[i];
      }
      row.relative_error = norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
      if (!(row.relative_error <= tolerance)) {
        row.status = "WRONG: relative error " + std::to_string(row.relative_error);
        ++wrong;
      } else {
        const TimingSummary timing = time_on_stream(stream, bench.warmup, bench.runs,
                                                    [&] { backend->apply(x.data(), y.data()); });
        row.status = "ok";
        row.median_ms = timing.median_ms;
        row.min_ms = timing.min_ms;
        row.runs = timing.runs;
        const double seconds = timing.median_ms * 1e-3;
        row.gflops = 2.0 * static_cast<double>(a.nnz()) / seconds / 1e9;
        row.model_gbs = static_cast<double>(row.bytes_per_spmv) / seconds / 1e9;
        row.useful_gbs = useful_bytes(a, sizeof(T)) / seconds / 1e9;
        row.percent_of_copy = 100.0 * row.useful_gbs / copy_gbs;
        if (options.format == Format::cusparse) cusparse_ms = timing.median_ms;
        row.speedup_vs_cusparse = cusparse_ms > 0.0 ? cusparse_ms / timing.median_ms : 0.0;
      }
    } catch (const OutOfDeviceMemory& error) {
      row.status = std::string("out of memory: ") + error.what();
    } catch (const BadInput& error) {
      row.status = std::string("refused: ") + error.what();
    }
    print_bench_row(std::cout, row);
    rows.push_back(row);
  }
  print_auto_check(rows, first_row);
}

}  // namespace

DeviceInfo bench_device() {
  try {
    return current_device_info();
  } catch (const NoDevice& error) {
    throw NoDevice(std::string(error.what()) +
                   "; bench times GPU kernels and runs only on an NVIDIA GPU");
  }
}

int run_bench_command(const BenchCommandOptions& bench) {
  for (const std::string& file : bench.matrix_files) require_input_file(file);  // before the GPU
  const DeviceInfo device = bench_device();
  DeviceContext context;
  const std::size_t copy_bytes = std::max<std::size_t>(device.l2_cache_bytes * 16, 256u << 20);
  const double copy_gbs = measure_copy_bandwidth_gbs(context.stream(), copy_bytes);
  const std::string device_text = device.name + " (sm_" + std::to_string(device.compute_major) +
                                  std::to_string(device.compute_minor) + ", " +
                                  std::to_string(device.l2_cache_bytes >> 20) + " MB L2)";
  std::cout << "device        " << device_text << "\n";
  std::cout << "copy          " << copy_gbs << " GB/s (device-to-device, read + write, "
            << (copy_bytes >> 20) << " MB buffers, median of 20)\n";
  std::cout << "timing        CUDA events, " << bench.warmup << " warm-up runs, median of "
            << bench.runs << "\n";
  std::cout << "GB/s mdl      the backend's own byte model (padding included)\n";
  std::cout << "GB/s csr      CSR-minimal bytes (values+columns+row pointers+x+y), for %copy\n";

  std::vector<BenchRow> rows;
  int wrong = 0;
  for (const BenchMatrix& entry : bench_suite(bench.suite, bench.matrix_files)) {
    if (entry.label.find(bench.only) == std::string::npos) continue;
    const Problem problem = load_matrix(entry.spec);
    const CsrMatrix<double>& a = problem.matrix;
    std::cout << "\n== " << entry.label << ": " << a.rows << " x " << a.cols << ", " << a.nnz()
              << " nonzeros, CSR " << useful_bytes(a, sizeof(double)) / 1e6 << " MB (fp64)\n";
    print_bench_header(std::cout);
    for (const auto& precision : bench.precisions) {
      if (precision == "double")
        bench_precision<double>(bench, entry.label, a, copy_gbs, context.stream(), rows, wrong);
      else if (precision == "single")
        bench_precision<float>(bench, entry.label, a, copy_gbs, context.stream(), rows, wrong);
      else
        throw BadInput("bench: unknown precision '" + precision + "' (valid: double, single)");
    }
  }
  if (!bench.csv_path.empty()) write_bench_csv(bench.csv_path, rows, copy_gbs, device_text);
  if (!bench.json_path.empty()) write_bench_json(bench.json_path, rows, copy_gbs, device_text);
  if (wrong > 0) {
    std::cerr << "error: " << wrong << " backend results did not match the CPU reference\n";
    return 1;
  }
  return 0;
}

}  // namespace spk::app
