#pragma once
// number_text("%.3e", value): one number formatted printf-style, for the report lines.
#include <cstdio>
#include <string>

namespace spk::app {

inline std::string number_text(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace spk::app
