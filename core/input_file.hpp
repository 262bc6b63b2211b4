#pragma once
// The one check every input path goes through (config files, matrix and vector files, paths
// named in a config) before it is opened: a missing path or a directory is refused with a
// one-line reason that quotes the path, instead of an error from deep inside a reader
// (a directory opened with fopen reads as a file of 2^63 bytes on Linux).
#include <string>

namespace spk {

enum class InputPathKind { missing, directory, file };

// What `path` names; a broken link or an unreadable parent directory counts as missing.
// Files that are not regular (a pipe, /dev/stdin) count as files.
InputPathKind input_path_kind(const std::string& path);

// The reason `path` cannot be read as a `noun` ("file", "config file", ...), or "" when it
// can be opened: "config file 'x.yaml' does not exist", "'adir' is a directory, not a
// matrix file", "cannot open file 'x.mtx' (Permission denied)". The path is quoted with
// quoted_name (core/printable_text.hpp): a long one is cut in the middle.
std::string input_file_problem(const std::string& path, const std::string& noun = "file");

// Throws spk::BadInput(input_file_problem(path, noun)) unless the path can be read.
void require_input_file(const std::string& path, const std::string& noun = "file");

}  // namespace spk
