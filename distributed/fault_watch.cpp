#include "distributed/fault_watch.hpp"

#include <cstring>
#include <utility>

#include "distributed/abandoned_buffers.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

constexpr int notice_tag = 1;
// A notice's message is cut to this many bytes: small enough to be sent eagerly by every MPI
// transport, so the failing process's MPI_Isend completes without the others' receive.
constexpr std::size_t notice_message_limit = 400;

// `what` on one line (line breaks become spaces), cut to the notice's limit.
std::string one_line(const char* what) {
  std::string line = what != nullptr ? what : "";
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  if (line.size() > notice_message_limit) line = line.substr(0, notice_message_limit) + "...";
  return line;
}

std::size_t type_bytes(MPI_Datatype type) {
  int size = 0;
  SPK_MPI_CHECK(MPI_Type_size(type, &size));
  return static_cast<std::size_t>(size);
}

}  // namespace

FaultWatch::FaultWatch(MPI_Comm comm, bool enabled) : comm_(comm) {
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank_));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &processes_));
  enabled_ = enabled && processes_ > 1;  // every process computes the same
  if (!enabled_) return;
  SPK_MPI_CHECK(MPI_Comm_dup(comm, &notices_));
  SPK_MPI_CHECK(MPI_Comm_set_errhandler(notices_, MPI_ERRORS_RETURN));
}

FaultWatch::~FaultWatch() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || notices_ == MPI_COMM_NULL) return;
  // This process's notice, sent eagerly: its sends have completed, else MPI keeps them going
  // and their buffer stays.
  bool sending = false;
  for (MPI_Request& request : notice_sends_) {
    if (request == MPI_REQUEST_NULL) continue;
    int done = 0;
    if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done == 0) {
      (void)MPI_Request_free(&request);
      sending = true;
    }
  }
  try {
    if (sending) keep_until_exit(std::move(notice_));
  } catch (...) {  // out of memory: nothing left to do for it
  }
  MPI_Comm_free(&notices_);  // nothing to report to
}

std::size_t FaultWatch::on_death(std::function<void()> action) {
  death_actions_.push_back(std::move(action));
  return death_actions_.size() - 1;
}

void FaultWatch::forget_death_action(std::size_t handle) noexcept {
  if (handle < death_actions_.size()) death_actions_[handle] = nullptr;
}

void FaultWatch::throw_unusable() const {
  throw RankFailed("this DistributedSolver is unusable since rank " +
                       std::to_string(failure_->rank) + " failed in " + failure_->call + " (" +
                       failure_->message + "); make a new solver",
                   failure_->rank);
}

void FaultWatch::poll() {
  if (!enabled_) return;
  if (dead()) throw_unusable();
  int found = 0;
  MPI_Status status;
  SPK_MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, notice_tag, notices_, &found, &status));
  if (found == 0) return;
  int length = 0;
  SPK_MPI_CHECK(MPI_Get_count(&status, MPI_CHAR, &length));
  std::vector<char> notice(static_cast<std::size_t>(length > 0 ? length : 0));
  SPK_MPI_CHECK(MPI_Recv(notice.data(), length, MPI_CHAR, status.MPI_SOURCE, notice_tag, notices_,
                         MPI_STATUS_IGNORE));
  // "call\nmessage"
  const std::string text(notice.begin(), notice.end());
  const std::size_t split = text.find('\n');
  Failure failure;
  failure.rank = status.MPI_SOURCE;
  failure.call = text.substr(0, split);
  failure.message = split == std::string::npos ? "" : text.substr(split + 1);
  die(failure);
  throw RankFailed("rank " + std::to_string(failure.rank) + " failed in " + failure.call + ": " +
                       failure.message +
                       " (this DistributedSolver is unusable now: make a new one)",
                   failure.rank);
}

void FaultWatch::fail_here(const char* call_name, const char* what) noexcept {
  if (!enabled_ || dead()) return;
  Failure failure;
  failure.rank = rank_;
  try {
    failure.call = call_name;
    failure.message = one_line(what);
    const std::string text = failure.call + "\n" + failure.message;
    notice_.assign(text.begin(), text.end());
    notice_sends_.assign(static_cast<std::size_t>(processes_), MPI_REQUEST_NULL);
    for (int other = 0; other < processes_; ++other)
      if (other != rank_)  // best effort: a failed send leaves that process as it was
        (void)MPI_Isend(notice_.data(), static_cast<int>(notice_.size()), MPI_CHAR, other,
                        notice_tag, notices_, &notice_sends_[static_cast<std::size_t>(other)]);
  } catch (...) {  // out of host memory: the notice could not be made; dead all the same
  }
  die(std::move(failure));
}

