#include "frontend/config/config_overrides.hpp"

#include <cctype>
#include <charconv>
#include <limits>

#include "core/printable_text.hpp"
#include "spkrylov/errors.hpp"

namespace spk {
namespace {

[[noreturn]] void fail_override(const std::string& text, const std::string& what) {
  throw BadInput(printable_text(override_location(text) + ": " + what));
}

bool is_index(const std::string& step) {
  if (step.empty()) return false;
  for (char c : step)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

// "compare[1].format" and "compare.1.format" -> {"compare", "1", "format"}.
std::vector<std::string> split_key_path(const std::string& text, const std::string& key_path) {
  std::vector<std::string> steps;
  std::string step;
  const auto malformed = [&]() {
    fail_override(text, "malformed key path " + quoted_input(key_path) +
                            " (expected names joined by dots, e.g. solver.tolerance or "
                            "compare[0].format)");
  };
  for (std::size_t i = 0; i < key_path.size(); ++i) {
    const char c = key_path[i];
    if (c == '.') {
      if (step.empty()) malformed();
      steps.push_back(step);
      step.clear();
    } else if (c == '[') {
      if (step.empty()) malformed();
      steps.push_back(step);
      step.clear();
      const auto close = key_path.find(']', i);
      if (close == std::string::npos) malformed();
      const std::string index = key_path.substr(i + 1, close - i - 1);
      if (!is_index(index)) malformed();
      steps.push_back(index);
      i = close;
      if (i + 1 < key_path.size()) {
        if (key_path[i + 1] != '.' && key_path[i + 1] != '[') malformed();
        if (key_path[i + 1] == '.') ++i;
        if (i + 1 == key_path.size()) malformed();
      }
    } else {
      step += c;
    }
  }
  if (!step.empty()) steps.push_back(step);
  if (steps.empty() || (!key_path.empty() && key_path.back() == '.')) malformed();
  return steps;
}

}  // namespace

ConfigOverride parse_override(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos)
    fail_override(text, "expected KEY.PATH=VALUE (e.g. solver.tolerance=1e-10)");
  ConfigOverride result;
  result.text = text;
  result.path_steps = split_key_path(text, trim(text.substr(0, equals)));
  const std::vector<YAML::Node> documents = load_yaml_documents(
      text.substr(equals + 1), override_location(text), YamlSource::override_value);
  if (documents.size() > 1) fail_override(text, "expected one YAML value, got several documents");
  result.value = documents.empty() ? YAML::Node(YAML::NodeType::Null) : documents.front();
  return result;
}

ConfigOverride make_override(const std::string& key_path, YAML::Node value, const std::string& text,
                             const std::string& spelled) {
  ConfigOverride result;
  result.text = text;
  result.path_steps = split_key_path(text, key_path);
  result.value = std::move(value);
  result.spelled = spelled;
  return result;
}

namespace {

// Marks `node` and everything below it as written by `origin`.
void record_override_tree(const YAML::Node& node, const OverrideOrigin& origin,
                          ConfigOrigins& origins) {
  origins.add_override_node(node, origin);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      record_override_tree(it->second, origin, origins);
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) record_override_tree(node[i], origin, origins);
  }
}

void remove_key(YAML::Node& map, const std::string& key) {
  const YAML::Node& read_only = map;
  while (read_only[key].IsDefined()) map.remove(key);
}

// Keys that name alternatives: setting one removes the others (see the header).
void remove_alternatives(YAML::Node& map, const std::string& map_path, const std::string& key) {
  if (map_path == "matrix") {
    if (key == "file") remove_key(map, "generate");
    if (key == "generate") remove_key(map, "file");
  } else if (map_path == "rhs") {
    if (key == "file") {
      remove_key(map, "kind");
      remove_key(map, "from_solution");
    }
    if (key == "from_solution") {
      remove_key(map, "kind");
      remove_key(map, "file");
    }
  }
}

