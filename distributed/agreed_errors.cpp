#include "distributed/agreed_errors.hpp"

#include <climits>
#include <cstring>
#include <new>
#include <vector>

#include "distributed/fault_watch.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

enum ErrorKind : int {
  kind_error,
  kind_bad_input,
  kind_bad_diagonal,
  kind_not_supported,
  kind_cuda,
  kind_no_device,
  kind_communication
};

// The record as bytes: kind, row, then each text as its length and characters.
std::vector<char> serialize(const ErrorRecord& record) {
  std::vector<char> bytes;
  const auto put = [&](const void* data, std::size_t size) {
    const char* begin = static_cast<const char*>(data);
    bytes.insert(bytes.end(), begin, begin + size);
  };
  const auto put_text = [&](const std::string& text) {
    const std::uint64_t size = text.size();
    put(&size, sizeof size);
    put(text.data(), text.size());
  };
  put(&record.kind, sizeof record.kind);
  put(&record.row, sizeof record.row);
  put_text(record.message);
  put_text(record.preconditioner);
  put_text(record.problem);
  return bytes;
}

ErrorRecord deserialize(const std::vector<char>& bytes) {
  ErrorRecord record;
  std::size_t at = 0;
  const auto get = [&](void* data, std::size_t size) {
    std::memcpy(data, bytes.data() + at, size);
    at += size;
  };
  const auto get_text = [&](std::string& text) {
    std::uint64_t size = 0;
    get(&size, sizeof size);
    text.assign(bytes.data() + at, static_cast<std::size_t>(size));
    at += static_cast<std::size_t>(size);
  };
  get(&record.kind, sizeof record.kind);
  get(&record.row, sizeof record.row);
  get_text(record.message);
  get_text(record.preconditioner);
  get_text(record.problem);
  return record;
}

[[noreturn]] void throw_record(const ErrorRecord& record, const std::string& prefix) {
  const std::string message = prefix + record.message;
  switch (record.kind) {
    case kind_bad_input: throw_agreed(BadInput(message));
    case kind_bad_diagonal:  // the row names the place: distributed rows are global
      throw_agreed(BadDiagonal(record.preconditioner, record.row, record.problem));
    case kind_not_supported: throw_agreed(NotSupported(message));
    case kind_cuda: throw_agreed(CudaError(message));
    case kind_no_device: throw_agreed(NoDevice(message));
    case kind_communication: throw_agreed(CommunicationError(message));
    default: throw_agreed(Error(message));
  }
}

}  // namespace

ErrorRecord record_current_exception() {
  ErrorRecord record;
  record.kind = kind_error;
  try {
    throw;
  } catch (const BadDiagonal& error) {
    record.kind = kind_bad_diagonal;
    record.message = error.what();
    record.row = error.row();
    record.preconditioner = error.preconditioner();
    record.problem = error.problem();
  } catch (const BadInput& error) {
    record.kind = kind_bad_input;
    record.message = error.what();
  } catch (const NotSupported& error) {
    record.kind = kind_not_supported;
    record.message = error.what();
  } catch (const CudaError& error) {
    record.kind = kind_cuda;
    record.message = error.what();
  } catch (const NoDevice& error) {
    record.kind = kind_no_device;
    record.message = error.what();
  } catch (const CommunicationError& error) {
    record.kind = kind_communication;
    record.message = error.what();
  } catch (const std::bad_alloc&) {
    record.message = "out of host memory";
  } catch (const std::exception& error) {
    record.message = error.what();
  } catch (...) {
    record.message = "unknown error";
  }
  return record;
}

namespace {

// The collective steps of agree() over a plain communicator (setup, the CLI).
struct BlockingCollectives {
  MPI_Comm comm;
  void allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op) {
    SPK_MPI_CHECK(MPI_Allreduce(send, receive, count, type, op, comm));
  }
  void bcast(void* data, int count, MPI_Datatype type, int root) {
    SPK_MPI_CHECK(MPI_Bcast(data, count, type, root, comm));
  }
};

// Collectives: BlockingCollectives or a FaultWatch (the same calls, waits that can give up).
template <class Collectives>
void agree(Collectives& collectives, int rank, int size, const std::optional<ErrorRecord>& local) {
  // the lowest failing rank, INT_MAX when none failed
  const int mine = local ? rank : INT_MAX;
  int first_failed = INT_MAX;
  collectives.allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN);
  if (first_failed == INT_MAX) return;
  const int failed_here = local ? 1 : 0;
  int failed = 0;
  collectives.allreduce(&failed_here, &failed, 1, MPI_INT, MPI_SUM);
  std::vector<char> bytes = rank == first_failed ? serialize(*local) : std::vector<char>{};
  std::uint64_t count = bytes.size();
  collectives.bcast(&count, 1, MPI_UINT64_T, first_failed);
  bytes.resize(static_cast<std::size_t>(count));
  collectives.bcast(bytes.data(), static_cast<int>(count), MPI_CHAR, first_failed);
  std::string prefix;
  if (size > 1) prefix = "rank " + std::to_string(first_failed);
  if (failed == size && size > 1)
    prefix += " (and every other rank)";
  else if (failed > 1)
    prefix += " (and " + std::to_string(failed - 1) + " more)";
  throw_record(deserialize(bytes), prefix.empty() ? prefix : prefix + ": ");
}

}  // namespace

void agree_on_failure(MPI_Comm comm, const std::optional<ErrorRecord>& local) {
  int rank = 0, size = 1;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
  BlockingCollectives collectives{comm};
  agree(collectives, rank, size, local);
}

void agree_on_failure(FaultWatch& watch, const std::optional<ErrorRecord>& local) {
  agree(watch, watch.rank(), watch.processes(), local);
}

}  // namespace spk
