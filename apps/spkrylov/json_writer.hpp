#pragma once
// A minimal streaming JSON writer for the reports (no JSON library is a dependency).
#include <cmath>
#include <cstdio>
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
  template <class V>
  JsonWriter& field(const std::string& name, const V& v) {
    key(name);
    return value(v);
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