std::string step_key_path(const std::string& parent, const std::string& step, bool in_list) {
  return in_list ? parent + "[" + step + "]" : child_key_path(parent, step);
}

// The container a path step leads into, creating (or replacing a scalar by) a map, or a list
// when the next step is an index.
YAML::Node make_container(const YAML::Node& existing, const std::string& key_path,
                          bool next_is_index) {
  YAML::Node container(next_is_index ? YAML::NodeType::Sequence : YAML::NodeType::Map);
  // `rhs: ones` is shorthand for {kind: ones}; keep it when a key below rhs is set.
  if (key_path == "rhs" && existing.IsDefined() && existing.IsScalar() && !next_is_index)
    container["kind"] = existing;
  return container;
}

void apply_override(YAML::Node& root, const ConfigOverride& override_spec, ConfigOrigins& origins) {
  const std::string& text = override_spec.text;
  std::string key_path;
  for (const std::string& step : override_spec.path_steps)
    key_path = child_key_path(key_path, step);
  const OverrideOrigin origin{text, key_path, override_spec.spelled};
  YAML::Node current;
  current.reset(root);
  std::string path;
  const auto& steps = override_spec.path_steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string& step = steps[i];
    const bool last = i + 1 == steps.size();
    const bool next_is_index = !last && is_index(steps[i + 1]);
    YAML::Node child;
    if (current.IsSequence()) {
      if (!is_index(step))
        fail_override(text, input_excerpt(path) + " is a list: address an entry as " +
                                input_excerpt(path) + "[N]");
      const std::size_t size = current.size();
      // Digits only (is_index); past the size_t range reads as too large, not as an error.
      std::size_t index = std::numeric_limits<std::size_t>::max();
      (void)std::from_chars(step.data(), step.data() + step.size(), index);
      if (index > size)
        fail_override(text, input_excerpt(path) + " has " + std::to_string(size) +
                                " entries: index " + input_excerpt(step) + " must be 0.." +
                                std::to_string(size) + " (" + std::to_string(size) +
                                " appends an entry)");
      if (last) {
        if (index == size)
          current.push_back(override_spec.value);
        else
          current[index] = override_spec.value;
        record_override_tree(override_spec.value, origin, origins);
        return;
      }
      const YAML::Node existing = index < size ? current[index] : YAML::Node();
      if (index < size && (existing.IsMap() || existing.IsSequence())) {
        child.reset(existing);
      } else {
        child.reset(make_container(existing, "", next_is_index));
        if (index == size)
          current.push_back(child);
        else
          current[index] = child;
        record_override_tree(child, origin, origins);
      }
    } else {
      if (is_index(step) && !path.empty())
        fail_override(text, input_excerpt(path) + " is not a list: index [" + input_excerpt(step) +
                                "] does not apply");
      remove_alternatives(current, path, step);
      if (last) {
        remove_key(current, step);
        current[step] = override_spec.value;
        record_override_tree(override_spec.value, origin, origins);
        return;
      }
      const YAML::Node& read_only = current;
      const YAML::Node existing = read_only[step];
      const std::string step_path = step_key_path(path, step, false);
      if (existing.IsDefined() && (existing.IsMap() || existing.IsSequence())) {
        child.reset(existing);
      } else {
        child.reset(make_container(existing, step_path, next_is_index));
        remove_key(current, step);
        current[step] = child;
        origins.add_override_node(child, origin);
      }
    }
    path = step_key_path(path, step, current.IsSequence());
    current.reset(child);
  }
}

}  // namespace

void apply_overrides(YAML::Node& root, const std::vector<ConfigOverride>& overrides,
                     ConfigOrigins& origins) {
  for (const ConfigOverride& override_spec : overrides)
    apply_override(root, override_spec, origins);
}

std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& texts) {
  std::vector<ConfigOverride> overrides;
  for (const std::string& text : texts) overrides.push_back(parse_override(text));
  return overrides;
}

}  // namespace spk
