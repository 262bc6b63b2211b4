#include "spmv/tuning/tuning_cache.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/printable_text.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

constexpr const char* arrow = " -> ";
constexpr const char* key_fields[] = {"n",   "cols", "nnz",       "pattern",
                                      "gpu", "cc",   "precision", "version"};
constexpr const char* value_fields[] = {"format", "threads_per_row", "block_size", "x_cache",
                                        "grid",   "spmv_ms"};

std::string without_spaces(std::string text) {
  for (char& c : text)
    if (c == ' ' || c == '\t') c = '_';
  return text;
}

// "a=1 b=2" -> {{"a","1"},{"b","2"}}, in order; throws BadInput on a malformed token.
std::vector<std::pair<std::string, std::string>> tokens_of(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> tokens;
  std::istringstream stream(text);
  std::string token;
  while (stream >> token) {
    const std::size_t equals = token.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == token.size())
      throw BadInput("malformed field '" + token + "'");
    tokens.emplace_back(token.substr(0, equals), token.substr(equals + 1));
  }
  return tokens;
}

// The values of `names`, in this order and nothing else; throws BadInput otherwise.
template <std::size_t N>
std::vector<std::string> expect_fields(const std::string& text, const char* const (&names)[N]) {
  const auto tokens = tokens_of(text);
  if (tokens.size() != N) throw BadInput("expected " + std::to_string(N) + " fields");
  std::vector<std::string> values;
  for (std::size_t i = 0; i < N; ++i) {
    if (tokens[i].first != names[i])
      throw BadInput("expected field '" + std::string(names[i]) + "', found '" + tokens[i].first +
                     "'");
    values.push_back(tokens[i].second);
  }
  return values;
}

int integer_field(const std::string& text, const char* name) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw BadInput(std::string(name) + " '" + text + "' is not an integer");
  return value;
}

TuningChoice parse_choice(const std::string& text) {
  const std::vector<std::string> values = expect_fields(text, value_fields);
  TuningChoice choice;
  SpmvOptions& options = choice.options;
  bool known = false;
  for (const Format format : all_formats())
    if (values[0] == to_string(format) && format != Format::automatic) {
      options.format = format;
      known = true;
    }
  if (!known) throw BadInput("format '" + values[0] + "' is not a stored format");
  options.threads_per_row = integer_field(values[1], "threads_per_row");
  options.block_size = integer_field(values[2], "block_size");
  if (options.block_size < 32 || options.block_size > 1024 || options.block_size % 32 != 0)
    throw BadInput("block_size " + values[2] + " is invalid");
  options.x_cache = parse_x_cache(values[3]);
  options.grid = parse_grid_shape(values[4]);
  char* end = nullptr;
  choice.spmv_ms = std::strtod(values[5].c_str(), &end);
  if (end != values[5].c_str() + values[5].size() || !(choice.spmv_ms >= 0.0))
    throw BadInput("spmv_ms '" + values[5] + "' is not a time");
  return choice;
}

std::string choice_text(const TuningChoice& choice) {
  const SpmvOptions& o = choice.options;
  char time[32];
  std::snprintf(time, sizeof time, "%.5f", choice.spmv_ms);
  return "format=" + std::string(to_string(o.format)) +
         " threads_per_row=" + std::to_string(o.threads_per_row) +
         " block_size=" + std::to_string(o.block_size) + " x_cache=" + to_string(o.x_cache) +
         " grid=" + to_string(o.grid) + " spmv_ms=" + time;
}

}  // namespace

std::string tuning_key_text(const TuningKey& key) {
  return "n=" + std::to_string(key.matrix.rows) + " cols=" + std::to_string(key.matrix.cols) +
         " nnz=" + std::to_string(key.matrix.nnz) +
         " pattern=" + hex_text(key.matrix.pattern_hash) + " gpu=" + without_spaces(key.gpu_name) +
         " cc=" + std::to_string(key.compute_capability) + " precision=" + key.precision +
         " version=" + key.version;
}

std::string resolve_tuning_cache_path(const std::string& option) {
  if (option == "off") return "";
  if (!option.empty()) return option;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/spkrylov/tuning-cache.txt";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/spkrylov/tuning-cache.txt";
  return "";
}

TuningCache::TuningCache(std::string path) : path_(std::move(path)) {
  load(entries_, notes_);
}

void TuningCache::load(std::map<std::string, TuningChoice>& entries,
                       std::vector<std::string>& notes) const {
  std::error_code exists_error;
  if (path_.empty() || !std::filesystem::exists(path_, exists_error)) return;
  std::ifstream file(path_, std::ios::binary);
  if (!file) {
    notes.push_back(path_ + ": cannot be read; tuning without the cache");
    return;
  }
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    try {
      const std::size_t split = line.find(arrow);
      if (split == std::string::npos) throw BadInput("no '->' between key and choice");
      const std::string key = line.substr(0, split);
      (void)expect_fields(key, key_fields);
      entries[key] = parse_choice(line.substr(split + std::string(arrow).size()));
    } catch (const std::exception& error) {
      notes.push_back(printable_text(path_ + ":" + std::to_string(number) +
                                     ": unreadable entry ignored (" + error.what() + ")"));
    }
  }
}

std::optional<TuningChoice> TuningCache::find(const TuningKey& key) const {
  const auto found = entries_.find(tuning_key_text(key));
  if (found == entries_.end()) return std::nullopt;
  return found->second;
}

bool TuningCache::store(const TuningKey& key, const TuningChoice& choice) {
  entries_[tuning_key_text(key)] = choice;
  if (path_.empty()) return true;
  // Merge with what other runs wrote since we read the file; ours wins for this key.
  std::map<std::string, TuningChoice> merged;
  std::vector<std::string> ignored;
  load(merged, ignored);
  merged[tuning_key_text(key)] = choice;

  namespace fs = std::filesystem;
  const fs::path target(path_);
  std::error_code error;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), error);
  std::random_device random;
  const std::string temporary =
      path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(random());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file << "# spkrylov tuning cache: one `spmv.format: auto` choice a line (key -> choice).\n"
            "# Safe to delete; entries are re-created by tuning.\n";
    for (const auto& [entry_key, entry] : merged)
      file << entry_key << arrow << choice_text(entry) << "\n";
    file.flush();
    if (!file) {
      fs::remove(temporary, error);
      notes_.push_back(path_ + ": could not write the tuning cache (" + temporary + ")");
      return false;
    }
  }
  fs::rename(temporary, target, error);
  if (error) {
    const std::string reason = error.message();
    fs::remove(temporary, error);
    notes_.push_back(path_ + ": could not replace the tuning cache: " + reason);
    return false;
  }
  entries_ = std::move(merged);
  return true;
}

}  // namespace spk
