#pragma once
// Faults of a distributed setup, agreed on: a process that fails at a setup step (a missing
// file, a bad value, a zero pivot, a config that differs from rank 0's) must not leave the
// others waiting in their next collective call.
//
// on_every_process(comm, step) runs step() here, then every process learns whether any
// failed (one MPI_Allreduce). If one did, the lowest failing rank's error is broadcast and
// every process throws it: the same type (BadInput, BadDiagonal, NotSupported, NoDevice,
// CudaError, CommunicationError, else Error) and message, the message starting "rank R: "
// when there are several processes ("rank R (and 2 more): " when others failed too, "rank R
// (and every other rank): " when all did). Every process thus leaves the step at once, and one of
// them (rank 0) prints the one line. step() must not communicate itself: a process that
// failed before a collective call would never reach it. Within a solver's calls the steps run
// over its FaultWatch (fault_watch.hpp), whose waits give up when another process fails.
#include <mpi.h>

#include <exception>
#include <optional>
#include <string>
#include <utility>

namespace spk {

class FaultWatch;

// The mark of an error every process threw at the same step (agree_on_failure): the caller
// may end normally on every process (MPI_Finalize), where an error thrown on one process only
// calls for MPI_Abort. The thrown object is Agreed<E>: an E (catch BadInput as usual) and an
// AgreedFailure.
class AgreedFailure {
 public:
  virtual ~AgreedFailure() = default;
};

template <class E>
class Agreed final : public E, public AgreedFailure {
 public:
  explicit Agreed(E error) : E(std::move(error)) {}
};

// Throws `error` marked as agreed: for a caller that rewords an agreed error (every process
// rewords it the same way).
template <class E>
[[noreturn]] void throw_agreed(E error) {
  throw Agreed<E>(std::move(error));
}

// Whether `error` was thrown by every process at once.
inline bool is_agreed(const std::exception& error) {
  return dynamic_cast<const AgreedFailure*>(&error) != nullptr;
}

// A caught exception in a form that can be sent to the other processes.
struct ErrorRecord {
  int kind = 0;  // which spk::Error type to throw again
  std::string message;
  long long row = -1;          // BadDiagonal
  std::string preconditioner;  // BadDiagonal
  std::string problem;         // BadDiagonal
};

// The exception being handled (call inside a catch block).
ErrorRecord record_current_exception();

// Collective: throws the lowest failing rank's error on every process when any `local` is
// set; returns on every process otherwise.
void agree_on_failure(MPI_Comm comm, const std::optional<ErrorRecord>& local);
// The same over a solver's watched communicator (FaultWatch::comm()).
void agree_on_failure(FaultWatch& watch, const std::optional<ErrorRecord>& local);

// comm: an MPI_Comm, or a solver's FaultWatch.
template <class Comm, class Step>
void on_every_process(Comm&& comm, Step&& step) {
  std::optional<ErrorRecord> failure;
  try {
    step();
  } catch (...) {
    failure = record_current_exception();
  }
  agree_on_failure(comm, failure);
}

}  // namespace spk
