#include "frontend/config/yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <system_error>
#include <vector>

#include "core/printable_text.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

std::string override_location(const std::string& override_text) {
  constexpr std::size_t shown_override_limit = 40;
  return "--set " + input_excerpt(override_text, shown_override_limit);
}

ConfigOrigins::ConfigOrigins(std::string source_name) : source_name_(std::move(source_name)) {}

void ConfigOrigins::add_override_node(const YAML::Node& node, const OverrideOrigin& origin) {
  override_nodes_.emplace_back(node, origin);
}

const OverrideOrigin* ConfigOrigins::override_of(const YAML::Node& node) const {
  // The latest override wins: a later --set may replace a node an earlier one wrote.
  for (auto it = override_nodes_.rbegin(); it != override_nodes_.rend(); ++it)
    if (it->first.is(node)) return &it->second;
  return nullptr;
}

bool ConfigOrigins::spelled(const YAML::Node& node) const {
  const OverrideOrigin* origin = override_of(node);
  return origin != nullptr && !origin->spelled.empty();
}

std::string ConfigOrigins::where(const YAML::Node& node, const std::string& key_path,
                                 const YAML::Node* key) const {
  if (const OverrideOrigin* origin = override_of(node)) {
    if (origin->spelled.empty()) return override_location(origin->text);
    // The caller's name, then the steps below the setting's own key path (".smoothr").
    const std::string& own = origin->key_path;
    if (key_path.size() > own.size() && key_path.compare(0, own.size(), own) == 0)
      return input_excerpt(origin->spelled + key_path.substr(own.size()));
    return input_excerpt(origin->spelled);
  }
  YAML::Mark mark = node.Mark();
  if (key != nullptr && !key->Mark().is_null()) mark = key->Mark();
  if (mark.is_null() || mark.line < 0) return shown_name(source_name_);
  return shown_name(source_name_) + ":" + std::to_string(mark.line + 1);
}

std::string child_key_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += ", ";
    joined += name;
  }
  return joined;
}

namespace {

// join_names, cut after the last name that fits in `limit` characters ("a, b, ..."), so that
// a long key list keeps an error line within its 300 characters (RELIABILITY.md).
std::string join_names_within(const std::vector<std::string>& names, std::size_t limit) {
  std::string joined;
  for (const std::string& name : names) {
    const std::size_t added = (joined.empty() ? 0 : 2) + name.size();
    if (joined.size() + added > limit) return joined + ", ...";
    if (!joined.empty()) joined += ", ";
    joined += name;
  }
  return joined;
}

// The edit distance of a and b (insertions, deletions, substitutions and swaps of two
// neighbouring characters, each 1).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The valid key a typo of `name` most likely meant: the one closest to it, within 2 edits and
// fewer than half its length; "" when there is none or two are as close.
std::string close_key(const std::string& name, const std::vector<std::string>& valid) {
  constexpr std::size_t longest_compared = 64;  // a long key is no typo of a config key
  if (name.size() > longest_compared) return "";
  std::string best;
  std::size_t best_distance = std::min<std::size_t>(3, (name.size() + 1) / 2);
  bool tie = false;
  for (const std::string& key : valid) {
    const std::size_t distance = edit_distance(name, key);
    if (distance < best_distance) {
      best = key;
      best_distance = distance;
      tie = false;
    } else if (distance == best_distance && !best.empty()) {
      tie = true;
    }
  }
  return tie ? "" : best;
}

// The valid keys in an "unknown key" line and in an "expected a map" line (which also quotes
// the value it got): the budget left by the file name, the key path and the quoted input.
constexpr std::size_t unknown_key_list_limit = 170;
// The longest error message: with the CLI's "error: " a line of 300 characters (RELIABILITY.md).
constexpr std::size_t longest_error_message = 300 - sizeof("error: ") + 1;
constexpr std::size_t expected_map_list_limit = 100;

}  // namespace

ConfigValue::ConfigValue(const ConfigOrigins& origins, YAML::Node node, std::string key_path)
    : origins_(&origins), node_(std::move(node)), key_path_(std::move(key_path)) {}

ConfigValue::ConfigValue(const ConfigOrigins& origins, YAML::Node key, YAML::Node node,
                         std::string key_path)
    : origins_(&origins),
      node_(std::move(node)),
      key_(std::move(key)),
      has_key_(true),
      key_path_(std::move(key_path)) {}

void ConfigValue::fail(const std::string& what) const {
  throw BadInput(printable_text(failure_prefix() + what));
}

