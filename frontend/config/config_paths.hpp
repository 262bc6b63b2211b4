#pragma once
// Input files named in the config (matrix.file, rhs.file) must exist when the config is
// read. A relative path written in a config file is looked up first in the directory of
// that config file, then in the current directory; the first that exists wins. A relative
// path given with --set, or in a config that is not a file, is looked up in the current
// directory only. The returned path is the one that exists (config directory joined and
// lexically normalized, e.g. "configs/../data/a.mtx" -> "data/a.mtx").
#include <string>

#include "frontend/config/yaml_reader.hpp"

namespace spk {

// The directory relative paths of the config `source_name` are resolved against: its parent
// directory, or "" (the current directory) for a bare file name or a non-file source.
std::string config_directory_of(const std::string& source_name);

// Reads `value` as a path and returns the existing file it names; fails with
// "FILE:LINE: KEY: file 'PATH' does not exist" (saying where it looked) otherwise.
std::string resolve_input_file(const ConfigValue& value, const std::string& config_directory);

}  // namespace spk
