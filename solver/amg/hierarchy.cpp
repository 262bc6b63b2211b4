// The CPU path's AMG hierarchy: the driver of solver/amg/hierarchy_driver.hpp over HostAmgBuild.
#include "solver/amg/hierarchy_driver.hpp"
#include "solver/amg/host_amg_build.hpp"

namespace spk {

template class AmgHierarchyOn<HostAmgBuild>;

}  // namespace spk
