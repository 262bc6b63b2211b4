#pragma once
// HostHaloExchange<T>: the halo of a distributed x in host memory, over MPI (the CPU path).
// Per exchange, nonblocking so the caller computes meanwhile:
//   start(x):  post every receive (MPI_Irecv into the halo vector), pack the entries each
//              neighbour needs into one send buffer, send them (MPI_Isend);
//   finish():  wait for all of them (MPI_Waitall, or the solver's FaultWatch's polled wait);
//              returns the halo vector.
// Both calls are timed: what finish() waits is communication the caller's work did not hide.
// When the solver dies between start() and finish() (another process failed), the receives
// are cancelled, the requests freed, and both buffers kept until exit (MPI may still use them).
#include <mpi.h>

#include <vector>

#include "distributed/fault_watch.hpp"
#include "distributed/halo_plan.hpp"

namespace spk {

template <class T>
class HostHaloExchange final : public HaloExchange<T> {
 public:
  // watch: the solver's (its waits give up when another process fails); null: plain MPI
  // waits (the CLI's one product that forms b).
  HostHaloExchange(MPI_Comm comm, HaloPlan plan, FaultWatch* watch = nullptr);
  ~HostHaloExchange() override;
  HostHaloExchange(const HostHaloExchange&) = delete;
  HostHaloExchange& operator=(const HostHaloExchange&) = delete;

  void start(const T* x) override;
  const T* finish() override;
  bool capturable() const override { return false; }
  std::string transport() const override { return "mpi"; }

 private:
  void abandon() noexcept;

  MPI_Comm comm_;
  FaultWatch* watch_;
  std::size_t death_action_ = 0;  // abandon(), with the watch
  std::vector<T> send_buffer_;
  std::vector<T> halo_;
  std::vector<MPI_Request> requests_;
  bool in_flight_ = false;  // between start() and finish()
};

}  // namespace spk
