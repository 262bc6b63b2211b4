#pragma once
// A minimal streaming JSON writer for the reports (no JSON library is a dependency).
// Numbers are written as numbers (non-finite ones as null), booleans as booleans.
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace spk::app {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(const std::string& name) {
    separate();
    write_string(name);
    out_ << ": ";
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(const std::string& text) {
    separate();
    write_string(text);
    return *this;
  }
  JsonWriter& value(const char* text) { return value(std::string(text)); }
  JsonWriter& value(double number) {
    separate();
    if (!std::isfinite(number)) {
      out_ << "null";  // JSON has no NaN/Inf
    } else {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.17g", number);
      out_ << buffer;
    }
    return *this;
  }
  JsonWriter& value(long long number) {
    separate();
    out_ << number;
    return *this;
  }
  JsonWriter& value(int number) { return value(static_cast<long long>(number)); }
  JsonWriter& value(std::size_t number) { return value(static_cast<long long>(number)); }
  JsonWriter& value(bool flag) {
    separate();
    out_ << (flag ? "true" : "false");
    return *this;
  }
  JsonWriter& null() {
    separate();
    out_ << "null";
    return *this;
  }
  // A value given as text that is already a JSON literal (a number, true, false or null,
  // e.g. from matrix_stats_fields), written as that literal; other text becomes null.
  JsonWriter& literal(const std::string& text) {
    if (text == "true" || text == "false" || text == "null" || is_json_number(text)) {
      separate();
      out_ << text;
      return *this;
    }
    return null();
  }
  // Descriptive text that may be a number ("4", "1.34", "12 entries (96 bytes)"): a number
  // when the whole text is one, else a string.
  JsonWriter& number_or_string(const std::string& text) {
    if (!is_json_number(text)) return value(text);
    separate();
    out_ << text;
    return *this;
  }
  // A measurement that may be missing: null when absent.
  JsonWriter& optional(const std::optional<double>& number) {
    return number ? value(*number) : null();
  }
  template <class V>
  JsonWriter& field(const std::string& name, const V& v) {
    key(name);
    return value(v);
  }

  // JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  static bool is_json_number(const std::string& text) {
    std::size_t i = 0;
    const auto digits = [&] {
      const std::size_t start = i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      return i > start;
    };
    if (i < text.size() && text[i] == '-') ++i;
    if (i < text.size() && text[i] == '0') {
      ++i;
    } else if (!digits()) {
      return false;
    }
    if (i < text.size() && text[i] == '.') {
      ++i;
      if (!digits()) return false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      if (!digits()) return false;
    }
    return i == text.size();
  }

 private:
  JsonWriter& open(char bracket) {
    separate();
    out_ << bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char bracket) {
    first_.pop_back();
    out_ << bracket;
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ << ", ";
      first_.back() = false;
    }
  }
  void write_string(const std::string& text) {
    out_ << '"';
    for (const char c : text) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\t': out_ << "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out_ << buffer;
          } else {
            out_ << c;
          }
      }
    }
    out_ << '"';
  }

  std::ostream& out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace spk::app
