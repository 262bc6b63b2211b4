#pragma once
// How SpmvBackend::details() prints its numbers: percentages and ratios with 3 significant
// digits, so reports line up across formats.
#include <cstdio>
#include <string>

namespace spk {

// 0.125 -> "12.5%"
inline std::string percent_text(double fraction) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g%%", 100.0 * fraction);
  return text;
}

// 1.3379 -> "1.34", 1303.2 -> "1303" (no exponent)
inline std::string ratio_text(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), value < 100.0 ? "%.3g" : "%.0f", value);
  return text;
}

}  // namespace spk
