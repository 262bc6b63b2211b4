#include "distributed/nccl_communicator.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>

#include "core/cuda_check.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"

namespace spk {

struct NcclCommunicator::Init {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  ncclComm_t comm = nullptr;
  ncclResult_t result = ncclSuccess;
  const char* call = "ncclCommInitRank";
  cudaError_t device_status = cudaSuccess;
  double seconds = 0.0;
};

namespace {

const NcclLibrary& agreed_library(MPI_Comm comm) {
  const NcclLibrary* library = nullptr;
  on_every_process(comm, [&] { library = &NcclLibrary::get(); });
  return *library;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

NcclCommunicator::NcclCommunicator(MPI_Comm comm, int channels)
    : library_(agreed_library(comm)), init_(std::make_shared<Init>()) {
  int rank = 0, size = 1;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // 0: the user's setting wins
  ncclUniqueId id{};
  on_every_process(comm, [&] {
    if (rank == 0) SPK_NCCL_CHECK(library_.get_unique_id(&id));
  });
  SPK_MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm));
  int device = 0;
  SPK_CUDA_CHECK(cudaGetDevice(&device));
  // maxCTAs arrived in NCCL 2.17 (NCCL_VERSION(2,17,0) = 21700)
  const bool capped =
      channels > 0 && library_.comm_init_rank_config != nullptr && library_.version >= 21700;
  if (capped) channels_ = channels;
  // The thread holds the shared state and the library (loaded for the process's life), never
  // this object: it may outlive it (abort() before the init finished).
  thread_ =
      std::thread([init = init_, &library = library_, device, size, id, rank, capped, channels] {
        const auto start = std::chrono::steady_clock::now();
        ncclComm_t made = nullptr;
        ncclResult_t result = ncclSuccess;
        const char* call = "ncclCommInitRank";
        const cudaError_t device_status = cudaSetDevice(device);
        if (device_status == cudaSuccess) {
          ncclUniqueId unique = id;
          if (capped) {
            ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
            config.maxCTAs = channels;
            call = "ncclCommInitRankConfig";
            result = library.comm_init_rank_config(&made, size, unique, rank, &config);
          } else {
            result = library.comm_init_rank(&made, size, unique, rank);
          }
        }
        const std::lock_guard<std::mutex> lock(init->mutex);
        init->comm = made;
        init->result = result;
        init->call = call;
        init->device_status = device_status;
        init->seconds = seconds_since(start);
        init->done = true;
        init->finished.notify_all();
      });
}

ncclComm_t NcclCommunicator::get() const {
  if (ready_) return comm_;
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(init_->mutex);
  init_->finished.wait(lock, [this] { return init_->done; });
  waited_s_ += seconds_since(start);
  // a failed init throws at every call
  if (init_->device_status != cudaSuccess)
    detail::throw_cuda_error(init_->device_status, "cudaSetDevice (NCCL's init thread)", __FILE__,
                             __LINE__);
  if (init_->result != ncclSuccess)
    throw_nccl_error(init_->result, init_->call, __FILE__, __LINE__);
  comm_ = init_->comm;
  ready_ = true;
  return comm_;
}

double NcclCommunicator::init_seconds() const {
  const std::lock_guard<std::mutex> lock(init_->mutex);
  return init_->done ? init_->seconds : 0.0;
}

NcclCommunicator::~NcclCommunicator() {
  bool done = false;
  {
    const std::lock_guard<std::mutex> lock(init_->mutex);
    done = init_->done;
  }
  if (!done && abandoned_) {  // waiting for a process that died: left to the process's exit
    thread_.detach();
    return;
  }
  thread_.join();
  if (init_->comm == nullptr || aborted_) return;
  if (abandoned_)
    (void)library_.comm_abort(init_->comm);  // the init finished after abort(): a process failed
  else
    (void)library_.comm_destroy(init_->comm);  // nothing to report to
}

void NcclCommunicator::abort() noexcept {
  abandoned_ = true;
  ncclComm_t comm = nullptr;
  {
    const std::lock_guard<std::mutex> lock(init_->mutex);
    if (init_->done) comm = init_->comm;
  }
  if (comm != nullptr) {
    (void)library_.comm_abort(comm);  // a failure has been reported
    aborted_ = true;
  }
  comm_ = nullptr;
  ready_ = true;  // get() returns null from now on
}

}  // namespace spk
