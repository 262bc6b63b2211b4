#pragma once
// The exception hierarchy of spkrylov. Every error carries what went wrong and where
// (a file and line of the input, a config key, or the source location of a failed CUDA
// call). Applications catch spk::Error once, in main, and print what() on one line.
//
//   spk::Error                 base class
//   ├── spk::BadInput          malformed file, bad config key/type/value, NaN in data, ...
//   │   └── spk::BadDiagonal     a diagonal entry a preconditioner must invert is unusable
//   ├── spk::NotSupported      valid input the program cannot handle (complex matrices, ...)
//   ├── spk::CudaError         a CUDA runtime, cuBLAS or cuSPARSE call failed
//   │   └── spk::OutOfDeviceMemory   a device allocation failed (says requested and free bytes)
//   ├── spk::NoDevice          a GPU was required but none is usable
//   └── spk::CommunicationError   an MPI call of a distributed solve failed (names the call
//       │                      and the rank)
//       └── spk::RankFailed      another process of a DistributedSolver failed inside a
//                              collective call (names its rank and its message), or a call
//                              was made on a solver that such a failure left unusable
//
// A solve that does not converge is *not* an exception; it is a status in the result.
#include <stdexcept>
#include <string>

namespace spk {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

class BadInput : public Error {
 public:
  using Error::Error;
};

// A diagonal entry the preconditioner divides by is missing, zero, not finite, or too
// small to invert. row() is 0-based (the C++ API's base); what() says so, and a program
// that reads 1-based files (the CLI) rewords it from row() and problem().
class BadDiagonal : public BadInput {
 public:
  BadDiagonal(const std::string& preconditioner, long long row, const std::string& problem)
      : BadInput(preconditioner + ": row " + std::to_string(row) + " (0-based): " + problem +
                 "; use Preconditioner::none or fix the matrix"),
        preconditioner_(preconditioner),
        row_(row),
        problem_(problem) {}
  const std::string& preconditioner() const { return preconditioner_; }
  long long row() const { return row_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string preconditioner_;
  long long row_;
  std::string problem_;
};

class NotSupported : public Error {
 public:
  using Error::Error;
};

class CudaError : public Error {
 public:
  using Error::Error;
};

class OutOfDeviceMemory : public CudaError {
 public:
  OutOfDeviceMemory(const std::string& what, std::size_t requested_bytes, std::size_t free_bytes)
      : CudaError(what), requested_bytes_(requested_bytes), free_bytes_(free_bytes) {}
  std::size_t requested_bytes() const { return requested_bytes_; }
  std::size_t free_bytes() const { return free_bytes_; }

 private:
  std::size_t requested_bytes_;
  std::size_t free_bytes_;
};

class NoDevice : public Error {
 public:
  using Error::Error;
};

class CommunicationError : public Error {
 public:
  using Error::Error;
};

// A DistributedSolver's call ended because process failed_rank() threw inside it (include/
// spkrylov/distributed.hpp, "Errors"), or the call was made on a solver such a failure left
// unusable. The solver cannot be used again; a new one can.
class RankFailed : public CommunicationError {
 public:
  RankFailed(const std::string& what, int failed_rank)
      : CommunicationError(what), failed_rank_(failed_rank) {}
  int failed_rank() const { return failed_rank_; }

 private:
  int failed_rank_;
};

}  // namespace spk
