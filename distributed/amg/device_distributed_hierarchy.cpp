// The GPU path's distributed AMG hierarchy: the driver of solver/amg/hierarchy_driver.hpp over
// DeviceDistributedAmgBuild (every level built on the device of each process).
#include "distributed/amg/device_distributed_amg_build.hpp"
#include "solver/amg/hierarchy_driver.hpp"

namespace spk {

template class AmgHierarchyOn<DeviceDistributedAmgBuild>;

}  // namespace spk