// Values are quoted through quoted_input (capped, escaped); the key path is input too. A
// setting spelled by its caller is named by `where` alone.
std::string ConfigValue::failure_prefix() const {
  const std::string where = origins_->where(node_, key_path_, has_key_ ? &key_ : nullptr);
  return key_path_.empty() || origins_->spelled(node_)
             ? where + ": "
             : where + ": " + input_excerpt(key_path_) + ": ";
}

std::size_t ConfigValue::failure_prefix_size() const {
  return printable_text(failure_prefix()).size();
}

std::string ConfigValue::describe() const {
  if (!node_.IsDefined() || node_.IsNull()) return "nothing";
  if (node_.IsMap()) return "a map";
  if (node_.IsSequence()) return "a list";
  return quoted_input(node_.Scalar());
}

std::string ConfigValue::scalar_text(const char* expected) const {
  if (!node_.IsScalar()) fail(std::string("expected ") + expected + ", got " + describe());
  return node_.Scalar();
}

namespace {

// Parses all of `text` as a decimal integer; a leading '+' is allowed.
template <class Integer>
bool parse_whole_integer(const std::string& text, Integer& value, std::errc& error) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end || *begin == '+' || *begin == ' ') return false;
  const auto result = std::from_chars(begin, end, value);
  error = result.ec;
  return result.ptr == end;
}

}  // namespace

int ConfigValue::as_int() const {
  const std::string text = scalar_text("an integer");
  int value = 0;
  std::errc error{};
  if (!parse_whole_integer(text, value, error))
    fail("expected an integer, got " + quoted_input(text));
  if (error == std::errc::result_out_of_range)
    fail("integer " + quoted_input(text) + " is out of range (at most " +
         std::to_string(std::numeric_limits<int>::max()) + ")");
  return value;
}

std::uint64_t ConfigValue::as_uint64() const {
  const std::string text = scalar_text("a non-negative integer");
  std::uint64_t value = 0;
  std::errc error{};
  if (!text.empty() && text[0] == '-')
    fail("expected a non-negative integer, got " + quoted_input(text));
  if (!parse_whole_integer(text, value, error))
    fail("expected a non-negative integer, got " + quoted_input(text));
  if (error == std::errc::result_out_of_range)
    fail("integer " + quoted_input(text) + " is out of range (at most 18446744073709551615)");
  return value;
}

double ConfigValue::as_double() const {
  const std::string text = scalar_text("a number");
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  // YAML's .nan, .inf, -.Inf: numbers, but not finite ones.
  std::string special(begin != end && *begin == '-' ? begin + 1 : begin, end);
  if (!special.empty() && special[0] == '.') special.erase(0, 1);
  for (char& c : special) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (special == "nan" || special == "inf" || special == "infinity")
    fail("expected a finite number, got " + quoted_input(text));
  double value = 0.0;
  const auto result = std::from_chars(begin, end, value);
  if (begin == end || result.ptr != end || result.ec == std::errc::invalid_argument)
    fail("expected a number, got " + quoted_input(text));
  if (result.ec == std::errc::result_out_of_range || !std::isfinite(value))
    fail("expected a finite number, got " + quoted_input(text));
  return value;
}

bool ConfigValue::as_bool() const {
  const std::string text = scalar_text("true or false");
  bool value = false;
  if (!YAML::convert<bool>::decode(node_, value))
    fail("expected true or false, got " + quoted_input(text));
  return value;
}

std::string ConfigValue::as_string() const {
  const std::string text = scalar_text("a string");
  if (text.empty()) fail("expected a non-empty string, got ''");
  return text;
}

std::string ConfigValue::as_optional_string() const {
  if (!node_.IsDefined() || node_.IsNull()) return "";
  return scalar_text("a string");
}

std::string ConfigValue::as_choice(const std::vector<std::string>& valid) const {
  const std::string text = scalar_text(("one of " + join_names(valid)).c_str());
  for (const std::string& name : valid)
    if (name == text) return text;
  fail("unknown value " + quoted_input(text) + " (valid: " + join_names(valid) + ")");
}

std::vector<ConfigValue> ConfigValue::as_list() const {
  if (!node_.IsSequence()) fail("expected a list, got " + describe());
  std::vector<ConfigValue> elements;
  for (std::size_t i = 0; i < node_.size(); ++i)
    elements.emplace_back(*origins_, node_[i], key_path_ + "[" + std::to_string(i) + "]");
  return elements;
}

