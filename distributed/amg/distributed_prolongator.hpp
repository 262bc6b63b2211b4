#pragma once
// DistributedProlongator: the smoothed prolongator of a distributed AMG level (Vanek, Mandel &
// Brezina 1996; solver/amg/smoothed_prolongator.hpp is the one-process form),
//
//   P = (I - w / lambda_max(D^-1 A) D^-1 A) T,
//
// on this process's rows. Aggregates never cross processes, so T is local (each row has the
// entries of its own aggregate, numbered globally); A's halo columns make P's rows reach the
// neighbours' aggregates, through the rows of T those columns name. They are fetched from
// their owners once (row_exchange.hpp: T does not change), and each compute() is then local.
// No entry is dropped, so re-setup (new values of A) gives the same pattern.
#include <vector>

#include "distributed/amg/distributed_level.hpp"
#include "distributed/amg/row_exchange.hpp"

namespace spk {

class DistributedProlongator {
 public:
  // a: A_l; tentative: T_l (a's rows, the coarse level's columns). Collective.
  DistributedProlongator(FaultWatch& watch, const DistributedLevel& a, DistributedLevel tentative,
                         double weight);

  // P's values for A's values, D^-1 (this process's rows) and lambda_max(D^-1 A) > 0. The first
  // call is collective (it makes P's level); later ones are local.
  void compute(const DistributedLevel& a, const std::vector<double>& inverse_diagonal,
               double lambda_max);

  const DistributedLevel& matrix() const { return weight_ == 0.0 ? tentative_ : prolongator_; }

 private:
  FaultWatch& watch_;
  DistributedLevel tentative_;
  FetchedRows<double> ghost_tentative_;  // T's rows of a's halo columns, in halo slot order
  double weight_;
  DistributedLevel prolongator_;
  bool computed_ = false;
};

}  // namespace spk
