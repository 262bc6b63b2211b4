#pragma once
// HostHaloExchange<T>: the halo of a distributed x in host memory, over MPI (the CPU path).
// Per exchange, nonblocking so the caller computes meanwhile:
//   start(x):  post every receive (MPI_Irecv into the halo vector), pack the entries each
//              neighbour needs into one send buffer, send them (MPI_Isend);
//   finish():  wait for all of them (MPI_Waitall); returns the halo vector.
// Both calls are timed: what finish() waits is communication the caller's work did not hide.
#include <mpi.h>

#include <vector>

#include "distributed/halo_plan.hpp"

namespace spk {

template <class T>
class HostHaloExchange final : public HaloExchange<T> {
 public:
  HostHaloExchange(MPI_Comm comm, HaloPlan plan);
  HostHaloExchange(const HostHaloExchange&) = delete;
  HostHaloExchange& operator=(const HostHaloExchange&) = delete;

  void start(const T* x) override;
  const T* finish() override;
  bool capturable() const override { return false; }
  std::string transport() const override { return "mpi"; }

 private:
  MPI_Comm comm_;
  std::vector<T> send_buffer_;
  std::vector<T> halo_;
  std::vector<MPI_Request> requests_;
};

}  // namespace spk
