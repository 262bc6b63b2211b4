// The distributed AMG hierarchy: the driver of solver/amg/hierarchy_driver.hpp over
// DistributedAmgBuild (both paths of the distributed solver build it on the host).
#include "distributed/amg/distributed_amg_build.hpp"
#include "solver/amg/hierarchy_driver.hpp"
#include "solver/host_space.hpp"  // first: DistributedAmgBuild::Space's inner space

namespace spk {

template class AmgHierarchyOn<DistributedAmgBuild>;

}  // namespace spk
