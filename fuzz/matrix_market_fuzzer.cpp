// libFuzzer target: the Matrix Market reader (matrices and vectors) on arbitrary bytes.
//
// For every input, parse_matrix_market and parse_vector_market either
//   * return a result that keeps its invariants: CSR offsets start at 0, never decrease and
//     end at nnz; columns are in range and strictly increasing within a row; every value is
//     finite (NaN/Inf are refused, also when duplicates sum past the double range); a
//     vector has the declared length and finite entries; or
//   * throw spk::BadInput / spk::NotSupported with a one-line message starting "fuzz.mtx"
//     (fuzz_contract.hpp).
// Anything else aborts and libFuzzer keeps the input as a crash.
//
// Inputs that declare more than 2^20 rows or columns (but fit 32-bit indices) are skipped:
// they are valid and the reader allocates O(rows) for them by design, which would trip the
// fuzzer's memory limit without being a bug. Sizes past the 32-bit range are still fuzzed
// (they must be refused before anything is allocated).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz/fuzz_contract.hpp"
#include "spmv/host/line_cursor.hpp"
#include "spmv/host/matrix_market.hpp"

namespace {

constexpr std::int64_t largest_fuzzed_dimension = std::int64_t{1} << 20;
constexpr const char* input_name = "fuzz.mtx";

// True when the first content line after the banner holds a number in
// (largest_fuzzed_dimension, 2^31 - 1]: a valid size the reader would allocate for.
bool declares_huge_valid_size(std::string_view text) {
  spk::LineCursor lines(text);
  std::string_view line;
  if (!lines.next(line)) return false;  // the banner
  while (lines.next(line)) {
    if (spk::is_blank_or_comment(line)) continue;
    for (std::string_view token = spk::next_token(line); !token.empty();
         token = spk::next_token(line)) {
      if (token.front() == '+') token.remove_prefix(1);  // the reader accepts "+5"
      std::int64_t value = 0;
      for (char c : token) {
        if (c < '0' || c > '9' || value > spk::max_index) break;
        value = value * 10 + (c - '0');
      }
      if (value > largest_fuzzed_dimension && value <= spk::max_index) return true;
    }
    return false;
  }
  return false;
}

void check_matrix(const spk::CsrMatrix<double>& matrix) {
  using spk::fuzz::report;
  if (matrix.rows < 0 || matrix.cols < 0) report("negative matrix size");
  if (matrix.row_offsets.size() != static_cast<std::size_t>(matrix.rows) + 1)
    report("row_offsets does not have rows + 1 entries");
  if (matrix.row_offsets.front() != 0) report("row_offsets does not start at 0");
  if (matrix.columns.size() != matrix.values.size()) report("columns and values differ in size");
  if (static_cast<std::size_t>(matrix.row_offsets.back()) != matrix.columns.size())
    report("row_offsets does not end at nnz");
  for (spk::index_t row = 0; row < matrix.rows; ++row) {
    const spk::index_t begin = matrix.row_offsets[row], end = matrix.row_offsets[row + 1];
    if (end < begin) report("row_offsets decrease at row " + std::to_string(row));
    for (spk::index_t k = begin; k < end; ++k) {
      if (matrix.columns[k] < 0 || matrix.columns[k] >= matrix.cols)
        report("column out of range in row " + std::to_string(row));
      if (k > begin && matrix.columns[k - 1] >= matrix.columns[k])
        report("columns not strictly increasing in row " + std::to_string(row));
      if (!std::isfinite(matrix.values[k]))
        report("non-finite value accepted in row " + std::to_string(row));
    }
  }
}

void check_vector(const std::vector<double>& vector) {
  for (std::size_t i = 0; i < vector.size(); ++i)
    if (!std::isfinite(vector[i])) spk::fuzz::report("non-finite vector entry accepted");
}

template <class Parse, class Check>
void run_reader(const std::string& text, Parse&& parse, Check&& check) {
  try {
    std::istringstream in(text);
    check(parse(in));
  } catch (const spk::BadInput& error) {
    spk::fuzz::check_error_message(error.what(), text.size(), {input_name});
  } catch (const spk::NotSupported& error) {
    spk::fuzz::check_error_message(error.what(), text.size(), {input_name});
  } catch (const std::exception& error) {
    spk::fuzz::report(std::string("unexpected exception: ") + error.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (declares_huge_valid_size(text)) return 0;
  run_reader(
      text, [](std::istream& in) { return spk::parse_matrix_market(in, input_name); },
      check_matrix);
  run_reader(
      text, [](std::istream& in) { return spk::parse_vector_market(in, input_name); },
      check_vector);
  return 0;
}
