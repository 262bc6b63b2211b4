// Matrix Market reading: banner and size line, coordinate entries, array values (into a CSR, a
// vector or a dense matrix).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <string_view>

#include "core/input_file.hpp"
#include "core/printable_text.hpp"
#include "spmv/host/coo_to_csr.hpp"
#include "spmv/host/line_cursor.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk {
namespace {

enum class MarketFormat { coordinate, array };
enum class MarketField { real, integer, pattern };
enum class MarketSymmetry { general, symmetric, skew_symmetric };

struct MarketHeader {
  MarketFormat format = MarketFormat::coordinate;
  MarketField field = MarketField::real;
  MarketSymmetry symmetry = MarketSymmetry::general;
  index_t rows = 0;
  index_t cols = 0;
  index_t stored_count = 0;  // coordinate: declared entries; array: values to read
  std::int64_t size_line = 0;
};

constexpr const char* banner_form =
    "'%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> "
    "<general|symmetric|skew-symmetric>'";

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

// The text being scanned and its name, to point errors at NAME:LINE.
class MarketScanner {
 public:
  MarketScanner(std::string_view text, const std::string& name) : lines_(text), name_(name) {}

  // Next line that is neither blank nor a comment; false at the end of the text.
  bool next_content_line(std::string_view& line) {
    while (lines_.next(line))
      if (!is_blank_or_comment(line)) return true;
    return false;
  }
  bool next_line(std::string_view& line) { return lines_.next(line); }
  std::int64_t line_number() const { return lines_.line_number(); }
  std::size_t remaining_bytes() const { return lines_.remaining_bytes(); }
  const std::string& name() const { return name_; }

  std::string where(std::int64_t line) const {
    return shown_name(name_) + ":" + std::to_string(line) + ": ";
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(line_number(), message); }
  [[noreturn]] void fail_at(std::int64_t line, const std::string& message) const {
    throw BadInput(where(line) + message);
  }

