#pragma once
// host_parallel_from: the units of work (rows, entries) from which a host loop of the setup runs
// on OpenMP threads; below it, on one. A parallel region costs its threads' wake-up: a few
// microseconds on a workstation, but 5 to 20 ms a region on the GPU machines (virtual machines
// with 64 CPUs, four processes each waking 16 threads; SPK_TRACE=1, 4 x H100: send_rows_to_owners
// took 15-19 ms for 5 rows, the 12-row coarsest LU 82 ms in 13 regions). Small AMG levels, halo
// rows and tests stay on one thread; the fine level's passes still spread. Used by the host
// steps of the distributed setup (the split, the row exchange, the coarsest LU), the CPU path's
// AMG setup (strength, aggregation, products) and its halo packing.
#include <cstdint>

namespace spk {

inline constexpr std::int64_t host_parallel_from = std::int64_t{1} << 16;

}  // namespace spk
