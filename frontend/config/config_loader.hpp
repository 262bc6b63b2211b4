#pragma once
// Parses and validates the YAML config into a RunConfig. Errors are spk::BadInput with one
// line: "FILE:LINE: KEY: what is wrong (valid keys: ...)".
#include <string>
#include <vector>

#include "frontend/config/config_overrides.hpp"
#include "frontend/config/run_config.hpp"

namespace spk {

// The built-in default problem (a 3-D Poisson system; same as configs/quickstart.yaml).
RunConfig default_run_config();
// The built-in default with `overrides` applied, each checked like a key of a file: how a
// program that holds its settings as values (the Python module) configures a solve.
RunConfig default_run_config_with(const std::vector<ConfigOverride>& overrides);

// `overrides` are --set strings "key.path=value", applied on top of the file, each checked
// like a file key.
RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides = {});
RunConfig parse_run_config(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& overrides = {});

// The resolved config as YAML (`spkrylov solve --print-config`, and the JSON report).
std::string to_yaml(const RunConfig& config);

}  // namespace spk
