#pragma once
// Input files named in the config (matrix.file, rhs.file) must exist when the config is
// read, and output files (output.*) must be writable where they are named. A relative path written
// in a config file is looked up first in the directory of that config file, then in the current
// directory; the first that exists wins. A relative path given with --set, or in a config that is
// not a file, is looked up in the current directory only. The returned path is the one that exists
// (config directory joined and lexically normalized, e.g. "configs/../data/a.mtx" -> "data/a.mtx").
#include <string>

#include "frontend/config/yaml_reader.hpp"

namespace spk {

// The directory relative paths of the config `source_name` are resolved against: its parent
// directory, or "" (the current directory) for a bare file name or a non-file source.
std::string config_directory_of(const std::string& source_name);

// Reads `value` as a path and returns the existing file it names; fails with
// "FILE:LINE: KEY: file 'PATH' does not exist" (saying where it looked) otherwise.
std::string resolve_input_file(const ConfigValue& value, const std::string& config_directory);

// Reads `value` as an output path (empty or null: no output) and fails, when the config is
// read rather than after the solve, if it could not be written: its folder does not exist or
// is not a folder, or the path itself is a folder. Relative paths are relative to the current
// directory, where the outputs are written.
std::string checked_output_file(const ConfigValue& value);

}  // namespace spk
