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

#include "apps/config/yaml_reader.hpp"

namespace spk {

// `root` must be a map. Records every node an override writes in `origins`.
void apply_overrides(YAML::Node& root, const std::vector<std::string>& overrides,
                     ConfigOrigins& origins);

}  // namespace spk
