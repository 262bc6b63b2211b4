// The report's device memory (frontend/run_report.cpp) from a made-up GPU setup: the text line
// under `format`, the table of each process's memory under mpirun, and the JSON objects
// (frontend/report.schema.json: "device_memory", null on the CPU). No GPU needed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "frontend/run_report.hpp"

namespace spk::app {
namespace {

DeviceMemoryUse made_up_memory() {
  DeviceMemoryUse memory;
  memory.total_bytes = 85'000'000'000;
  memory.free_bytes = 84'000'000'000;
  memory.free_after_bytes = 80'000'000'000;
  memory.peak_bytes = 5'000'000'000;
  memory.steady_bytes = 3'000'000'000;
  memory.largest_bytes = 1'000'000'000;
  memory.largest = "AMG A_0 values";
  memory.at_peak = {{"SpGEMM buffer 2", 2'500'000'000, 1}, {"T values", 500'000'000, 3}};
  memory.after = {{"matrix values", 1'200'000'000, 1}};
  return memory;
}

RunReport gpu_report() {
  RunReport report;
  report.problem_name = "poisson3d n=8 stencil=7";
  report.precision = "double";
  report.setup.device = Device::gpu;
  report.setup.device_name = "a GPU";
  report.setup.memory = made_up_memory();
  return report;
}

std::string text_of(const RunReport& report) {
  std::ostringstream out;
  print_text_report(out, report);
  return out.str();
}

TEST(MemoryReport, TheTextReportHasTheSetupsMemoryLine) {
  const std::string text = text_of(gpu_report());
  EXPECT_NE(text.find("             setup memory: peak 5.00 GB, steady 3.00 GB, of 84.00 GB free "
                      "(85.00 GB total; 80.00 GB free after; about 6.00 GB in use at the peak); "
                      "largest array AMG A_0 values "
                      "1.00 GB\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("             held at the peak: SpGEMM buffer 2 2.50 GB, T values 0.50 GB "
                      "(3)\n             held after setup: matrix values 1.20 GB\n"),
            std::string::npos)
      << text;
  RunReport cpu = gpu_report();
  cpu.setup.device = Device::cpu;
  cpu.setup.memory = DeviceMemoryUse{};
  EXPECT_EQ(text_of(cpu).find("setup memory"), std::string::npos);
}

TEST(MemoryReport, TheJsonReportHasTheMemoryOrNull) {
  const std::string json = json_report_text({gpu_report()});
  EXPECT_NE(json.find("\"device_memory\": {"), std::string::npos) << json;
  for (const char* field : {"\"total_bytes\": 85000000000", "\"free_bytes\": 84000000000",
                            "\"free_after_bytes\": 80000000000", "\"peak_bytes\": 5000000000",
                            "\"steady_bytes\": 3000000000",
                            "\"in_use_at_peak_bytes\": 6000000000",  // 1 GB before + 5 GB peak
                            "\"largest_bytes\": 1000000000", "\"largest\": \"AMG A_0 values\"",
                            "\"at_peak\": [{\"what\": \"SpGEMM buffer 2\", \"bytes\": 2500000000, "
                            "\"arrays\": 1}, {\"what\": \"T values\""})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  RunReport cpu;
  EXPECT_NE(json_report_text({cpu}).find("\"device_memory\": null"), std::string::npos);
}

TEST(MemoryReport, EachProcessesMemoryIsATableRowAndAJsonObject) {
  RunReport report = gpu_report();
  DistributedRun run;
  run.partition = "nnz";
  run.transport = "nccl";
  for (int rank = 0; rank < 2; ++rank) {
    ProcessInfo info;
    info.rank = rank;
    run.processes.push_back(info);
    run.times.emplace_back();
    ProcessSetup setup;
    DeviceMemoryUse memory = made_up_memory();
    memory.peak_bytes += static_cast<std::size_t>(rank) * 1'000'000'000;
    setup.set_memory(memory);
    run.setups.push_back(setup);
  }
  report.distributed = run;
  const std::string text = text_of(report);
  EXPECT_NE(text.find("device memory per process (GB; peak and steady: the library's arrays "
                      "during and after setup):"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("                0     85.00        84.00     5.00     3.00       80.00"
                      "           1.00\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("                1     85.00        84.00     6.00     3.00"),
            std::string::npos);
  const std::string json = json_report_text({report});
  // the run's object and one per process
  std::size_t objects = 0;
  for (std::size_t at = json.find("\"device_memory\": {"); at != std::string::npos;
       at = json.find("\"device_memory\": {", at + 1))
    ++objects;
  EXPECT_EQ(objects, 3u) << json;
  EXPECT_NE(json.find("\"peak_bytes\": 6000000000"), std::string::npos);
}

}  // namespace
}  // namespace spk::app
