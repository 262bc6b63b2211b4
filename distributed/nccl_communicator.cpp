#include "distributed/nccl_communicator.hpp"

#include <cstdlib>

#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"

namespace spk {

namespace {

const NcclLibrary& agreed_library(MPI_Comm comm) {
  const NcclLibrary* library = nullptr;
  on_every_process(comm, [&] { library = &NcclLibrary::get(); });
  return *library;
}

}  // namespace

NcclCommunicator::NcclCommunicator(MPI_Comm comm, int channels)
    : library_(agreed_library(comm)) {
  int rank = 0, size = 1;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // 0: the user's setting wins
  ncclUniqueId id{};
  on_every_process(comm, [&] {
    if (rank == 0) SPK_NCCL_CHECK(library_.get_unique_id(&id));
  });
  SPK_MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm));
  // maxCTAs arrived in NCCL 2.17 (NCCL_VERSION(2,17,0) = 21700)
  if (channels > 0 && library_.comm_init_rank_config != nullptr && library_.version >= 21700) {
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.maxCTAs = channels;
    SPK_NCCL_CHECK(library_.comm_init_rank_config(&comm_, size, id, rank, &config));
    channels_ = channels;
  } else {
    SPK_NCCL_CHECK(library_.comm_init_rank(&comm_, size, id, rank));
  }
}

NcclCommunicator::~NcclCommunicator() {
  if (comm_ != nullptr) (void)library_.comm_destroy(comm_);  // nothing to report to
}

void NcclCommunicator::abort() noexcept {
  if (comm_ != nullptr) (void)library_.comm_abort(comm_);  // a failure has been reported
  comm_ = nullptr;
}

}  // namespace spk