 private:
  LineCursor lines_;
  const std::string& name_;
};

// A whole token as a signed 64-bit integer; false if it is not exactly one.
bool parse_integer(std::string_view token, std::int64_t& value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const char* end = token.data() + token.size();
  const auto result = std::from_chars(token.data(), end, value);
  return result.ec == std::errc() && result.ptr == end && !token.empty();
}

// A whole token as a double (accepting a leading '+' and Fortran 'D' exponents); false if
// it is not a number. Overflow gives +-inf and underflow 0, as strtod does.
bool parse_real(std::string_view token, double& value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  if (token.empty()) return false;
  const char* end = token.data() + token.size();
  auto result = std::from_chars(token.data(), end, value, std::chars_format::general);
  if (result.ptr == end && result.ec == std::errc()) return true;
  // Slow path: a 'D' exponent or an out-of-range magnitude, re-parsed by strtod on a copy.
  const bool fortran_exponent =
      result.ec == std::errc() && (*result.ptr == 'D' || *result.ptr == 'd');
  const bool out_of_range = result.ec == std::errc::result_out_of_range && result.ptr == end;
  if (!fortran_exponent && !out_of_range) return false;
  char copy[128];
  if (token.size() >= sizeof(copy)) return false;
  std::memcpy(copy, token.data(), token.size());
  copy[token.size()] = '\0';
  for (char& c : copy)
    if (c == 'D' || c == 'd') c = 'e';
  char* parsed_end = nullptr;
  value = std::strtod(copy, &parsed_end);
  return parsed_end == copy + token.size();
}

// A size-line token: non-negative and within the 32-bit index range.
index_t parse_size(const MarketScanner& scanner, std::string_view token, const char* what,
                   std::string_view line, const char* expected_form) {
  std::int64_t value = 0;
  if (!parse_integer(token, value))
    scanner.fail("malformed size line " + quoted_input(line) + ": expected " + expected_form);
  if (value < 0) scanner.fail(std::string("negative ") + what + " " + std::to_string(value));
  try {
    check_index_range(value, what);
  } catch (const BadInput& error) {
    scanner.fail(error.what());
  }
  return static_cast<index_t>(value);
}

void parse_banner(MarketScanner& scanner, MarketHeader& header) {
  std::string_view line;
  if (!scanner.next_line(line))
    scanner.fail_at(1, std::string("empty file; expected the banner ") + banner_form);
  std::string_view rest = line;
  constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";  // some Windows editors add one
  if (rest.substr(0, utf8_bom.size()) == utf8_bom) rest.remove_prefix(utf8_bom.size());
  const std::string_view magic = next_token(rest);
  if (lowercase(magic) != "%%matrixmarket")
    scanner.fail(std::string("missing Matrix Market banner: the first line must be ") +
                 banner_form + ", found " + quoted_input(line));
  const std::string object = lowercase(next_token(rest));
  const std::string format = lowercase(next_token(rest));
  const std::string field = lowercase(next_token(rest));
  const std::string symmetry = lowercase(next_token(rest));
  if (symmetry.empty() || !next_token(rest).empty())
    scanner.fail("malformed banner " + quoted_input(line) + ": expected " + banner_form);

  if (object != "matrix")
    scanner.fail("unknown object " + quoted_input(object) + " in the banner (expected matrix)");

  if (format == "coordinate")
    header.format = MarketFormat::coordinate;
  else if (format == "array")
    header.format = MarketFormat::array;
  else
    scanner.fail("unknown format " + quoted_input(format) +
                 " in the banner (expected coordinate or array)");

  if (field == "real" || field == "double")
    header.field = MarketField::real;
  else if (field == "integer")
    header.field = MarketField::integer;
  else if (field == "pattern")
    header.field = MarketField::pattern;
  else if (field == "complex")
    throw NotSupported(scanner.where(scanner.line_number()) + "complex matrices are not supported");
  else
    scanner.fail("unknown field " + quoted_input(field) +
                 " in the banner (expected real, integer or pattern)");

  if (symmetry == "general")
    header.symmetry = MarketSymmetry::general;
  else if (symmetry == "symmetric")
    header.symmetry = MarketSymmetry::symmetric;
  else if (symmetry == "skew-symmetric")
    header.symmetry = MarketSymmetry::skew_symmetric;
  else if (symmetry == "hermitian")
    throw NotSupported(scanner.where(scanner.line_number()) +
                       "complex matrices are not supported (symmetry 'hermitian')");
  else
    scanner.fail("unknown symmetry " + quoted_input(symmetry) +
                 " in the banner (expected general, symmetric or skew-symmetric)");

  if (header.field == MarketField::pattern && header.format == MarketFormat::array)
    scanner.fail("field 'pattern' is only valid with format 'coordinate'");
  if (header.field == MarketField::pattern && header.symmetry == MarketSymmetry::skew_symmetric)
    scanner.fail("field 'pattern' cannot be skew-symmetric");
}

void parse_size_line(MarketScanner& scanner, MarketHeader& header) {
  const bool coordinate = header.format == MarketFormat::coordinate;
  const char* expected_form = coordinate ? "'rows columns entries'" : "'rows columns'";
  std::string_view line;
  if (!scanner.next_content_line(line))
    scanner.fail(std::string("missing size line ") + expected_form + " after the banner");
  header.size_line = scanner.line_number();

  std::string_view rest = line;
  const std::string_view rows_token = next_token(rest);
  const std::string_view cols_token = next_token(rest);
  const std::string_view count_token = coordinate ? next_token(rest) : std::string_view();
  if (cols_token.empty() || (coordinate && count_token.empty()) || !next_token(rest).empty())
    scanner.fail("malformed size line " + quoted_input(line) + ": expected " + expected_form);
  header.rows = parse_size(scanner, rows_token, "rows", line, expected_form);
  header.cols = parse_size(scanner, cols_token, "columns", line, expected_form);

  if (header.symmetry != MarketSymmetry::general && header.rows != header.cols)
    scanner.fail(
        std::string(header.symmetry == MarketSymmetry::symmetric ? "symmetric" : "skew-symmetric") +
        " matrix must be square, the size line declares " + std::to_string(header.rows) + " x " +
        std::to_string(header.cols));

  if (coordinate) {
    header.stored_count = parse_size(scanner, count_token, "declared entries", line, expected_form);
    return;
  }
  const std::int64_t n = header.rows;
  std::int64_t values = n * header.cols;
  if (header.symmetry == MarketSymmetry::symmetric) values = n * (n + 1) / 2;
  if (header.symmetry == MarketSymmetry::skew_symmetric) values = n * (n - 1) / 2;
  try {
    check_index_range(values, "dense array values");
  } catch (const BadInput& error) {
    scanner.fail(error.what());
  }
  header.stored_count = static_cast<index_t>(values);
}

MarketHeader parse_header(MarketScanner& scanner) {
  MarketHeader header;
  parse_banner(scanner, header);
  parse_size_line(scanner, header);
  return header;
}

double parse_value(const MarketScanner& scanner, const MarketHeader& header,
                   std::string_view token) {
  if (header.field == MarketField::integer) {
    std::int64_t integer = 0;
    if (!parse_integer(token, integer))
      scanner.fail("value " + quoted_input(token) + " is not an integer (the banner says integer)");
    return static_cast<double>(integer);
  }
  double value = 0.0;
  if (!parse_real(token, value)) scanner.fail("value " + quoted_input(token) + " is not a number");
  if (!std::isfinite(value)) scanner.fail("value " + quoted_input(token) + " is not finite");
  return value;
}

index_t parse_entry_index(const MarketScanner& scanner, std::string_view token, const char* what,
                          index_t extent) {
  std::int64_t index = 0;
  if (!parse_integer(token, index))
    scanner.fail(std::string(what) + " index " + quoted_input(token) + " is not an integer");
  if (index < 1 || index > extent)
    scanner.fail(std::string(what) + " index " + std::to_string(index) +
                 (extent == 0 ? std::string(" out of range: the matrix has no ") + what + "s"
                              : " out of range 1.." + std::to_string(extent)));
  return static_cast<index_t>(index - 1);
}

// Calls on_entry(row, column, value) (0-based) for each of the declared coordinate entries,
// checking ranges, the skew-symmetric diagonal and that a symmetric file stores one triangle.
template <class OnEntry>
void scan_coordinate_entries(MarketScanner& scanner, const MarketHeader& header,
                             OnEntry&& on_entry) {
  const bool pattern = header.field == MarketField::pattern;
  const char* entry_form = pattern ? "'row column'" : "'row column value'";
  std::int64_t found = 0, first_lower_line = 0, first_upper_line = 0;
  std::string_view line;
  while (scanner.next_content_line(line)) {
    if (found == header.stored_count)
      scanner.fail("extra entry after the " + std::to_string(header.stored_count) +
                   " declared entries " + quoted_input(line));
    std::string_view rest = line;
    const std::string_view row_token = next_token(rest);
    const std::string_view column_token = next_token(rest);
    const std::string_view value_token = pattern ? std::string_view() : next_token(rest);
    if (column_token.empty() || (!pattern && value_token.empty()))
      scanner.fail("expected " + std::string(entry_form) + ", found " + quoted_input(line));
    const std::string_view trailing = next_token(rest);
    if (!trailing.empty())
      scanner.fail("unexpected text " + quoted_input(trailing) + " after the entry (expected " +
                   entry_form + ")");
    const index_t row = parse_entry_index(scanner, row_token, "row", header.rows);
    const index_t column = parse_entry_index(scanner, column_token, "column", header.cols);
    const double value = pattern ? 1.0 : parse_value(scanner, header, value_token);
    ++found;

    if (header.symmetry == MarketSymmetry::skew_symmetric && row == column) {
      if (value != 0.0)
        scanner.fail("skew-symmetric matrix has a nonzero diagonal entry (" +
                     std::to_string(row + 1) + "," + std::to_string(column + 1) + ")");
      continue;  // an explicit zero on the diagonal carries nothing
    }
    if (header.symmetry != MarketSymmetry::general && row != column) {
      std::int64_t& first_this_side = row > column ? first_lower_line : first_upper_line;
      const std::int64_t first_other_side = row > column ? first_upper_line : first_lower_line;
      if (first_this_side == 0) first_this_side = scanner.line_number();
      if (first_other_side != 0)
        scanner.fail("entry (" + std::to_string(row + 1) + "," + std::to_string(column + 1) +
                     ") is on the other side of the diagonal than line " +
                     std::to_string(first_other_side) +
                     "; a symmetric file must store one triangle only");
    }
    on_entry(row, column, value);
  }
  if (found < header.stored_count)
    scanner.fail("file ends after " + std::to_string(found) + " of " +
                 std::to_string(header.stored_count) + " declared entries");
}

// Calls on_value(row, column, value) for each stored value of an array file, in file order
// (column-major; the lower triangle for symmetric/skew-symmetric).
template <class OnValue>
void scan_array_values(MarketScanner& scanner, const MarketHeader& header, OnValue&& on_value) {
  const std::int64_t expected = header.stored_count;
  // Row where each column's stored values start: the top, the diagonal, or just below it.
  const auto first_stored_row = [&header](index_t column) -> index_t {
    switch (header.symmetry) {
      case MarketSymmetry::symmetric: return column;
      case MarketSymmetry::skew_symmetric: return column + 1;
      case MarketSymmetry::general: break;
    }
    return 0;
  };
  index_t column = 0, row = first_stored_row(0);
  std::int64_t found = 0;
  std::string_view line;
  while (scanner.next_content_line(line)) {
    if (found == expected)
      scanner.fail("extra value after the " + std::to_string(expected) + " declared values " +
                   quoted_input(line));
    std::string_view rest = line;
    const std::string_view value_token = next_token(rest);
    const std::string_view trailing = next_token(rest);
    if (!trailing.empty())
      scanner.fail("unexpected text " + quoted_input(trailing) + " after the value (array files " +
                   "hold one value a line)");
    on_value(row, column, parse_value(scanner, header, value_token));
    ++found;
    if (++row == header.rows) {
      ++column;
      row = first_stored_row(column);
    }
  }
  if (found < expected)
    scanner.fail("file ends after " + std::to_string(found) + " of " + std::to_string(expected) +
                 " declared values");
}

Mirror mirror_of(MarketSymmetry symmetry) {
  switch (symmetry) {
    case MarketSymmetry::symmetric: return Mirror::symmetric;
    case MarketSymmetry::skew_symmetric: return Mirror::skew_symmetric;
    case MarketSymmetry::general: break;
  }
  return Mirror::none;
}

// Every value read is finite, but duplicates are summed and finite values can add up past
// the double range ("1 1 1e308" twice): refused, naming the entry.
void check_summed_duplicates(const CsrMatrix<double>& matrix, const std::string& name) {
  for (index_t row = 0; row < matrix.rows; ++row)
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      if (!std::isfinite(matrix.values[k]))
        throw BadInput(shown_name(name) + ": duplicate entries (" + std::to_string(row + 1) + "," +
                       std::to_string(matrix.columns[k] + 1) +
                       ") sum to a value past the double range");
}

// Takes the text by value so that it is freed before the CSR is assembled.
CsrMatrix<double> parse_matrix_text(std::string text, const std::string& name) {
  MarketScanner scanner(text, name);
  const MarketHeader header = parse_header(scanner);
  CooEntries entries;
  entries.rows = header.rows;
  entries.cols = header.cols;
  // Never trust the declared count for the allocation: an entry takes at least 4 bytes.
  const std::size_t plausible = scanner.remaining_bytes() / 4 + 1;
  entries.reserve(std::min(static_cast<std::size_t>(header.stored_count), plausible));
  const auto add = [&entries](index_t row, index_t column, double value) {
    entries.add(row, column, value);
  };
  if (header.format == MarketFormat::coordinate)
    scan_coordinate_entries(scanner, header, add);
  else
    scan_array_values(scanner, header, add);
  std::string().swap(text);

  const Mirror mirror = mirror_of(header.symmetry);
  try {
    check_index_range(expanded_entry_count(entries, mirror), "nonzeros after symmetric expansion");
  } catch (const BadInput& error) {
    scanner.fail_at(header.size_line, error.what());
  }
  CsrMatrix<double> matrix = coo_to_csr(entries, mirror);
  check_summed_duplicates(matrix, name);
  return matrix;
}

std::vector<double> parse_vector_text(std::string_view text, const std::string& name) {
  MarketScanner scanner(text, name);
  const MarketHeader header = parse_header(scanner);
  if (header.rows != 1 && header.cols != 1)
    scanner.fail_at(header.size_line, "expected a vector (n x 1 or 1 x n), found a " +
                                          std::to_string(header.rows) + " x " +
                                          std::to_string(header.cols) + " matrix");
  const auto length = static_cast<std::size_t>(header.cols == 1 ? header.rows : header.cols);
  std::vector<double> vector;
  if (header.format == MarketFormat::coordinate) {  // missing entries 0, duplicates summed
    vector.assign(length, 0.0);
    scan_coordinate_entries(scanner, header, [&](index_t row, index_t column, double value) {
      vector[header.cols == 1 ? row : column] += value;
    });
    for (std::size_t i = 0; i < vector.size(); ++i)
      if (!std::isfinite(vector[i]))
        throw BadInput(shown_name(name) + ": duplicate entries at position " +
                       std::to_string(i + 1) + " sum to a value past the double range");
  } else {  // file order is vector order; the declared length is not trusted for allocation
    vector.reserve(std::min(length, scanner.remaining_bytes() / 2 + 1));
    scan_array_values(scanner, header,
                      [&vector](index_t, index_t, double value) { vector.push_back(value); });
  }
  return vector;
}

DenseMatrix parse_dense_text(std::string_view text, const std::string& name) {
  MarketScanner scanner(text, name);
  const MarketHeader header = parse_header(scanner);
  if (header.format != MarketFormat::array)
    scanner.fail_at(1, "expected a dense 'array' file (rows x columns), found 'coordinate'");
  DenseMatrix dense;
  dense.rows = header.rows;
  dense.cols = header.cols;
  // (row, column, value) in file order first: the declared size is not trusted for allocation
  // until the values are there.
  struct Stored {
    index_t row, column;
    double value;
  };
  std::vector<Stored> stored;
  stored.reserve(
      std::min(static_cast<std::size_t>(header.stored_count), scanner.remaining_bytes() / 2 + 1));
  scan_array_values(scanner, header, [&stored](index_t row, index_t column, double value) {
    stored.push_back({row, column, value});
  });
  const double mirror_sign = header.symmetry == MarketSymmetry::skew_symmetric ? -1.0 : 1.0;
  dense.values.assign(static_cast<std::size_t>(dense.rows) * dense.cols, 0.0);
  const auto cols = static_cast<std::size_t>(dense.cols);
  for (const Stored& entry : stored) {
    dense.values[entry.row * cols + entry.column] = entry.value;
    if (header.symmetry != MarketSymmetry::general && entry.row != entry.column)
      dense.values[entry.column * cols + entry.row] = mirror_sign * entry.value;
  }
  return dense;
}

std::string read_whole_file(const std::string& path) {
  require_input_file(path);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr)
    throw BadInput("cannot open file " + quoted_name(path) + " (" + std::strerror(errno) + ")");
  std::string text;
  if (std::fseek(file, 0, SEEK_END) == 0) {
    const long size = std::ftell(file);
    if (size > 0) text.reserve(static_cast<std::size_t>(size));
    std::rewind(file);
  }
  char chunk[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof(chunk), file)) > 0) text.append(chunk, got);
  const bool failed = std::ferror(file) != 0;
  const int saved_errno = errno;
  std::fclose(file);
  if (failed)
    throw BadInput(shown_name(path) + ": cannot read (" + std::strerror(saved_errno) + ")");
  return text;
}

std::string read_whole_stream(std::istream& in) {
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0)
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

CsrMatrix<double> read_matrix_market(const std::string& path) {
  return parse_matrix_text(read_whole_file(path), path);
}

CsrMatrix<double> parse_matrix_market(std::istream& in, const std::string& name) {
  return parse_matrix_text(read_whole_stream(in), name);
}

std::vector<double> read_vector_market(const std::string& path) {
  return parse_vector_text(read_whole_file(path), path);
}

std::vector<double> parse_vector_market(std::istream& in, const std::string& name) {
  return parse_vector_text(read_whole_stream(in), name);
}

DenseMatrix read_dense_market(const std::string& path) {
  return parse_dense_text(read_whole_file(path), path);
}

DenseMatrix parse_dense_market(std::istream& in, const std::string& name) {
  return parse_dense_text(read_whole_stream(in), name);
}

}  // namespace spk
