#pragma once
// Command-line overrides of the config: `--set KEY.PATH=VALUE`, applied to the YAML tree of
// the config file before the schema reads it, so an override is checked exactly like a key
// written in the file and its errors say "--set KEY.PATH=VALUE: KEY.PATH: ...".
//
//   solver.tolerance=1e-10       VALUE is parsed as YAML: a scalar, or a flow map or list
//   matrix.generate.n=32         missing maps on the way are created
//   compare[1].format=hyb        list entries by 0-based index (compare.1.format works too);
//                                index == number of entries appends one
//   rhs=random                   replaces the whole rhs
//   output.plot=                 an empty VALUE is YAML null (for output paths: not written)
//
// Alternatives exclude each other: setting matrix.file removes matrix.generate and vice
// versa; setting rhs.file removes rhs.kind and rhs.from_solution; setting rhs.from_solution
// removes rhs.kind and rhs.file. A scalar rhs (`rhs: ones`) becomes {kind: ones} when a
// key below it is set.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "frontend/config/yaml_reader.hpp"

namespace spk {

// One override, split: the steps of its key path, its value as a YAML node, and the text that
// errors name it by ("--set TEXT: KEY.PATH: what"). A --set string is parsed into one; a
// program that holds its settings as values (the Python module's keywords) builds the value
// node itself, so nothing it passes is read as YAML text.
struct ConfigOverride {
  std::string text;                     // "solver.tolerance=1e-10"
  std::vector<std::string> path_steps;  // {"solver", "tolerance"}
  YAML::Node value;
  std::string spelled;  // the caller's name for the key ("rtol"); empty: errors say --set TEXT
};

// "KEY.PATH=VALUE": the key path split, VALUE parsed as YAML (one document, no aliases).
ConfigOverride parse_override(const std::string& text);
std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& texts);
// KEY.PATH with a value node the caller built; `text` names it in --set-style errors, or,
// when given, `spelled` does: "maxiter: must be >= 1, got '-5'" (ConfigOrigins::where).
ConfigOverride make_override(const std::string& key_path, YAML::Node value, const std::string& text,
                             const std::string& spelled = "");

// `root` must be a map. Records every node an override writes in `origins`.
void apply_overrides(YAML::Node& root, const std::vector<ConfigOverride>& overrides,
                     ConfigOrigins& origins);

}  // namespace spk
