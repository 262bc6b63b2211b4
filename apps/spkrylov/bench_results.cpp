#include "bench_results.hpp"

#include <cstdio>
#include <fstream>

#include "core/printable_text.hpp"
#include "frontend/json_writer.hpp"
#include "spkrylov/errors.hpp"

namespace spk::app {

void print_bench_header(std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %-7s %9s %8s %9s %9s %7s %8s %9s  %s\n", "backend",
                "prec", "ms", "GFLOP/s", "GB/s mdl", "GB/s csr", "%copy", "vs cusp", "rel.err",
                "details");
  out << line;
}

void print_bench_row(std::ostream& out, const BenchRow& row) {
  // The fixed-width columns; status and details are appended whole (they can be long).
  char line[256];
  if (row.status != "ok") {
    std::snprintf(line, sizeof line, "%-22s %-7s ", row.backend.c_str(), row.precision.c_str());
    out << line << row.status << "\n";
  } else {
    std::snprintf(line, sizeof line, "%-22s %-7s %9.4f %8.1f %9.1f %9.1f %6.1f%% %7.2fx %9.1e  ",
                  row.backend.c_str(), row.precision.c_str(), row.median_ms, row.gflops,
                  row.model_gbs, row.useful_gbs, row.percent_of_copy, row.speedup_vs_cusparse,
                  row.relative_error);
    out << line << row.details << "\n";
  }
  out.flush();
}

void write_bench_csv(const std::string& path, const std::vector<BenchRow>& rows, double copy_gbs,
                     const std::string& device) {
  std::ofstream file(path);
  if (!file) throw BadInput(shown_name(path) + ": cannot open the CSV output for writing");
  file << "device,copy_gbs,matrix,rows,nnz,precision,backend,status,median_ms,min_ms,runs,"
          "gflops,model_gbs,useful_gbs,percent_of_copy,speedup_vs_cusparse,relative_error,"
          "device_bytes,bytes_per_spmv,details\n";
  for (const auto& row : rows) {
    char numbers[512];
    std::snprintf(numbers, sizeof numbers, "%.6f,%.6f,%d,%.3f,%.3f,%.3f,%.3f,%.4f,%.3e,%zu,%zu",
                  row.median_ms, row.min_ms, row.runs, row.gflops, row.model_gbs, row.useful_gbs,
                  row.percent_of_copy, row.speedup_vs_cusparse, row.relative_error,
                  row.device_bytes, row.bytes_per_spmv);
    file << '"' << device << "\"," << copy_gbs << ",\"" << row.matrix << "\"," << row.rows << ','
         << row.nnz << ',' << row.precision << ',' << row.backend << ",\"" << row.status << "\","
         << numbers << ",\"" << row.details << "\"\n";
  }
}

void write_bench_json(const std::string& path, const std::vector<BenchRow>& rows, double copy_gbs,
                      const std::string& device) {
  std::ofstream file(path);
  if (!file) throw BadInput(shown_name(path) + ": cannot open the JSON output for writing");
  JsonWriter json(file);
  json.begin_object();
  json.field("device", device);
  json.field("copy_gbs", copy_gbs);
  json.key("rows").begin_array();
  for (const auto& row : rows) {
    json.begin_object();
    json.field("matrix", row.matrix);
    json.field("rows", static_cast<long long>(row.rows));
    json.field("nnz", static_cast<long long>(row.nnz));
    json.field("precision", row.precision);
    json.field("backend", row.backend);
    json.field("status", row.status);
    json.field("median_ms", row.median_ms);
    json.field("min_ms", row.min_ms);
    json.field("runs", row.runs);
    json.field("gflops", row.gflops);
    json.field("model_gbs", row.model_gbs);
    json.field("useful_gbs", row.useful_gbs);
    json.field("percent_of_copy", row.percent_of_copy);
    json.field("speedup_vs_cusparse", row.speedup_vs_cusparse);
    json.field("relative_error", row.relative_error);
    json.field("device_bytes", row.device_bytes);
    json.field("bytes_per_spmv", row.bytes_per_spmv);
    json.field("details", row.details);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  file << "\n";
}

}  // namespace spk::app
