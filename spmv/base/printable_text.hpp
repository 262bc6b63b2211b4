#pragma once
// printable_text: input text made safe to quote in a one-line error message. Control
// characters (newlines, tabs, NUL, ESC, ...) become C-style escapes ("\n", "\t", "\x1b"), so
// a message that quotes a piece of a bad file stays one printable line. Other bytes,
// UTF-8 included, are kept.
#include <string>
#include <string_view>

namespace spk {

inline std::string printable_text(std::string_view text) {
  static constexpr char hex_digits[] = "0123456789abcdef";
  std::string result;
  result.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      result += c;
      continue;
    }
    result += '\\';
    switch (c) {
      case '\n': result += 'n'; break;
      case '\r': result += 'r'; break;
      case '\t': result += 't'; break;
      default:
        result += 'x';
        result += hex_digits[byte >> 4];
        result += hex_digits[byte & 0xf];
    }
  }
  return result;
}

}  // namespace spk
