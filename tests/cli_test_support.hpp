#pragma once
// Running the spkrylov binary from a test: run_cli("solve CONFIG --quiet") gives the exit
// code, stdout and stderr. The binary: $SPK_CLI, else `spkrylov` next to the test binary
// (carry/bin on the GPU machine), else the one this build made (SPK_CLI_PATH). Every run
// has a time limit, so an input that hangs the program fails its test instead of hanging
// the suite. expect_one_line_error() checks the CLI's error contract (RELIABILITY.md).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

namespace spk::test {

inline bool is_executable(const std::string& path) {
  return access(path.c_str(), X_OK) == 0;
}

// `name` next to the test binary (carry/bin on the GPU machine), else `built` (this build's).
inline std::string program_path(const std::string& name, const std::string& built) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length > 0) {
    const std::string executable(self, static_cast<std::size_t>(length));
    const std::string beside = executable.substr(0, executable.find_last_of('/') + 1) + name;
    if (is_executable(beside)) return beside;
  }
  return built;
}

inline std::string cli_path() {
  const char* from_environment = std::getenv("SPK_CLI");
  if (from_environment != nullptr && *from_environment != '\0') return from_environment;
  return program_path("spkrylov", SPK_CLI_PATH);
}

inline std::string read_text_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// A path or argument in single quotes for the shell.
inline std::string shell_quoted(const std::string& text) {
  return "'" + text + "'";
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `spkrylov ARGUMENTS` (already shell-quoted) in the test's scratch directory; with a
// launcher, `LAUNCHER spkrylov ARGUMENTS` (e.g. "mpirun -np 2", distributed tests).
inline CliRun run_cli(const std::string& arguments, int time_limit_s = 60,
                      const std::string& launcher = "") {
  const std::string cli = cli_path();
  if (!is_executable(cli)) {
    ADD_FAILURE() << "spkrylov not found at '" << cli << "' (set SPK_CLI)";
    return {};
  }
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  // The process id keeps runs of other checkouts (sharing /tmp) from overwriting the output.
  const std::string stem =
      ::testing::TempDir() + "spk_cli_" + std::to_string(getpid()) + "_" + info->name();
  const std::string command = "cd " + shell_quoted(::testing::TempDir()) + " && timeout " +
                              std::to_string(time_limit_s) + " " + launcher + " " +
                              shell_quoted(cli) + " " + arguments + " >" +
                              shell_quoted(stem + ".out") + " 2>" + shell_quoted(stem + ".err");
  const int status = std::system(command.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_text_file(stem + ".out");
  run.err = read_text_file(stem + ".err");
  std::remove((stem + ".out").c_str());
  std::remove((stem + ".err").c_str());
  return run;
}

// The longest error line the CLI may print (RELIABILITY.md): quoted input is capped
// (core/printable_text.hpp), so a line does not grow with its input.
constexpr std::size_t max_error_line = 300;

// Exit code 1, nothing on stdout, and stderr one line "error: ..." of at most
// max_error_line characters, holding every fragment.
inline void expect_one_line_error(const CliRun& run, std::initializer_list<std::string> fragments) {
  EXPECT_EQ(run.exit_code, 1) << "stderr: " << run.err.substr(0, 1000);
  EXPECT_EQ(run.out.substr(0, 1000), "");
  ASSERT_FALSE(run.err.empty());
  EXPECT_EQ(run.err.rfind("error: ", 0), 0u) << run.err.substr(0, 1000);
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "not one line: " << run.err.substr(0, 1000);
  EXPECT_LE(run.err.size(), max_error_line + 1)
      << "longer than " << max_error_line << " characters: " << run.err.substr(0, 1000);
  for (const std::string& fragment : fragments)
    EXPECT_NE(run.err.find(fragment), std::string::npos)
        << "missing '" << fragment << "' in: " << run.err.substr(0, 1000);
}

}  // namespace spk::test
