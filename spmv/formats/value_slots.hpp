#pragma once
// ValueSlots: where each CSR nonzero of a matrix sits in a format's value array: slots[k] is
// the index, in the layout's values (padding included), of nonzero k in the order of the CSR
// arrays. Built on the host at setup by the layouts (ell_value_slots, aligned_csr_value_slots)
// and kept on the device by DeviceValues (device_values.hpp) for update_values.
#include <cstdint>
#include <vector>

namespace spk {

using ValueSlots = std::vector<std::uint64_t>;

}  // namespace spk
