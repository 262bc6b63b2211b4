// The GPU path's AMG hierarchy: the driver of solver/amg/hierarchy_driver.hpp over
// DeviceAmgBuild (every level built on the device).
#include "solver/amg/device_amg_build.hpp"
#include "solver/amg/hierarchy_driver.hpp"

namespace spk {

template class AmgHierarchyOn<DeviceAmgBuild>;

}  // namespace spk