void FaultWatch::die(Failure failure) noexcept {
  failure_ = std::move(failure);
  if (collective_in_flight_) {  // MPI may still write into the scratch buffers
    try {
      keep_until_exit(std::move(scratch_));
    } catch (...) {
    }
    scratch_ = {};
    collective_in_flight_ = false;
  }
  if (split_request_ != MPI_REQUEST_NULL) {  // a split allgather, likewise
    try {
      keep_until_exit(std::move(split_buffer_));
    } catch (...) {
    }
    split_buffer_ = {};
    split_request_ = MPI_REQUEST_NULL;
  }
  for (const std::function<void()>& action : death_actions_) {
    if (!action) continue;  // forgotten: its owner is gone
    try {
      action();
    } catch (...) {  // the next action still runs
    }
  }
  death_actions_.clear();
}

unsigned char* FaultWatch::scratch(std::size_t bytes) {
  if (scratch_.size() < bytes) scratch_.resize(bytes);
  return scratch_.data();
}

void FaultWatch::wait(MPI_Request& request) {
  collective_in_flight_ = true;
  // a notice abandons the request: a collective's cannot be cancelled or freed
  poll_until([&](int& done) { SPK_MPI_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE)); });
  collective_in_flight_ = false;
}

void FaultWatch::allgather(const void* send, int count, MPI_Datatype type, void* receive) {
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Allgather(send, count, type, receive, count, type, comm_));
    return;
  }
  const std::size_t bytes = type_bytes(type) * static_cast<std::size_t>(count);
  unsigned char* buffer = scratch(bytes * (1 + static_cast<std::size_t>(processes_)));
  std::memcpy(buffer, send, bytes);
  MPI_Request request = MPI_REQUEST_NULL;
  SPK_MPI_CHECK(MPI_Iallgather(buffer, count, type, buffer + bytes, count, type, comm_, &request));
  wait(request);
  std::memcpy(receive, buffer + bytes, bytes * static_cast<std::size_t>(processes_));
}

void FaultWatch::allreduce(const void* send, void* receive, int count, MPI_Datatype type,
                           MPI_Op op) {
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Allreduce(send, receive, count, type, op, comm_));
    return;
  }
  const std::size_t bytes = type_bytes(type) * static_cast<std::size_t>(count);
  unsigned char* buffer = scratch(2 * bytes);
  std::memcpy(buffer, send, bytes);
  MPI_Request request = MPI_REQUEST_NULL;
  SPK_MPI_CHECK(MPI_Iallreduce(buffer, buffer + bytes, count, type, op, comm_, &request));
  wait(request);
  std::memcpy(receive, buffer + bytes, bytes);
}

void FaultWatch::start_allgather(const void* send, int count, MPI_Datatype type) {
  split_bytes_ = type_bytes(type) * static_cast<std::size_t>(count);
  split_buffer_.resize(split_bytes_ * (1 + static_cast<std::size_t>(processes_)));
  std::memcpy(split_buffer_.data(), send, split_bytes_);
  SPK_MPI_CHECK(MPI_Iallgather(split_buffer_.data(), count, type,
                               split_buffer_.data() + split_bytes_, count, type, comm_,
                               &split_request_));
}

void FaultWatch::finish_allgather(void* receive) {
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Wait(&split_request_, MPI_STATUS_IGNORE));
  } else {
    // a notice abandons the request (die() keeps its buffer)
    poll_until(
        [&](int& done) { SPK_MPI_CHECK(MPI_Test(&split_request_, &done, MPI_STATUS_IGNORE)); });
  }
  std::memcpy(receive, split_buffer_.data() + split_bytes_,
              split_bytes_ * static_cast<std::size_t>(processes_));
}

void FaultWatch::bcast(void* data, int count, MPI_Datatype type, int root) {
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Bcast(data, count, type, root, comm_));
    return;
  }
  const std::size_t bytes = type_bytes(type) * static_cast<std::size_t>(count);
  unsigned char* buffer = scratch(bytes);
  if (rank_ == root) std::memcpy(buffer, data, bytes);
  MPI_Request request = MPI_REQUEST_NULL;
  SPK_MPI_CHECK(MPI_Ibcast(buffer, count, type, root, comm_, &request));
  wait(request);
  if (rank_ != root) std::memcpy(data, buffer, bytes);
}

void FaultWatch::barrier() {
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Barrier(comm_));
    return;
  }
  MPI_Request request = MPI_REQUEST_NULL;
  SPK_MPI_CHECK(MPI_Ibarrier(comm_, &request));
  wait(request);
}

void FaultWatch::wait_all(std::vector<MPI_Request>& requests) {
  const int count = static_cast<int>(requests.size());
  if (!enabled_) {
    SPK_MPI_CHECK(MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE));
    return;
  }
  // a notice: the exchange's death action abandons the requests
  poll_until([&](int& done) {
    SPK_MPI_CHECK(MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE));
  });
}

void abandon_requests(std::vector<MPI_Request>& requests, std::size_t receives) noexcept {
  for (std::size_t k = 0; k < requests.size(); ++k) {
    MPI_Request& request = requests[k];
    if (request == MPI_REQUEST_NULL) continue;
    if (k < receives) (void)MPI_Cancel(&request);  // a send cannot be cancelled (MPI 4)
    (void)MPI_Request_free(&request);
  }
}

}  // namespace spk
