#pragma once
// What every fuzz target checks about a rejected input: the error is a spk::BadInput or
// spk::NotSupported whose message is one printable line starting with where the input
// came from. Anything else (another exception type, a crash, a hang, an invariant that
// does not hold) is a finding: report() prints it and aborts, which libFuzzer records
// as a crash with the input that caused it.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk::fuzz {

[[noreturn]] inline void report(const std::string& finding) {
  std::fprintf(stderr, "fuzz finding: %s\n", finding.c_str());
  std::abort();
}

// The message of a rejected input: one line, no control characters, starting with one of
// the names the input may be blamed on, and short whatever the input: with the CLI's
// "error: " it fits the 300-character line of RELIABILITY.md (quoted input is capped,
// core/printable_text.hpp).
inline void check_error_message(const std::string& message, std::size_t input_size,
                                std::initializer_list<const char*> allowed_prefixes) {
  bool prefixed = false;
  for (const char* prefix : allowed_prefixes) prefixed = prefixed || message.rfind(prefix, 0) == 0;
  if (!prefixed) report("error message does not start with the input's name: " + message);
  for (char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f)
      report("error message holds control character " + std::to_string(byte) + ": " + message);
  }
  constexpr std::size_t longest_message = 300 - sizeof("error: ") + 1;
  if (message.size() > longest_message)
    report("error message of " + std::to_string(message.size()) + " characters for an input of " +
           std::to_string(input_size) + " bytes (at most " + std::to_string(longest_message) +
           "): " + message);
}

}  // namespace spk::fuzz
