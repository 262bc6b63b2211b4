// libFuzzer target: the YAML config loader (parse_run_config with --set overrides) on
// arbitrary bytes.
//
// Lines of the input that start with "#set " are also passed as --set overrides (the YAML
// parser sees them as comments), so the override syntax is fuzzed together with the file.
// For every input, parse_run_config either
//   * returns a RunConfig that survives a round trip: to_yaml() of it parses again, and
//     writing that gives the same text (no key is lost or changed by the writer); or
//   * throws spk::BadInput with a one-line message starting with the config's name or with
//     "--set" (fuzz_contract.hpp).
// Anything else aborts and libFuzzer keeps the input as a crash.
//
// The loader checks that files named by matrix.file and rhs.file exist (it only looks them
// up, never opens them), relative to the current directory here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/config/config_loader.hpp"
#include "fuzz/fuzz_contract.hpp"

namespace {

constexpr const char* input_name = "fuzz.yaml";

std::vector<std::string> override_lines(std::string_view text) {
  constexpr std::string_view marker = "#set ";
  std::vector<std::string> overrides;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.substr(0, marker.size()) == marker) overrides.emplace_back(line.substr(marker.size()));
    start = end + 1;
  }
  return overrides;
}

void check_round_trip(const spk::RunConfig& config) {
  const std::string written = spk::to_yaml(config);
  std::string rewritten;
  try {
    rewritten = spk::to_yaml(spk::parse_run_config(written, input_name));
  } catch (const std::exception& error) {
    spk::fuzz::report(std::string("the written config does not parse again: ") + error.what() +
                      "\n--- written:\n" + written);
  }
  if (rewritten != written)
    spk::fuzz::report("round trip changed the config:\n--- written:\n" + written +
                      "--- after reading it back:\n" + rewritten);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check_round_trip(spk::parse_run_config(text, input_name, override_lines(text)));
  } catch (const spk::BadInput& error) {
    spk::fuzz::check_error_message(error.what(), size, {input_name, "--set "});
  } catch (const std::exception& error) {
    spk::fuzz::report(std::string("unexpected exception: ") + error.what());
  }
  return 0;
}
