#include "frontend/config/config_paths.hpp"

#include <filesystem>
#include <system_error>

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

std::string checked_output_file(const ConfigValue& value) {
  const std::string written = value.as_optional_string();
  if (written.empty()) return written;
  const fs::path path(written);
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code error;
  if (fs::is_directory(path, error))
    value.fail(quoted_name(written) + " is a folder; give a file name in it");
  if (!fs::exists(folder, error))
    value.fail("folder " + quoted_name(folder.generic_string()) +
               " does not exist (outputs are written after the solve: create it first)");
  if (!fs::is_directory(folder, error))
    value.fail(quoted_name(folder.generic_string()) + " is not a folder");
  return written;
}

}  // namespace spk
