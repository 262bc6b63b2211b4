#pragma once
// printable_text: input text made safe to quote in a one-line error message. Control
// characters (newlines, tabs, NUL, ESC, ...) become C-style escapes ("\n", "\t", "\x1b"), so
// a message that quotes a piece of a bad file stays one printable line. Other bytes,
// UTF-8 included, are kept.
//
// Every error message that quotes input goes through the capped forms below, so that no
// error line grows with its input (a 1 MB line, a whole file read as a YAML scalar):
//   quoted_input  a value, key or line of input:  'abc'  or  '%%MatrixMarket matri...' (1025462
//   bytes) quoted_name   a file name (a path), cut in the middle so the file name stays:
//                 '/very/long/dir/.../data/bcsstk13.mtx'
//   input_excerpt and shown_name are the same without the quotes (for locations such as
//   "--set KEY=VALUE:" or "FILE:LINE:").
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace spk {

// Bytes of printable text shown of one value, key or line of input.
inline constexpr std::size_t quoted_input_limit = 40;

// "1.234e-05": a number in messages (three significant decimals, scientific).
inline std::string scientific_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}
// Bytes of printable text shown of one file name or location.
inline constexpr std::size_t shown_name_limit = 120;

namespace detail {

inline void append_printable(std::string& out, char c) {
  static constexpr char hex_digits[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte != 0x7f) {
    out += c;
    return;
  }
  out += '\\';
  switch (c) {
    case '\n': out += 'n'; break;
    case '\r': out += 'r'; break;
    case '\t': out += 't'; break;
    default:
      out += 'x';
      out += hex_digits[byte >> 4];
      out += hex_digits[byte & 0xf];
  }
}

inline std::size_t printable_size(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte != 0x7f) return 1;
  return c == '\n' || c == '\r' || c == '\t' ? 2 : 4;
}

inline bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xc0) == 0x80;
}

// How many leading bytes of `text` fit in `limit` printable characters, not splitting an
// escape or a UTF-8 sequence.
inline std::size_t fitting_prefix(std::string_view text, std::size_t limit) {
  std::size_t bytes = 0, shown = 0;
  while (bytes < text.size() && shown + printable_size(text[bytes]) <= limit)
    shown += printable_size(text[bytes++]);
  while (bytes > 0 && bytes < text.size() && is_utf8_continuation(text[bytes])) --bytes;
  return bytes;
}

// How many trailing bytes of `text` fit in `limit` printable characters.
inline std::size_t fitting_suffix(std::string_view text, std::size_t limit) {
  std::size_t bytes = 0, shown = 0;
  while (bytes < text.size() && shown + printable_size(text[text.size() - 1 - bytes]) <= limit)
    shown += printable_size(text[text.size() - 1 - bytes++]);
  while (bytes > 0 && is_utf8_continuation(text[text.size() - bytes])) --bytes;
  return bytes;
}

}  // namespace detail

inline std::string printable_text(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  for (char c : text) detail::append_printable(result, c);
  return result;
}

// At most `limit` printable characters of `text`, then "..." when it is longer.
inline std::string input_excerpt(std::string_view text, std::size_t limit = quoted_input_limit) {
  const std::size_t kept = detail::fitting_prefix(text, limit);
  if (kept == text.size()) return printable_text(text);
  return printable_text(text.substr(0, kept)) + "...";
}

// 'EXCERPT', with the whole size when the excerpt is cut: 'abc...' (1025462 bytes).
inline std::string quoted_input(std::string_view text) {
  const std::string excerpt = input_excerpt(text);
  if (detail::fitting_prefix(text, quoted_input_limit) == text.size()) return "'" + excerpt + "'";
  return "'" + excerpt + "' (" + std::to_string(text.size()) + " bytes)";
}

// A file name of at most shown_name_limit printable characters: a longer one keeps its
// start and its end (where the file name is) around "...".
inline std::string shown_name(std::string_view name) {
  if (detail::fitting_prefix(name, shown_name_limit) == name.size()) return printable_text(name);
  const std::size_t head = detail::fitting_prefix(name, shown_name_limit / 3);
  const std::size_t tail =
      detail::fitting_suffix(name, shown_name_limit - shown_name_limit / 3 - 3);
  return printable_text(name.substr(0, head)) + "..." +
         printable_text(name.substr(name.size() - tail));
}

inline std::string quoted_name(std::string_view name) {
  return "'" + shown_name(name) + "'";
}

}  // namespace spk
