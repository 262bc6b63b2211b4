#pragma once
// Checked, typed reading of the YAML config tree. Every error is one spk::BadInput line
//
//   WHERE: KEY.PATH: what is wrong
//
// where WHERE is "FILE:LINE" for a node of the config file (1-based line) and
// "--set KEY.PATH=VALUE" for a node that a command-line override wrote.
//
//   ConfigOrigins  knows the config's name and which nodes came from which --set
//   ConfigValue    one node plus its key path: as_int(), as_double(), as_enum(), ...
//   ConfigMap      a map node whose keys were checked against a list (unknown and
//                  duplicate keys are errors)
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spk {

// "--set KEY=VALUE", the place errors name for a value an override wrote; a long override
// is cut (core/printable_text.hpp), its key and value are quoted again in the message.
std::string override_location(const std::string& override_text);

// Who wrote a node that is not from the config file: a --set string, or a setting a program
// handed over as a value, named as its caller spells it (the Python keyword "maxiter" for
// solver.max_iterations), so that errors speak the caller's language.
struct OverrideOrigin {
  std::string text;      // "solver.max_iterations=-5"
  std::string key_path;  // "solver.max_iterations"
  std::string spelled;   // "maxiter"; empty for a --set string
};

class ConfigOrigins {
 public:
  explicit ConfigOrigins(std::string source_name);

  const std::string& source_name() const { return source_name_; }
  // Records that `node` was written by the override `origin`.
  void add_override_node(const YAML::Node& node, const OverrideOrigin& origin);
  // The override that wrote `node`, or nullptr when the node is from the config file.
  const OverrideOrigin* override_of(const YAML::Node& node) const;
  // Where an error about `node` (at `key_path`) is: "maxiter" or
  // "preconditioner_options.smoothr" for a setting spelled by its caller (the rest of the
  // message then needs no key path: spelled() says so), "--set KEY.PATH=VALUE" for a --set
  // string, else "FILE:LINE" with the line of `key` (the map key naming the node: its line is
  // where the user wrote the entry) or of the node itself when there is no key, else "FILE".
  std::string where(const YAML::Node& node, const std::string& key_path,
                    const YAML::Node* key = nullptr) const;
  bool spelled(const YAML::Node& node) const;

 private:
  std::string source_name_;
  std::vector<std::pair<YAML::Node, OverrideOrigin>> override_nodes_;
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string child_key_path(const std::string& parent, const std::string& key);

class ConfigValue {
 public:
  ConfigValue(const ConfigOrigins& origins, YAML::Node node, std::string key_path);
  // A map entry: `key` is the key node, used for the line number in messages.
  ConfigValue(const ConfigOrigins& origins, YAML::Node key, YAML::Node node, std::string key_path);

  const YAML::Node& node() const { return node_; }
  const std::string& key_path() const { return key_path_; }
  const ConfigOrigins& origins() const { return *origins_; }
  bool from_override() const { return origins_->override_of(node_) != nullptr; }
  bool is_scalar() const { return node_.IsScalar(); }
  bool is_map() const { return node_.IsMap(); }

  // Throws BadInput "WHERE: KEY.PATH: what".
  [[noreturn]] void fail(const std::string& what) const;
  // The characters fail() puts before `what` (where, and the key path): what is left of a
  // message's length for `what`.
  std::size_t failure_prefix_size() const;

  int as_int() const;                      // a decimal integer that fits 32 bits
  std::uint64_t as_uint64() const;         // a non-negative decimal integer
  double as_double() const;                // a finite number
  bool as_bool() const;                    // true/false (also yes/no, on/off)
  std::string as_string() const;           // a non-empty scalar
  std::string as_optional_string() const;  // a scalar; empty or null gives ""
  // One of `valid` (for the error message, the list is printed in order).
  std::string as_choice(const std::vector<std::string>& valid) const;
  template <class Enum>
  Enum as_enum(const std::vector<std::pair<std::string, Enum>>& names) const;

  // The elements of a sequence node, with key paths "KEY[0]", "KEY[1]", ...
  std::vector<ConfigValue> as_list() const;

  // "'1.5'" for a scalar, "a map", "a list", "nothing" for the error messages.
  std::string describe() const;

 private:
  std::string scalar_text(const char* expected) const;
  std::string failure_prefix() const;

  const ConfigOrigins* origins_;
  YAML::Node node_;
  YAML::Node key_;
  bool has_key_ = false;
  std::string key_path_;
};

class ConfigMap {
 public:
  // Fails unless `value` is a map whose keys are all in `valid_keys`, each at most once.
  ConfigMap(const ConfigValue& value, const std::vector<std::string>& valid_keys);

  const ConfigValue& self() const { return value_; }
  bool has(const std::string& key) const;
  // The value of `key`; only valid when has(key).
  ConfigValue at(const std::string& key) const;
  // Calls read(ConfigValue) when the key is present.
  template <class Read>
  void if_present(const std::string& key, Read&& read) const {
    if (has(key)) read(at(key));
  }

 private:
  struct Entry {
    std::string name;
    YAML::Node key;
    YAML::Node value;
  };
  ConfigValue value_;
  std::vector<Entry> entries_;
};

// "a, b, c".
std::string join_names(const std::vector<std::string>& names);

// Where a YAML text comes from: a config file (errors name FILE:LINE; aliases are allowed,
// but not one inside the node it names) or a --set value (errors name the override; no
// aliases: a value on the command line has nothing to share).
enum class YamlSource { config_file, override_value };

// The deepest nesting of maps and lists accepted: a config needs a handful of levels, and every
// walk over the tree stays well inside the stack.
inline constexpr std::size_t max_yaml_depth = 64;

// Every YAML document of `text` (as YAML::LoadAll gives them), checked before any node is
// built. A syntax error throws BadInput "WHERE[:LINE]: YAML syntax error: ...", and so do
// nesting past max_yaml_depth and a cyclic alias (`&m {generate: *m}`, which makes the tree a
// graph that a walk would follow for ever). Some malformed input (e.g. "&a (1, 2}") makes
// yaml-cpp 0.7's LoadAll loop forever while it allocates all memory (fixed upstream in
// jbeder/yaml-cpp#1319): the same first pass refuses input on which a document starts where
// the previous one did.
std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& where,
                                            YamlSource source);

template <class Enum>
Enum ConfigValue::as_enum(const std::vector<std::pair<std::string, Enum>>& names) const {
  std::vector<std::string> valid;
  for (const auto& entry : names) valid.push_back(entry.first);
  const std::string chosen = as_choice(valid);
  for (const auto& entry : names)
    if (entry.first == chosen) return entry.second;
  fail("internal error: no value for '" + chosen + "'");
}

}  // namespace spk
