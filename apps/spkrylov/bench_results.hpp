#pragma once
// One measured (matrix, precision, backend) row of `spkrylov bench`, and its outputs:
// a fixed-width table on stdout, CSV and JSON files.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace spk::app {

struct BenchRow {
  std::string matrix;
  std::string precision;
  std::string backend;  // e.g. "ellpack-r/texture"
  std::int64_t rows = 0;
  std::int64_t nnz = 0;
  std::string status;  // "ok", "refused: ...", "WRONG: ...", "error: ..."
  double relative_error = 0.0;
  double median_ms = 0.0;
  double min_ms = 0.0;
  int runs = 0;
  double gflops = 0.0;
  double model_gbs = 0.0;        // bytes_per_spmv (the backend's own model) / time
  double useful_gbs = 0.0;       // CSR-minimal bytes / time: comparable across formats
  double percent_of_copy = 0.0;  // useful_gbs / measured copy bandwidth
  double speedup_vs_cusparse = 0.0;
  std::size_t device_bytes = 0;
  std::size_t bytes_per_spmv = 0;
  std::string details;
};

void print_bench_header(std::ostream& out);
void print_bench_row(std::ostream& out, const BenchRow& row);
void write_bench_csv(const std::string& path, const std::vector<BenchRow>& rows, double copy_gbs,
                     const std::string& device);
void write_bench_json(const std::string& path, const std::vector<BenchRow>& rows, double copy_gbs,
                      const std::string& device);

}  // namespace spk::app
