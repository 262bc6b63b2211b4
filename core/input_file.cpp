#include "core/input_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/printable_text.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace fs = std::filesystem;

InputPathKind input_path_kind(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return InputPathKind::missing;
  return fs::is_directory(status) ? InputPathKind::directory : InputPathKind::file;
}

std::string input_file_problem(const std::string& path, const std::string& noun) {
  const std::string shown = quoted_name(path);
  switch (input_path_kind(path)) {
    case InputPathKind::missing: return noun + " " + shown + " does not exist";
    case InputPathKind::directory: return shown + " is a directory, not a " + noun;
    case InputPathKind::file: break;
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr)
    return "cannot open " + noun + " " + shown + " (" + std::strerror(errno) + ")";
  std::fclose(file);
  return "";
}

void require_input_file(const std::string& path, const std::string& noun) {
  const std::string problem = input_file_problem(path, noun);
  if (!problem.empty()) throw BadInput(problem);
}

}  // namespace spk
