#pragma once
// Sets of global column ids, the host steps of the distributed AMG setup that name a process's
// halo: the other processes' columns a level's rows use (whole_rows.hpp, the row merge and the
// Galerkin product's union U), and each column's slot in that halo.
//
//   distinct_outside   the distinct ids of a list with repeats (a million entries naming a few
//                      ten thousand columns) outside the own range [own_begin, own_end),
//                      ascending
//   ColumnSlots        a sorted set and the slot of each member: slot_of(c)
//
// Both mark a bitmap over the ids' span [min, max] when it is at most dense_span_limit bits
// (8 MB; a halo's ids lie in the neighbouring processes' blocks), with a running count of the
// set bits per 64-bit word, so that marking is O(n) and a slot is a popcount: O(1). A wider
// span falls back to sort + unique and binary search. (At 1.4M coarse rows a process, the
// 840k received entries' std::sort and lower_bounds took 20-60 ms of the setup.)
#include <cstdint>
#include <vector>

#include "spkrylov/csr_arrays.hpp"

namespace spk {

inline constexpr std::int64_t dense_span_limit = std::int64_t{1} << 26;

// The distinct ids of `ids` and of `more` that lie outside [own_begin, own_end), ascending.
std::vector<global_index_t> distinct_outside(const std::vector<global_index_t>& ids,
                                             global_index_t own_begin, global_index_t own_end,
                                             const std::vector<global_index_t>& more = {});

class ColumnSlots {
 public:
  // members: ascending, distinct.
  explicit ColumnSlots(const std::vector<global_index_t>& members);

  // The slot (place in members) of `id`, or -1 when it is not a member.
  index_t slot_of(global_index_t id) const {
    if (dense_) {
      if (id < first_ || id > last_) return -1;
      const auto bit = static_cast<std::uint64_t>(id - first_);
      const std::uint64_t word = words_[bit >> 6], mask = std::uint64_t{1} << (bit & 63);
      if ((word & mask) == 0) return -1;
      return before_[bit >> 6] + static_cast<index_t>(__builtin_popcountll(word & (mask - 1)));
    }
    return sparse_slot(id);
  }

 private:
  index_t sparse_slot(global_index_t id) const;

  std::vector<global_index_t> members_;  // the sparse form's (the dense one needs none)
  bool dense_ = false;
  global_index_t first_ = 0, last_ = -1;
  std::vector<std::uint64_t> words_;  // bit b: first_ + b is a member
  std::vector<index_t> before_;       // members before each word
};

}  // namespace spk
