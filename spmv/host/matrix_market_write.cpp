// Matrix Market writing: coordinate real general matrices, array real general vectors and
// dense matrices.
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "core/printable_text.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk {
namespace {

// Buffered output to a FILE*, failing with BadInput naming the path.
class MarketWriter {
 public:
  explicit MarketWriter(const std::string& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr)
      throw BadInput(shown_name(path) + ": cannot open for writing (" + std::strerror(errno) + ")");
    buffer_.reserve(capacity + 64);
  }
  ~MarketWriter() {
    if (file_ != nullptr) std::fclose(file_);
  }
  MarketWriter(const MarketWriter&) = delete;
  MarketWriter& operator=(const MarketWriter&) = delete;

  void text(const char* text) {
    buffer_ += text;
    flush_if_full();
  }
  void integer(std::int64_t value) { append_chars(value); }
  void real(double value) { append_chars(value); }
  void space() { buffer_ += ' '; }
  void newline() {
    buffer_ += '\n';
    flush_if_full();
  }

  // Writes what is buffered and closes the file; throws if anything failed.
  void close() {
    flush();
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0) fail();
  }

 private:
  static constexpr std::size_t capacity = 1 << 20;

  template <class Number>
  void append_chars(Number value) {
    char digits[32];
    const auto result = std::to_chars(digits, digits + sizeof(digits), value);
    buffer_.append(digits, result.ptr);
  }
  void flush_if_full() {
    if (buffer_.size() >= capacity) flush();
  }
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
      fail();
    buffer_.clear();
  }
  [[noreturn]] void fail() const {
    throw BadInput(shown_name(path_) + ": write failed (" + std::strerror(errno) + ")");
  }

  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

}  // namespace

void write_matrix_market(const std::string& path, const CsrMatrix<double>& matrix) {
  MarketWriter out(path);
  out.text("%%MatrixMarket matrix coordinate real general\n% written by spkrylov\n");
  out.integer(matrix.rows);
  out.space();
  out.integer(matrix.cols);
  out.space();
  out.integer(matrix.nnz());
  out.newline();
  for (index_t row = 0; row < matrix.rows; ++row) {
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      out.integer(std::int64_t{row} + 1);
      out.space();
      out.integer(std::int64_t{matrix.columns[k]} + 1);
      out.space();
      out.real(matrix.values[k]);
      out.newline();
    }
  }
  out.close();
}

void write_vector_market(const std::string& path, const std::vector<double>& vector) {
  check_index_range(static_cast<std::int64_t>(vector.size()), "vector length");
  MarketWriter out(path);
  out.text("%%MatrixMarket matrix array real general\n% written by spkrylov\n");
  out.integer(static_cast<std::int64_t>(vector.size()));
  out.text(" 1\n");
  for (double value : vector) {
    out.real(value);
    out.newline();
  }
  out.close();
}

void write_dense_market(const std::string& path, const DenseMatrix& matrix) {
  MarketWriter out(path);
  out.text("%%MatrixMarket matrix array real general\n% written by spkrylov\n");
  out.integer(matrix.rows);
  out.space();
  out.integer(matrix.cols);
  out.newline();
  const auto cols = static_cast<std::size_t>(matrix.cols);
  for (std::size_t column = 0; column < cols; ++column)  // column-major, as the format says
    for (std::size_t row = 0; row < static_cast<std::size_t>(matrix.rows); ++row) {
      out.real(matrix.values[row * cols + column]);
      out.newline();
    }
  out.close();
}

}  // namespace spk
