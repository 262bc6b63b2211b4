#include "frontend/config/config_paths.hpp"

#include <filesystem>

#include "core/input_file.hpp"
#include "core/printable_text.hpp"

namespace spk {

namespace fs = std::filesystem;

std::string config_directory_of(const std::string& source_name) {
  return fs::path(source_name).parent_path().generic_string();
}

std::string resolve_input_file(const ConfigValue& value, const std::string& config_directory) {
  const std::string written = value.as_string();
  const fs::path path(written);
  std::vector<fs::path> candidates;
  if (path.is_relative() && !config_directory.empty() && !value.from_override())
    candidates.push_back((fs::path(config_directory) / path).lexically_normal());
  candidates.push_back(path);
  std::string directory_found;
  for (const fs::path& candidate : candidates) {
    const InputPathKind kind = input_path_kind(candidate.generic_string());
    if (kind == InputPathKind::file) return candidate.generic_string();
    if (kind == InputPathKind::directory && directory_found.empty())
      directory_found = candidate.generic_string();
  }
  // The same reasons as every other input path (core/input_file.hpp).
  if (!directory_found.empty()) value.fail(input_file_problem(directory_found));
  std::string message = input_file_problem(written);
  if (candidates.size() > 1)
    message +=
        " (looked in " + quoted_name(config_directory + "/") + " and in the current directory)";
  value.fail(message);
}

}  // namespace spk
