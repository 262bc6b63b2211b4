#pragma once
// FaultWatch: keeps one process's failure inside a collective call of a DistributedSolver
// (its progress callback throws, a device fault, memory running out) from leaving the other
// processes waiting forever in the call's next collective step.
//
//   the failing process   run() catches the exception at the top of the call (not an agreed
//                         error: every process throws those together), sends every other
//                         process a notice (its rank, the call, the one-line message) with
//                         MPI_Isend on a communicator of the watch's own (a second
//                         MPI_Comm_dup, so a notice never matches anything of the solve),
//                         marks the solver dead and rethrows the exception unchanged;
//   the other processes   every wait of a call polls instead of blocking: the nonblocking
//                         form of each collective (MPI_Iallgather, MPI_Iallreduce,
//                         MPI_Ibcast, MPI_Ibarrier) or the halo's requests (MPI_Testall),
//                         tested in a loop with MPI_Iprobe for a notice (on the GPU, the
//                         stream's event likewise: watched_stream_wait.hpp). A process that
//                         finds one marks the solver dead, runs the death actions (abandon a
//                         halo in flight, abort NCCL so that its pending kernels return) and
//                         throws RankFailed naming the failed rank and its message.
//
// Every later call on a dead solver throws RankFailed at once, on every process. Its
// communicator is never used again (the failed process left collectives unjoined); what
// abandoned operations may still touch is never freed (abandoned_buffers.hpp). MPI_Finalize
// then ends normally, and a new DistributedSolver over the caller's communicator works.
//
// Cost without a failure: each wait is a nonblocking call and a test loop whose first test
// usually completes it, plus one MPI_Iprobe per loop turn and per public call. Disabled
// (DistributedOptions::watch_faults false, or one process), every step is the blocking MPI
// call it replaces and a failure on one process leaves the others waiting: call MPI_Abort.
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "distributed/agreed_errors.hpp"

namespace spk {

class FaultWatch {
 public:
  // Collective over comm, the solver's own communicator (which must outlive the watch).
  // enabled: DistributedOptions::watch_faults; always off on one process.
  FaultWatch(MPI_Comm comm, bool enabled);
  ~FaultWatch();
  FaultWatch(const FaultWatch&) = delete;
  FaultWatch& operator=(const FaultWatch&) = delete;

  bool enabled() const { return enabled_; }
  bool dead() const { return failure_.has_value(); }
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int processes() const { return processes_; }

  // One public collective call of the solver (`call_name` for the messages): throws
  // RankFailed at once on a dead solver; an exception of this process inside `call` (not an
  // agreed one) is announced to the others before it is rethrown.
  template <class Call>
  decltype(auto) run(const char* call_name, Call&& call);

  // The collective steps of a call, on comm(), with MPI_Allgather's and the others' arguments
  // (both buffers hold `count` elements of `type` per process where MPI's do).
  void allgather(const void* send, int count, MPI_Datatype type, void* receive);
  void allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op);
  void bcast(void* buffer, int count, MPI_Datatype type, int root);
  void barrier();
  // MPI_Allgather split in two, one at a time: start_allgather copies `send` and begins
  // MPI_Iallgather, finish_allgather waits for it (polled as the others) and copies every
  // process's values into `receive`; the work between them overlaps it (pipelined CG's sums).
  void start_allgather(const void* send, int count, MPI_Datatype type);
  void finish_allgather(void* receive);
  // MPI_Waitall of a halo exchange's requests (on comm()).
  void wait_all(std::vector<MPI_Request>& requests);
  // Throws RankFailed when another process's notice has come (the solver is then dead).
  void poll();

  // What to do when the solver dies (here or by a notice), in the order given: abandon what
  // is in flight. Each action runs at most once, within a call (its owner is alive).
  // Returns the action's handle, for forget_death_action.
  std::size_t on_death(std::function<void()> action);
  // The owner of an action goes away before the watch (a setup's temporary exchange): its
  // action is dropped.
  void forget_death_action(std::size_t handle) noexcept;

 private:
  struct Failure {
    int rank = -1;
    std::string call;     // "solve"
    std::string message;  // one line
  };

  [[noreturn]] void throw_unusable() const;
  void fail_here(const char* call_name, const char* what) noexcept;
  void die(Failure failure) noexcept;
  void wait(MPI_Request& request);
  // test(done) until it sets done, poll() between the tests (which throws on a notice)
  template <class Test>
  void poll_until(Test&& test) {
    int done = 0;
    for (test(done); done == 0; test(done)) poll();
  }
  unsigned char* scratch(std::size_t bytes);

  MPI_Comm comm_;
  MPI_Comm notices_ = MPI_COMM_NULL;  // the watch's own duplicate: notices only
  int rank_ = 0;
  int processes_ = 1;
  bool enabled_ = false;
  std::optional<Failure> failure_;
  std::vector<std::function<void()>> death_actions_;
  // A nonblocking collective's send and receive buffers (the caller's may be gone when it is
  // abandoned), and whether one is in flight.
  std::vector<unsigned char> scratch_;
  bool collective_in_flight_ = false;
  // start_allgather's buffers (send, then every process's) and request, in flight until
  // finish_allgather: kept until exit when the solver dies before then.
  std::vector<unsigned char> split_buffer_;
  std::size_t split_bytes_ = 0;
  MPI_Request split_request_ = MPI_REQUEST_NULL;
  std::vector<char> notice_;  // this process's notice, while its sends may be in flight
  std::vector<MPI_Request> notice_sends_;
};

// Gives up a halo exchange's requests: cancels the receives (the first `receives`) and frees
// every request still active. Their buffers must then be kept (abandoned_buffers.hpp).
void abandon_requests(std::vector<MPI_Request>& requests, std::size_t receives) noexcept;

template <class Call>
decltype(auto) FaultWatch::run(const char* call_name, Call&& call) {
  if (dead()) throw_unusable();
  try {
    poll();  // a notice that came after this process's last call returned
    return call();
  } catch (const std::exception& error) {
    if (!is_agreed(error)) fail_here(call_name, error.what());  // nothing if already dead
    throw;
  } catch (...) {
    fail_here(call_name, "unknown exception");
    throw;
  }
}

}  // namespace spk
