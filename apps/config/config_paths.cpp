#include "apps/config/config_paths.hpp"

#include <filesystem>
#include <system_error>

namespace spk {

namespace fs = std::filesystem;

std::string config_directory_of(const std::string& source_name) {
  return fs::path(source_name).parent_path().generic_string();
}

namespace {

enum class PathState { missing, directory, file };

PathState state_of(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return PathState::missing;
  return fs::is_directory(status) ? PathState::directory : PathState::file;
}

}  // namespace

std::string resolve_input_file(const ConfigValue& value, const std::string& config_directory) {
  const std::string written = value.as_string();
  const fs::path path(written);
  std::vector<fs::path> candidates;
  if (path.is_relative() && !config_directory.empty() && !value.from_override())
    candidates.push_back((fs::path(config_directory) / path).lexically_normal());
  candidates.push_back(path);
  std::string directory_found;
  for (const fs::path& candidate : candidates) {
    const PathState state = state_of(candidate);
    if (state == PathState::file) return candidate.generic_string();
    if (state == PathState::directory && directory_found.empty())
      directory_found = candidate.generic_string();
  }
  if (!directory_found.empty()) value.fail("'" + directory_found + "' is a directory, not a file");
  std::string message = "file '" + written + "' does not exist";
  if (candidates.size() > 1)
    message += " (looked in '" + config_directory + "/' and in the current directory)";
  value.fail(message);
}

}  // namespace spk