namespace {

// A first pass over the parser's events, before any node is built: where each document
// starts, how deep the containers nest, and which aliases point where. It refuses what would
// make a later walk over the tree run away: nesting past max_yaml_depth, an alias inside the
// node it names (a cycle), and, where the source refuses them, any alias at all.
class StructureCheck final : public YAML::EventHandler {
 public:
  StructureCheck(const std::string& where, YamlSource source) : where_(where), source_(source) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    starts.push_back(mark);
    open_anchors_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (source_ == YamlSource::override_value)
      fail(mark, "YAML aliases (*name) are not accepted in a --set value; write the value out");
    for (YAML::anchor_t open : open_anchors_)
      if (open == anchor)
        fail(mark, "YAML alias refers to a node that contains it (a cycle); write the value out");
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { open_anchors_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { open_anchors_.pop_back(); }

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& what) const {
    throw BadInput(printable_text(located(mark) + ": " + what));
  }

  std::vector<YAML::Mark> starts;

 private:
  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (open_anchors_.size() == max_yaml_depth)
      fail(mark, "YAML nesting deeper than " + std::to_string(max_yaml_depth) +
                     " levels (a config needs a handful)");
    open_anchors_.push_back(anchor);
  }
  std::string located(const YAML::Mark& mark) const {
    if (source_ == YamlSource::override_value) return where_;
    if (mark.is_null() || mark.line < 0) return shown_name(where_);
    return shown_name(where_) + ":" + std::to_string(mark.line + 1);
  }

  const std::string& where_;
  YamlSource source_;
  std::vector<YAML::anchor_t> open_anchors_;  // one per open container, 0 when it has none
};

}  // namespace

std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& where,
                                            YamlSource source) {
  StructureCheck check(where, source);
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    while (parser.HandleNextDocument(check)) {
      const std::vector<YAML::Mark>& starts = check.starts;
      if (starts.size() < 2 || starts.back().pos != starts[starts.size() - 2].pos) continue;
      const YAML::Mark& stuck = starts.back();
      const auto at = static_cast<std::size_t>(stuck.pos);
      const std::string found = at < text.size() ? quoted_input(text.substr(at, 1)) : "the end";
      check.fail(stuck, "YAML syntax error: unexpected " + found + " at column " +
                            std::to_string(stuck.column + 1));
    }
    return YAML::LoadAll(text);
  } catch (const YAML::ParserException& error) {
    check.fail(error.mark, "YAML syntax error: " + input_excerpt(error.msg, shown_name_limit));
  }
}

ConfigMap::ConfigMap(const ConfigValue& value, const std::vector<std::string>& valid_keys)
    : value_(value) {
  const YAML::Node& node = value.node();
  if (!node.IsMap())
    value.fail("expected a map with keys " +
               join_names_within(valid_keys, expected_map_list_limit) + ", got " +
               value.describe());
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) {
      const ConfigValue key_value(value.origins(), it->first, value.key_path());
      key_value.fail("a key must be a plain name, got " + key_value.describe());
    }
    const std::string name = it->first.Scalar();
    const ConfigValue entry(value.origins(), it->first, it->second,
                            child_key_path(value.key_path(), name));
    bool known = false;
    for (const std::string& valid : valid_keys) known = known || valid == name;
    if (!known) {
      const std::string suggestion = close_key(name, valid_keys);
      const std::string head = "unknown key" +
                               (suggestion.empty() ? "" : ", did you mean '" + suggestion + "'?") +
                               " (valid keys: ";
      // the list gets what the line has left: the file's name and the key path vary
      const std::size_t used = entry.failure_prefix_size() + head.size() + sizeof(", ...)");
      const std::size_t left = used < longest_error_message ? longest_error_message - used : 0;
      entry.fail(head + join_names_within(valid_keys, std::min(unknown_key_list_limit, left)) +
                 ")");
    }
    if (has(name)) entry.fail("duplicate key (it is already given above)");
    entries_.push_back(Entry{name, it->first, it->second});
  }
}

bool ConfigMap::has(const std::string& key) const {
  for (const Entry& entry : entries_)
    if (entry.name == key) return true;
  return false;
}

ConfigValue ConfigMap::at(const std::string& key) const {
  for (const Entry& entry : entries_)
    if (entry.name == key)
      return ConfigValue(value_.origins(), entry.key, entry.value,
                         child_key_path(value_.key_path(), key));
  value_.fail("internal error: key " + quoted_input(key) + " read but not present");
}

}  // namespace spk
