#pragma once
// LineCursor: walks a text buffer line by line (LF or CRLF endings), counting 1-based line
// numbers, and splits lines into whitespace-separated tokens. The Matrix Market reader
// scans a whole file held in memory with it instead of iostream extraction per token.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace spk {

inline bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}

  // Stores the next line (without its terminator) in `line`; false at the end of the text.
  bool next(std::string_view& line) {
    if (position_ >= text_.size()) return false;
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    line = text_.substr(position_, stop - position_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position_ = stop + 1;
    ++line_number_;
    return true;
  }

  // Number of the line last returned by next() (0 before the first call).
  std::int64_t line_number() const { return line_number_; }

  // Bytes not yet returned (an upper bound on what the remaining lines can hold).
  std::size_t remaining_bytes() const {
    return position_ >= text_.size() ? 0 : text_.size() - position_;
  }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::int64_t line_number_ = 0;
};

// Removes and returns the next whitespace-separated token of `rest`; empty when none is left.
inline std::string_view next_token(std::string_view& rest) {
  std::size_t begin = 0;
  while (begin < rest.size() && is_blank_char(rest[begin])) ++begin;
  std::size_t end = begin;
  while (end < rest.size() && !is_blank_char(rest[end])) ++end;
  const std::string_view token = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return token;
}

// True for a line that holds only whitespace, or whose first non-blank character is '%'.
inline bool is_blank_or_comment(std::string_view line) {
  for (char c : line) {
    if (is_blank_char(c)) continue;
    return c == '%';
  }
  return true;
}

}  // namespace spk
